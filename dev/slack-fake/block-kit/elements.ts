import { isDate, isObj, isTime, maxItems, maxLength, minItems, optionalString, textObject, type Obj } from './checks.js';
import { LIMITS, type BlockError } from './limits.js';

/** Element types Slack accepts, and where. */
export const INTERACTIVE_ELEMENTS = [
  'button',
  'checkboxes',
  'datepicker',
  'datetimepicker',
  'timepicker',
  'overflow',
  'radio_buttons',
  'static_select',
  'external_select',
  'users_select',
  'conversations_select',
  'channels_select',
  'multi_static_select',
  'multi_external_select',
  'multi_users_select',
  'multi_conversations_select',
  'multi_channels_select',
  'plain_text_input',
  'email_text_input',
  'url_text_input',
  'number_input',
  'rich_text_input',
  'workflow_button',
  'file_input',
];
const SELECTS = ['static_select', 'multi_static_select'];

function option(out: BlockError[], value: unknown, pointer: string, allowMrkdwn: boolean): void {
  if (!isObj(value)) {
    out.push({ message: 'must provide an object', pointer });
    return;
  }
  textObject(out, value.text, `${pointer}/text`, { max: LIMITS.optionText, plainOnly: !allowMrkdwn });
  if (typeof value.value !== 'string') out.push({ message: 'must provide a string', pointer: `${pointer}/value` });
  else maxLength(out, value.value, LIMITS.optionValue, `${pointer}/value`);
  if (value.description !== undefined) textObject(out, value.description, `${pointer}/description`, { max: LIMITS.optionText, plainOnly: !allowMrkdwn });
}

function options(out: BlockError[], el: Obj, pointer: string, max: number, allowMrkdwn: boolean, min = 1): void {
  if (!Array.isArray(el.options)) {
    out.push({ message: 'must provide an array', pointer: `${pointer}/options` });
    return;
  }
  minItems(out, el.options, min, `${pointer}/options`);
  maxItems(out, el.options, max, `${pointer}/options`);
  for (const [i, o] of el.options.entries()) option(out, o, `${pointer}/options/${i}`, allowMrkdwn);
}

function selectOptions(out: BlockError[], el: Obj, pointer: string): void {
  if (el.option_groups !== undefined) {
    if (!Array.isArray(el.option_groups)) {
      out.push({ message: 'must provide an array', pointer: `${pointer}/option_groups` });
      return;
    }
    maxItems(out, el.option_groups, LIMITS.optionGroups, `${pointer}/option_groups`);
    for (const [i, g] of el.option_groups.entries()) {
      const gp = `${pointer}/option_groups/${i}`;
      if (!isObj(g)) {
        out.push({ message: 'must provide an object', pointer: gp });
        continue;
      }
      textObject(out, g.label, `${gp}/label`, { max: LIMITS.optionText, plainOnly: true });
      options(out, g, gp, LIMITS.selectOptions, false);
    }
    return;
  }
  options(out, el, pointer, LIMITS.selectOptions, false);
}

/** A confirmation dialog (`confirm` on a button, select, overflow, picker): title, text, confirm and deny, all plain_text. */
function confirmDialog(out: BlockError[], value: unknown, pointer: string): void {
  if (!isObj(value)) {
    out.push({ message: 'must provide an object', pointer });
    return;
  }
  textObject(out, value.title, `${pointer}/title`, { max: LIMITS.confirmTitle, plainOnly: true });
  textObject(out, value.text, `${pointer}/text`, { max: LIMITS.confirmText, plainOnly: true });
  textObject(out, value.confirm, `${pointer}/confirm`, { max: LIMITS.confirmButton, plainOnly: true });
  textObject(out, value.deny, `${pointer}/deny`, { max: LIMITS.confirmButton, plainOnly: true });
  if (value.style !== undefined && value.style !== 'primary' && value.style !== 'danger') {
    out.push({ message: 'must be one of: primary, danger', pointer: `${pointer}/style` });
  }
}

/** Validates one interactive or display element; `allowed` lists the types this spot accepts. */
export function validateElement(out: BlockError[], el: unknown, pointer: string, allowed: readonly string[]): void {
  if (!isObj(el)) {
    out.push({ message: 'must provide an object', pointer });
    return;
  }
  const type = el.type;
  if (typeof type !== 'string' || !allowed.includes(type)) {
    out.push({ message: `unsupported type: ${String(type)}`, pointer: `${pointer}/type` });
    return;
  }
  if (el.action_id !== undefined) {
    if (typeof el.action_id !== 'string') out.push({ message: 'must be a string', pointer: `${pointer}/action_id` });
    else maxLength(out, el.action_id, LIMITS.actionId, `${pointer}/action_id`);
  }
  if (el.placeholder !== undefined) textObject(out, el.placeholder, `${pointer}/placeholder`, { max: LIMITS.placeholder, plainOnly: true });
  if (el.confirm !== undefined) confirmDialog(out, el.confirm, `${pointer}/confirm`);
  switch (type) {
    case 'button':
      textObject(out, el.text, `${pointer}/text`, { max: LIMITS.buttonText, plainOnly: true });
      optionalString(out, el.value, LIMITS.value, `${pointer}/value`);
      optionalString(out, el.url, LIMITS.url, `${pointer}/url`);
      if (el.style !== undefined && el.style !== 'primary' && el.style !== 'danger') {
        out.push({ message: 'must be one of: primary, danger', pointer: `${pointer}/style` });
      }
      break;
    case 'image':
      optionalString(out, el.alt_text, LIMITS.altText, `${pointer}/alt_text`);
      if (typeof el.alt_text !== 'string') out.push({ message: 'must provide a string', pointer: `${pointer}/alt_text` });
      break;
    case 'plain_text':
    case 'mrkdwn':
      textObject(out, el, pointer, { max: LIMITS.sectionText });
      break;
    case 'checkboxes':
    case 'radio_buttons':
      options(out, el, pointer, LIMITS.choiceOptions, true);
      break;
    case 'overflow':
      options(out, el, pointer, LIMITS.overflowOptions, false);
      break;
    case 'external_select':
    case 'multi_external_select':
      if (el.min_query_length !== undefined && (typeof el.min_query_length !== 'number' || el.min_query_length < 0)) {
        out.push({ message: 'must be a non-negative integer', pointer: `${pointer}/min_query_length` });
      }
      break;
    case 'plain_text_input':
      for (const key of ['min_length', 'max_length'] as const) {
        const n = el[key];
        if (n !== undefined && (typeof n !== 'number' || n < 0 || n > LIMITS.plainTextInputLength)) {
          out.push({ message: `must be between 0 and ${LIMITS.plainTextInputLength}`, pointer: `${pointer}/${key}` });
        }
      }
      optionalString(out, el.initial_value, LIMITS.plainTextInputLength, `${pointer}/initial_value`);
      break;
    case 'datepicker':
      if (el.initial_date !== undefined && !isDate(el.initial_date)) {
        out.push({ message: 'must be a date in the format YYYY-MM-DD', pointer: `${pointer}/initial_date` });
      }
      break;
    case 'timepicker':
      if (el.initial_time !== undefined && !isTime(el.initial_time)) {
        out.push({ message: 'must be a time in the format HH:mm', pointer: `${pointer}/initial_time` });
      }
      break;
    case 'datetimepicker':
      if (el.initial_date_time !== undefined && !Number.isInteger(el.initial_date_time)) {
        out.push({ message: 'must be an integer (Unix seconds)', pointer: `${pointer}/initial_date_time` });
      }
      break;
  }
  if (SELECTS.includes(type)) selectOptions(out, el, pointer);
}
