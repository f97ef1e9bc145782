import type { ActionView, RenderContext } from '../../services/action-model.js';
import { slackDate } from '../../time/slack-date.js';
import { actionCard, actionLabel } from './action-card.js';
import { section, type Block } from './blocks.js';

const VERBS = { complete: 'completed', reopen: 'reopened', take: 'took', snooze: 'snoozed', unsnooze: 'undid the snooze of' } as const;

/** What the change left, after the headline: the new assignee, or the due time now (in the reader's zone). */
function afterwards(a: ActionView, ctx: RenderContext, kind: keyof typeof VERBS): string {
  if (kind === 'take') return ' It is now assigned to them.';
  if (kind !== 'snooze' && kind !== 'unsnooze') return '';
  const due = a.due ? slackDate(a.due, ctx.timezone) : 'no time';
  return kind === 'snooze' ? ` It is now due ${due}.` : ` It is due ${due} again.`;
}

/**
 * The DM to an action's assignee when someone else completed, reopened, took
 * or snoozed it (or undid their snooze) through Slack: who, what, and the card
 * (their own, so its buttons work as on any card). The notification text names no task.
 */
export function changeNotice(a: ActionView, ctx: RenderContext, change: { kind: keyof typeof VERBS; by: string }): { text: string; blocks: Block[] } {
  const text = `<@${change.by}> ${VERBS[change.kind]} your action ${actionLabel(a)}`;
  return { text, blocks: [section(`:bust_in_silhouette: *${text}*.${afterwards(a, ctx, change.kind)}`), ...actionCard(a, { ...ctx, shared: false })] };
}
