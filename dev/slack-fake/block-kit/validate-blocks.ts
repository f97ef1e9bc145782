import { isObj, maxItems, maxLength, minItems, textObject, type Obj } from './checks.js';
import { INTERACTIVE_ELEMENTS, validateElement } from './elements.js';
import { LIMITS, type BlockError } from './limits.js';

export type Surface = 'message' | 'modal' | 'home';

const BLOCK_TYPES = ['section', 'header', 'divider', 'actions', 'context', 'input', 'image', 'rich_text', 'video', 'file', 'markdown'];
const ACCESSORY = [
  'button',
  'checkboxes',
  'datepicker',
  'image',
  'multi_static_select',
  'multi_external_select',
  'multi_users_select',
  'multi_conversations_select',
  'multi_channels_select',
  'overflow',
  'radio_buttons',
  'static_select',
  'external_select',
  'users_select',
  'conversations_select',
  'channels_select',
  'timepicker',
  'workflow_button',
];
const ACTIONS = INTERACTIVE_ELEMENTS.filter(
  (t) => !['plain_text_input', 'email_text_input', 'url_text_input', 'number_input', 'rich_text_input', 'file_input'].includes(t),
);
const INPUT = INTERACTIVE_ELEMENTS.filter((t) => !['button', 'overflow', 'workflow_button'].includes(t));
const CONTEXT = ['image', 'plain_text', 'mrkdwn'];

/** Checks action_ids inside one block are unique, like Slack. */
function uniqueActionIds(out: BlockError[], elements: unknown[], pointer: string): void {
  const seen = new Set<string>();
  elements.forEach((el, i) => {
    if (!isObj(el) || typeof el.action_id !== 'string') return;
    if (seen.has(el.action_id)) out.push({ message: `duplicate action_id: ${el.action_id}`, pointer: `${pointer}/${i}/action_id` });
    seen.add(el.action_id);
  });
}

function validateBlock(out: BlockError[], block: Obj, p: string): void {
  switch (block.type) {
    case 'section':
      if (block.text === undefined && block.fields === undefined) {
        out.push({ message: 'must provide either text or fields', pointer: p });
      }
      if (block.text !== undefined) textObject(out, block.text, `${p}/text`, { max: LIMITS.sectionText });
      if (block.fields !== undefined) {
        if (!Array.isArray(block.fields)) out.push({ message: 'must provide an array', pointer: `${p}/fields` });
        else {
          maxItems(out, block.fields, LIMITS.sectionFields, `${p}/fields`);
          for (const [i, f] of block.fields.entries()) textObject(out, f, `${p}/fields/${i}`, { max: LIMITS.sectionFieldText });
        }
      }
      if (block.accessory !== undefined) validateElement(out, block.accessory, `${p}/accessory`, ACCESSORY);
      break;
    case 'header':
      textObject(out, block.text, `${p}/text`, { max: LIMITS.headerText, plainOnly: true });
      break;
    case 'actions':
      if (!Array.isArray(block.elements)) return void out.push({ message: 'must provide an array', pointer: `${p}/elements` });
      minItems(out, block.elements, 1, `${p}/elements`);
      maxItems(out, block.elements, LIMITS.actionsElements, `${p}/elements`);
      for (const [i, el] of block.elements.entries()) validateElement(out, el, `${p}/elements/${i}`, ACTIONS);
      uniqueActionIds(out, block.elements, `${p}/elements`);
      break;
    case 'context':
      if (!Array.isArray(block.elements)) return void out.push({ message: 'must provide an array', pointer: `${p}/elements` });
      minItems(out, block.elements, 1, `${p}/elements`);
      maxItems(out, block.elements, LIMITS.contextElements, `${p}/elements`);
      for (const [i, el] of block.elements.entries()) validateElement(out, el, `${p}/elements/${i}`, CONTEXT);
      break;
    case 'input':
      textObject(out, block.label, `${p}/label`, { max: LIMITS.label, plainOnly: true });
      if (block.hint !== undefined) textObject(out, block.hint, `${p}/hint`, { max: LIMITS.hint, plainOnly: true });
      validateElement(out, block.element, `${p}/element`, INPUT);
      break;
    case 'image':
      if (typeof block.alt_text !== 'string') out.push({ message: 'must provide a string', pointer: `${p}/alt_text` });
      else maxLength(out, block.alt_text, LIMITS.altText, `${p}/alt_text`);
      if (typeof block.image_url !== 'string' && !isObj(block.slack_file)) {
        out.push({ message: 'must provide image_url or slack_file', pointer: p });
      }
      break;
    case 'markdown':
      if (typeof block.text !== 'string') out.push({ message: 'must provide a string', pointer: `${p}/text` });
      else maxLength(out, block.text, LIMITS.markdownBlockText, `${p}/text`);
      break;
  }
}

/**
 * Validates a `blocks` array for a surface (message: 50 blocks, modal/Home: 100),
 * every block's limits, and that block_ids are unique within the surface.
 * `base` is the JSON pointer of the array ("/blocks" or "/view/blocks").
 */
export function validateBlocks(blocks: unknown, surface: Surface, base: string): BlockError[] {
  const out: BlockError[] = [];
  if (!Array.isArray(blocks)) return [{ message: 'must provide an array', pointer: base }];
  const max = surface === 'message' ? LIMITS.blocksPerMessage : LIMITS.blocksPerView;
  maxItems(out, blocks, max, base);
  const blockIds = new Set<string>();
  for (const [i, block] of blocks.entries()) {
    const p = `${base}/${i}`;
    if (!isObj(block)) {
      out.push({ message: 'must provide an object', pointer: p });
      continue;
    }
    if (typeof block.type !== 'string' || !BLOCK_TYPES.includes(block.type)) {
      out.push({ message: `unsupported type: ${String(block.type)}`, pointer: `${p}/type` });
      continue;
    }
    if (block.block_id !== undefined) {
      if (typeof block.block_id !== 'string') out.push({ message: 'must be a string', pointer: `${p}/block_id` });
      else {
        maxLength(out, block.block_id, LIMITS.blockId, `${p}/block_id`);
        if (blockIds.has(block.block_id)) out.push({ message: `duplicate block_id: ${block.block_id}`, pointer: `${p}/block_id` });
        blockIds.add(block.block_id);
      }
    }
    validateBlock(out, block, p);
  }
  return out;
}
