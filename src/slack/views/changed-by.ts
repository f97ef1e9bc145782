import { slackDate } from '../../time/slack-date.js';
import { ActionIds, actionBlockId } from '../ids.js';
import { userText } from '../text.js';
import { button, section, type Block } from './blocks.js';

/** What was done to an action on a channel post. */
export type ChangedByKind = 'complete' | 'reopen' | 'undo' | 'take' | 'snooze' | 'edit';

/**
 * What an Edit on a channel post changed: the assignee (names, null: nobody), the due time (each
 * reader sees it in their own zone; `tz` writes the fallback), urgency (as it is now), whether the
 * task changed (never its words), and whether anything else did (groups, reminders, pin).
 */
export interface EditSummary {
  assignee?: { from: string | null; to: string | null } | undefined;
  due?: { from: Date | null; to: Date | null; tz: string } | undefined;
  urgent?: boolean | undefined;
  task?: boolean | undefined;
  other?: boolean | undefined;
}

const WORDS: Record<Exclude<ChangedByKind, 'snooze' | 'edit'>, string> = {
  complete: ':white_check_mark: Completed by',
  reopen: ':arrows_counterclockwise: Reopened by',
  undo: ':leftwards_arrow_with_hook: Undone by',
  take: ':raising_hand: Taken by',
};

export interface ChangedBy {
  kind: ChangedByKind;
  /** The Slack user who did it. */
  by: string;
  /** Snooze: the new due time (each reader sees it in their own zone; `tz` writes the fallback). */
  to?: { due: Date; tz: string } | undefined;
  /** Snooze: the new due time is earlier than the one it replaced (said as "Due moved earlier", not "Snoozed"). */
  earlier?: boolean | undefined;
  /** Edit: what it changed. */
  edits?: EditSummary | undefined;
  /** While set: an Undo button (its signed value, see undo-token.ts) that works for this many minutes. */
  undo?: { value: string; minutes: number } | undefined;
}

const who = (name: string | null) => (name ? userText(name, 80) : 'nobody');
const when = (due: Date | null, tz: string) => (due ? slackDate(due, tz) : 'no time');

/** "assignee Amelia Hughes → Ben Whitaker, due Nov 24 at 8:00 AM → Nov 25 at 9:00 AM, now urgent, the task" (empty: nothing). */
export function editSummaryText(e: EditSummary): string {
  return [
    ...(e.assignee ? [`assignee ${who(e.assignee.from)} → ${who(e.assignee.to)}`] : []),
    ...(e.due ? [`due ${when(e.due.from, e.due.tz)} → ${when(e.due.to, e.due.tz)}`] : []),
    ...(e.urgent === undefined ? [] : [e.urgent ? 'now urgent' : 'no longer urgent']),
    ...(e.task ? ['the task'] : []),
    ...(e.other ? [e.task || e.assignee || e.due || e.urgent !== undefined ? 'other details' : 'details'] : []),
  ].join(', ');
}

/**
 * "Completed by @sophie", "Snoozed to 30 Nov at 09:00 by @priya", "Due moved earlier to 11 Mar at 09:00 by @priya",
 * "Edited by @priya: assignee … → …" (no Undo).
 */
export function changedByText(change: Pick<ChangedBy, 'kind' | 'by' | 'to' | 'earlier' | 'edits'>): string {
  if (change.kind === 'edit') {
    const what = change.edits ? editSummaryText(change.edits) : '';
    return `:pencil2: Edited by <@${change.by}>${what ? `: ${what}` : ''}`;
  }
  if (change.kind === 'snooze') {
    const to = change.to ? ` to ${slackDate(change.to.due, change.to.tz)}` : '';
    return change.earlier ? `:arrow_up: Due moved earlier${to} by <@${change.by}>` : `:zzz: Snoozed${to} by <@${change.by}>`;
  }
  return `${WORDS[change.kind]} <@${change.by}>`;
}

export const undoButton = (value: string) => button('Undo', ActionIds.undo, value);

/**
 * The row under an action on a channel post saying who last changed it there
 * ("Completed by @sophie · Undo"), with an Undo button while `undo` is given.
 */
export function changedByBlock(actionId: string, change: ChangedBy): Block {
  const undo = change.undo;
  const text = `${changedByText(change)}${undo ? ` · Undo (for ${undo.minutes} minutes)` : ''}`;
  return section(text, { block_id: actionBlockId('by', actionId), ...(undo ? { accessory: undoButton(undo.value) } : {}) });
}
