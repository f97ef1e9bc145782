import type { ActionGroup, ActionView, DueBuckets, RenderContext } from '../../services/action-model.js';
import { actionBlockId } from '../ids.js';
import { actionLine, cardButtons, completeOrReopenButton, takeItButton, viewButton, viewOnly } from './action-card.js';
import { context, section, type Block } from './blocks.js';

export interface ListOptions {
  /** The most blocks this list may use (Slack: 50 per message, 100 per Home tab). */
  maxBlocks: number;
  /**
   * Complete / Edit buttons under each action (two blocks per action), one Complete button beside it (one block),
   * or `shared`: the one button of a row on a shared surface (see `sharedRow`). On a shared surface (`ctx.shared`)
   * Complete and Reopen ask first, and where task text is hidden View takes their place.
   */
  buttons: 'full' | 'complete' | 'shared' | 'none';
  emptyText?: string;
  /**
   * Appended to the line and button block_ids as `~<suffix>`: where the list
   * came from, so a click on an ephemeral list (whose blocks Slack does not
   * send back) can re-render it.
   */
  blockIdSuffix?: string;
}

export interface RenderedList {
  blocks: Block[];
  shown: number;
  hidden: number;
}

/**
 * One row (one block) for a shared surface such as a channel digest: **Take it** on an unassigned action;
 * **View** where task text is hidden (no blind Complete); otherwise **Complete**, confirmed first. A
 * complete action gets no button.
 */
export function sharedRow(a: ActionView, ctx: RenderContext, suffix?: string): Block {
  const block_id = actionBlockId('line', a.id, suffix);
  if (a.completed) return section(actionLine(a, ctx), { block_id });
  const accessory = !a.assignee ? takeItButton(a) : !ctx.showTask ? viewButton(a) : completeOrReopenButton(a, true);
  return section(actionLine(a, ctx), { block_id, accessory });
}

function actionBlocks(a: ActionView, ctx: RenderContext, buttons: ListOptions['buttons'], suffix?: string): Block[] {
  if (buttons === 'shared') return [sharedRow(a, ctx, suffix)];
  const line = actionLine(a, ctx);
  if (buttons === 'full')
    return [section(line, { block_id: actionBlockId('line', a.id, suffix) }), { ...cardButtons(a, ctx), block_id: actionBlockId('card', a.id, suffix) }];
  if (buttons === 'complete' && viewOnly(ctx)) return [section(line, { block_id: actionBlockId('line', a.id, suffix), accessory: viewButton(a) })];
  if (buttons === 'complete' && !a.completed) {
    return [section(line, { block_id: actionBlockId('line', a.id, suffix), accessory: completeOrReopenButton(a, Boolean(ctx.shared)) })];
  }
  return [section(line, { block_id: actionBlockId('line', a.id, suffix) })];
}

/** Groups of actions as blocks, cut to a block budget with a count of what did not fit. */
export function renderActionGroups(groups: ActionGroup[], ctx: RenderContext, opts: ListOptions): RenderedList {
  const blocks: Block[] = [];
  let shown = 0;
  let hidden = 0;
  const budget = opts.maxBlocks - 1; // room for the "more" note
  for (const group of groups) {
    if (group.actions.length === 0) continue;
    if (blocks.length + 2 > budget) {
      hidden += group.actions.length;
      continue;
    }
    blocks.push(section(`*${group.label}* (${group.actions.length})`));
    for (const a of group.actions) {
      const next = actionBlocks(a, ctx, opts.buttons, opts.blockIdSuffix);
      if (blocks.length + next.length > budget) {
        hidden++;
        continue;
      }
      blocks.push(...next);
      shown++;
    }
  }
  if (shown === 0 && hidden === 0) blocks.push(section(opts.emptyText ?? 'Nothing to show.'));
  if (hidden > 0) blocks.push(context(`…and ${hidden} more not shown here.`));
  return { blocks, shown, hidden };
}

/** A person's own actions as the labelled groups of `/care mine` and the Home tab. */
export function myGroups(b: DueBuckets): ActionGroup[] {
  return [
    { label: ':warning: Overdue', actions: b.overdue },
    { label: ':calendar: Due today', actions: b.today },
    { label: ':spiral_calendar_pad: Next 7 days', actions: b.nextWeek },
  ];
}
