// A modal's form -> Slack's `view.state.values` (pure; the DOM is only touched
// when a form element is passed, via the standard FormData).
import { actionIdOf, blockIdOf, optionList, parseOption } from './elements.js';

/** Every input block of a view with its (fallback) ids. */
export function inputFields(view) {
  return (view?.blocks ?? [])
    .map((block, i) => ({ block, blockId: blockIdOf(block, i) }))
    .filter(({ block }) => block?.type === 'input' && block.element && typeof block.element === 'object')
    .map(({ block, blockId }) => ({ block, blockId, element: block.element, actionId: actionIdOf(block.element, 0) }));
}

const isEntries = (x) => x != null && typeof x[Symbol.iterator] === 'function';

/**
 * Raw field values `{[block_id]: {[action_id]: string[]}}` from a form element,
 * FormData, or any iterable of [name, value] pairs (names as the renderer
 * wrote them). Every input field of `view` is present, empty when nothing was
 * entered, so a re-render keeps "cleared" as cleared.
 */
export function formValues(source, view) {
  const entries = typeof source?.querySelectorAll === 'function' ? new FormData(source) : source;
  const raw = {};
  for (const { blockId, actionId } of inputFields(view)) (raw[blockId] ??= {})[actionId] = [];
  if (!isEntries(entries)) return raw;
  for (const [name, value] of entries) {
    let key;
    try {
      key = JSON.parse(name);
    } catch {
      continue;
    }
    if (!Array.isArray(key) || key.length !== 2 || typeof value !== 'string') continue;
    const [blockId, actionId] = key;
    ((raw[blockId] ??= {})[actionId] ??= []).push(value);
  }
  return raw;
}

/**
 * Slack's `view.state.values` for `view`'s input blocks. `source` is the form
 * element, a FormData / [name, value] pairs, or a raw map from `formValues`.
 */
export function collectViewState(source, view) {
  const raw = isEntries(source) || typeof source?.querySelectorAll === 'function' ? formValues(source, view) : (source ?? {});
  const values = {};
  for (const { blockId, actionId, element } of inputFields(view)) {
    const got = raw[blockId]?.[actionId];
    const list = (Array.isArray(got) ? got : got == null ? [] : [got]).map(String);
    const value = toStateValue(element, list);
    if (value) (values[blockId] ??= {})[actionId] = value;
  }
  return values;
}

function toStateValue(el, list) {
  const first = list.find((v) => v !== '') ?? null;
  const nonEmpty = list.filter((v) => v !== '');
  const byValue = (v) => optionList(el).find((o) => o.value === v) ?? null;
  const type = el.type;
  switch (type) {
    case 'plain_text_input':
    case 'email_text_input':
    case 'url_text_input':
    case 'number_input':
      return { type, value: first };
    case 'datepicker':
      return { type, selected_date: first };
    case 'timepicker':
      return el.timezone ? { type, selected_time: first, timezone: el.timezone } : { type, selected_time: first };
    case 'datetimepicker': {
      const t = first ? new Date(first).getTime() : NaN;
      return { type, selected_date_time: Number.isNaN(t) ? null : Math.floor(t / 1000) };
    }
    case 'users_select':
      return { type, selected_user: first };
    case 'multi_users_select':
      return { type, selected_users: nonEmpty };
    case 'channels_select':
      return { type, selected_channel: first };
    case 'multi_channels_select':
      return { type, selected_channels: nonEmpty };
    case 'conversations_select':
      return { type, selected_conversation: first };
    case 'multi_conversations_select':
      return { type, selected_conversations: nonEmpty };
    case 'static_select':
    case 'radio_buttons':
      return { type, selected_option: first === null ? null : byValue(first) };
    case 'multi_static_select':
    case 'checkboxes':
      return { type, selected_options: nonEmpty.map(byValue).filter(Boolean) };
    case 'external_select':
      return { type, selected_option: first === null ? null : parseOption(first) };
    case 'multi_external_select':
      return { type, selected_options: nonEmpty.map(parseOption).filter(Boolean) };
    default:
      return null;
  }
}

function isEmpty(v) {
  if (!v) return true;
  const keys = Object.keys(v).filter((k) => k !== 'type' && k !== 'timezone');
  return keys.every((k) => v[k] === null || v[k] === '' || (Array.isArray(v[k]) && v[k].length === 0));
}

/**
 * The checks Slack's own client makes before it sends a submission: required
 * fields and plain-text lengths. Returns `{[block_id]: message}` (empty: fine).
 */
export function validateViewState(view, values) {
  const errors = {};
  for (const { block, blockId, actionId, element } of inputFields(view)) {
    const v = values?.[blockId]?.[actionId];
    if (isEmpty(v)) {
      if (!block.optional) errors[blockId] = 'Please complete this required field.';
      continue;
    }
    if (element.type === 'plain_text_input' && typeof v.value === 'string') {
      if (element.min_length && v.value.length < element.min_length) errors[blockId] = `Please enter at least ${element.min_length} characters.`;
      if (element.max_length && v.value.length > element.max_length) errors[blockId] = `Please enter at most ${element.max_length} characters.`;
    }
  }
  return errors;
}
