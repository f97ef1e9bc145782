import type { types } from '@slack/bolt';
import { actionCard } from './action-card.js';
import { renderActionGroups } from './action-list.js';
import type { Block } from './blocks.js';
import type { ActionView, RenderContext } from './model.js';

const idOf = (b: types.AnyBlock) => ('block_id' in b && typeof b.block_id === 'string' ? b.block_id : '');
/** `card_<id>` or, in lists that say where they came from, `card_<id>~<source>`. */
const hasId = (b: types.AnyBlock | undefined, base: string) => {
  const id = b ? idOf(b) : '';
  return id === base || id.startsWith(`${base}~`);
};

/**
 * A message's blocks with one action's blocks re-rendered (after Complete,
 * Reopen or Edit), leaving every other block as it was. Null when the message
 * does not show that action.
 */
export function patchActionBlocks(blocks: types.AnyBlock[], action: ActionView, ctx: RenderContext): types.AnyBlock[] | null {
  const id = action.id;
  const card = blocks.findIndex((b) => idOf(b) === `task_${id}`);
  if (card >= 0) {
    const end = blocks.findIndex((b, i) => i > card && hasId(b, `card_${id}`));
    return [...blocks.slice(0, card), ...actionCard(action, ctx), ...blocks.slice(end >= 0 ? end + 1 : card + 1)];
  }
  const line = blocks.findIndex((b) => hasId(b, `line_${id}`));
  if (line < 0) return null;
  const hasButtonsBlock = hasId(blocks[line + 1], `card_${id}`);
  const lineBlock = blocks[line] as types.SectionBlock;
  const mode = hasButtonsBlock ? 'full' : lineBlock.accessory ? 'complete' : 'none';
  const suffix = idOf(lineBlock).slice(`line_${id}~`.length);
  const rendered = renderActionGroups([{ label: '', actions: [action] }], ctx, {
    maxBlocks: 10,
    buttons: mode,
    ...(suffix ? { blockIdSuffix: suffix } : {}),
  }).blocks.slice(1) as Block[];
  // Completed actions in 'complete' mode lose their button: keep the line only.
  return [...blocks.slice(0, line), ...rendered.filter((b) => b.type !== 'context'), ...blocks.slice(line + (hasButtonsBlock ? 2 : 1))];
}
