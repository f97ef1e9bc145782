import type { Block } from './types.js';

/** An interactive element and the block it sits in. */
export interface Located {
  block: Block;
  element: Record<string, unknown>;
}

function norm(s: string): string {
  return s
    .replace(/:[a-z0-9_+-]+:/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
}

/** How a person names a thing: exact text, or the same ignoring case, spacing and :emoji: codes. */
export function textMatches(candidate: unknown, wanted: string): boolean {
  if (typeof candidate !== 'string') return false;
  return candidate === wanted || norm(candidate) === norm(wanted);
}

export function textOf(obj: unknown): string | undefined {
  if (typeof obj === 'object' && obj !== null && typeof (obj as { text?: unknown }).text === 'string') return (obj as { text: string }).text;
  return undefined;
}

/** Every interactive element in blocks, in reading order (accessories, actions, inputs). */
export function interactiveElements(blocks: readonly Block[] | undefined): Located[] {
  const out: Located[] = [];
  for (const block of blocks ?? []) {
    const push = (el: unknown) => {
      if (typeof el === 'object' && el !== null && typeof (el as { type?: unknown }).type === 'string')
        out.push({ block, element: el as Record<string, unknown> });
    };
    if (block.type === 'section' && block.accessory) push(block.accessory);
    if (block.type === 'actions' && Array.isArray(block.elements)) block.elements.forEach(push);
    if (block.type === 'input') push(block.element);
  }
  return out.filter((l) => l.element.type !== 'image');
}

/** A button by its visible text (or action_id). */
export function findButton(blocks: readonly Block[] | undefined, text: string): Located | undefined {
  const buttons = interactiveElements(blocks).filter((l) => l.element.type === 'button');
  return buttons.find((l) => textMatches(textOf(l.element.text), text)) ?? buttons.find((l) => l.element.action_id === text);
}

/** An input block by the label a person reads above it (or its block_id / action_id). */
export function findInput(blocks: readonly Block[] | undefined, label: string): Located | undefined {
  const inputs = interactiveElements(blocks).filter((l) => l.block.type === 'input');
  return inputs.find((l) => textMatches(textOf(l.block.label), label)) ?? inputs.find((l) => l.block.block_id === label || l.element.action_id === label);
}

/**
 * A non-button element outside input blocks (a select, overflow, datepicker...)
 * by action_id, placeholder text, or the section text it sits next to.
 */
export function findControl(blocks: readonly Block[] | undefined, name: string): Located | undefined {
  const controls = interactiveElements(blocks).filter((l) => l.element.type !== 'button' && l.block.type !== 'input');
  return (
    controls.find((l) => l.element.action_id === name) ??
    controls.find((l) => textMatches(textOf(l.element.placeholder), name)) ??
    controls.find((l) => textMatches(textOf(l.block.text), name)) ??
    controls.find((l) => l.block.block_id === name)
  );
}

/**
 * An interactive element by its block_id and action_id. A block the app sent
 * without a block_id can be named `block-<index>`, an element without an
 * action_id `action-<index>` (its place in the actions block; 0 for an
 * accessory or input element), as the playground names them.
 */
export function findByIds(blocks: readonly Block[] | undefined, blockId: string, actionId: string): Located | undefined {
  for (const [i, block] of (blocks ?? []).entries()) {
    const id = typeof block.block_id === 'string' && block.block_id ? block.block_id : `block-${i}`;
    if (id !== blockId) continue;
    const elements: unknown[] = block.type === 'actions' && Array.isArray(block.elements) ? block.elements : [block.accessory ?? block.element];
    for (const [j, el] of elements.entries()) {
      if (typeof el !== 'object' || el === null) continue;
      const e = el as Record<string, unknown>;
      const aid = typeof e.action_id === 'string' && e.action_id ? e.action_id : `action-${j}`;
      if (aid === actionId && typeof e.type === 'string' && e.type !== 'image') return { block, element: e };
    }
  }
  return undefined;
}
