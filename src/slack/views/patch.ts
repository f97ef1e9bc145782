import type { types } from '@slack/bolt';
import type { ActionView, RenderContext } from '../../services/action-model.js';
import { BlockIds, isActionBlock, sourceSuffixOf } from '../ids.js';
import { actionCard } from './action-card.js';
import { renderActionGroups } from './action-list.js';
import type { Block } from './blocks.js';
import { changedByBlock, changedByText, type ChangedBy } from './changed-by.js';
import { urgentAlert } from './notices.js';
import { cut } from '../cut.js';

/** Slack's limit of blocks in a message. */
const MESSAGE_BLOCKS = 50;

const idOf = (b: types.AnyBlock | undefined) => (b && 'block_id' in b && typeof b.block_id === 'string' ? b.block_id : undefined);

/** The action's blocks in a message re-rendered: what comes before, the new blocks, and what comes after. */
function replaceAction(blocks: types.AnyBlock[], action: ActionView, ctx: RenderContext): [types.AnyBlock[], types.AnyBlock[], types.AnyBlock[]] | null {
  const id = action.id;
  // An urgent alert stays an alert (its heading, and Take it while it is open).
  const alert = blocks.findIndex((b) => isActionBlock(idOf(b), 'alert', id));
  if (alert >= 0) {
    const buttons = isActionBlock(idOf(blocks[alert + 1]), 'card', id) ? 1 : 0;
    // The answers' blocks (who is on it; I'm on it / I can't) stay as the post has them: the listener draws them anew when it knows them.
    const answers = new Set([BlockIds.answers(id), BlockIds.answerButtons(id)]);
    const alertBlocks = urgentAlert(action, { ...ctx, shared: true }).blocks.filter((b) => !answers.has(idOf(b) ?? ''));
    return [blocks.slice(0, alert), alertBlocks, blocks.slice(alert + 1 + buttons)];
  }
  const card = blocks.findIndex((b) => isActionBlock(idOf(b), 'task', id));
  if (card >= 0) {
    const end = blocks.findIndex((b, i) => i > card && isActionBlock(idOf(b), 'card', id));
    return [blocks.slice(0, card), actionCard(action, ctx), blocks.slice(end >= 0 ? end + 1 : card + 1)];
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
  return [blocks.slice(0, line), rendered.filter((b) => b.type !== 'context'), blocks.slice(line + (hasButtonsBlock ? 2 : 1))];
}

/**
 * A message's blocks with one action's blocks re-rendered (after Complete,
 * Reopen, Edit, Take it…), leaving every other block as it was. With
 * `changedBy`, a row saying who did it (changed-by.ts) replaces the action's
 * earlier one and follows its blocks; without, an earlier row stays. A message
 * with no room for one more block gets the words in the action's own text
 * instead, without Undo. Null when the message does not show that action.
 */
export function patchActionBlocks(blocks: types.AnyBlock[], action: ActionView, ctx: RenderContext, changedBy?: ChangedBy): types.AnyBlock[] | null {
  const kept = changedBy ? blocks.filter((b) => !isActionBlock(idOf(b), 'by', action.id)) : blocks;
  const parts = replaceAction(kept, action, ctx);
  if (!parts) return null;
  const [before, rendered, after] = parts;
  if (!changedBy) return [...before, ...rendered, ...after];
  if (before.length + rendered.length + 1 + after.length <= MESSAGE_BLOCKS) return [...before, ...rendered, changedByBlock(action.id, changedBy), ...after];
  const first = rendered[0] as types.SectionBlock | undefined;
  const folded =
    first?.type === 'section' && first.text
      ? [{ ...first, text: { ...first.text, text: cut(`${first.text.text}\n${changedByText(changedBy)}`, 3000) } }, ...rendered.slice(1)]
      : rendered;
  return [...before, ...folded, ...after];
}
