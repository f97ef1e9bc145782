import type { Block } from '../types.js';
import { isObj } from './checks.js';

/**
 * Slack gives every block a block_id and every interactive element an action_id
 * when the app leaves them out (random short strings); payloads then carry those.
 * Returns a deep copy with the gaps filled.
 */
export function assignIds(blocks: readonly Block[], makeId: () => string): Block[] {
  const copy = structuredClone(blocks) as Block[];
  for (const block of copy) {
    if (typeof block.block_id !== 'string') block.block_id = makeId();
    const elements: unknown[] = [];
    if (Array.isArray(block.elements) && block.type === 'actions') elements.push(...block.elements);
    if (block.accessory !== undefined) elements.push(block.accessory);
    if (block.element !== undefined) elements.push(block.element);
    for (const el of elements) {
      if (isObj(el) && el.type !== 'image' && typeof el.action_id !== 'string') el.action_id = makeId();
    }
  }
  return copy;
}
