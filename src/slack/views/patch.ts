import type { types } from '@slack/bolt';
import type { ActionView, RenderContext } from '../../services/action-model.js';
import { isActionBlock, sourceSuffixOf } from '../ids.js';
import { actionCard } from './action-card.js';
import { renderActionGroups } from './action-list.js';
import type { Block } from './blocks.js';

const idOf = (b: types.AnyBlock | undefined) => (b && 'block_id' in b && typeof b.block_id === 'string' ? b.block_id : undefined);

/**
 * A message's blocks with one action's blocks re-rendered (after Complete,
 * Reopen or Edit), leaving every other block as it was. Null when the message
 * does not show that action.
 */
export function patchActionBlocks(blocks: types.AnyBlock[], action: ActionView, ctx: RenderContext): types.AnyBlock[] | null {
  const id = action.id;
  const card = blocks.findIndex((b) => isActionBlock(idOf(b), 'task', id));
  if (card >= 0) {
    const end = blocks.findIndex((b, i) => i > card && isActionBlock(idOf(b), 'card', id));
    return [...blocks.slice(0, card), ...actionCard(action, ctx), ...blocks.slice(end >= 0 ? end + 1 : card + 1)];
  }
  const line = blocks.findIndex((b) => isActionBlock(idOf(b), 'line', id));
  if (line < 0) return null;
  const hasButtonsBlock = isActionBlock(idOf(blocks[line + 1]), 'card', id);
  const lineBlock = blocks[line] as types.SectionBlock;
  const mode = hasButtonsBlock ? 'full' : lineBlock.accessory ? 'complete' : 'none';
  const suffix = sourceSuffixOf(idOf(lineBlock));
  const rendered = renderActionGroups([{ label: '', actions: [action] }], ctx, {
    maxBlocks: 10,
    buttons: mode,
    ...(suffix ? { blockIdSuffix: suffix } : {}),
  }).blocks.slice(1) as Block[];
  // Completed actions in 'complete' mode lose their button: keep the line only.
  return [...blocks.slice(0, line), ...rendered.filter((b) => b.type !== 'context'), ...blocks.slice(line + (hasButtonsBlock ? 2 : 1))];
}
