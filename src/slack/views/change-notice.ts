import type { ActionView, RenderContext } from '../../services/action-model.js';
import type { ChangeSaid, EditedField } from '../../services/notices/change-kinds.js';
import { slackDate } from '../../time/slack-date.js';
import { userText } from '../text.js';
import { actionCard, actionLabel } from './action-card.js';
import { section, type Block } from './blocks.js';

const VERBS = {
  complete: 'completed',
  reopen: 'reopened',
  take: 'took',
  snooze: 'snoozed',
  earlier: 'moved earlier',
  unsnooze: 'undid the snooze of',
  edit: 'edited',
} as const;

const dueNow = (a: ActionView, ctx: RenderContext) => (a.due ? slackDate(a.due, ctx.timezone) : 'no time');

/** What an edit changed, as the action is now: "It is now due …; it is now urgent; the task changed." */
function editedNow(a: ActionView, ctx: RenderContext, fields: EditedField[]): string {
  const said = fields.map((f) =>
    f === 'due' ? `it is now due ${dueNow(a, ctx)}` : f === 'urgent' ? (a.urgent ? 'it is now urgent' : 'it is no longer urgent') : 'the task changed',
  );
  if (said.length === 0) return '';
  const joined = said.join('; ');
  return ` ${joined[0]!.toUpperCase()}${joined.slice(1)}.`;
}

/** What the change left, after the headline: the new assignee, or the due time now (in the reader's zone). */
function afterwards(a: ActionView, ctx: RenderContext, change: ChangeSaid): string {
  if (change.kind === 'take') return ' It is now assigned to them.';
  if (change.kind === 'edit') return editedNow(a, ctx, change.fields ?? []);
  if (change.kind !== 'snooze' && change.kind !== 'earlier' && change.kind !== 'unsnooze') return '';
  return change.kind !== 'unsnooze' ? ` It is now due ${dueNow(a, ctx)}.` : ` It is due ${dueNow(a, ctx)} again.`;
}

/** Whom an action taken away through Edit is with now, by name (never a mention: nobody is pinged by someone else's DM). */
function nowWith(a: ActionView): string {
  if (!a.assignee) return 'now assigned to nobody';
  return `now ${userText(a.assignee.name ?? a.assignee.slackName ?? 'someone else', 80)}`;
}

/**
 * The DM to an action's assignee when someone else completed, reopened, took,
 * snoozed or edited it (or undid their snooze) through Slack, or to its former
 * assignee when someone else moved it to another person through Edit: who, what,
 * and the card (their own, so its buttons work as on any card). The notification
 * text names no task.
 */
export function changeNotice(a: ActionView, ctx: RenderContext, change: ChangeSaid): { text: string; blocks: Block[] } {
  if (change.kind === 'unassign') {
    const text = `${changeHeadline(a, change)} (${nowWith(a)})`;
    return { text, blocks: [section(`:bust_in_silhouette: *${text}*.`), ...actionCard(a, { ...ctx, shared: false })] };
  }
  const text = changeHeadline(a, change);
  return { text, blocks: [section(`:bust_in_silhouette: *${text}*.${afterwards(a, ctx, change)}`), ...actionCard(a, { ...ctx, shared: false })] };
}

/**
 * Who did what to the reader's action: "@priya snoozed your action #5", "@priya took action #5 away from you".
 * The change DM's headline, also when it is drawn again (what follows it there is the action as it is now).
 */
export function changeHeadline(a: ActionView, change: ChangeSaid): string {
  if (change.kind === 'unassign') return `<@${change.by}> took action ${actionLabel(a)} away from you`;
  // A snooze that brought the due time forward is said as such: "moved your action #5 earlier".
  return change.kind === 'earlier'
    ? `<@${change.by}> moved your action ${actionLabel(a)} earlier`
    : `<@${change.by}> ${VERBS[change.kind]} your action ${actionLabel(a)}`;
}
