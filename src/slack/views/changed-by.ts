import { slackDate } from '../../time/slack-date.js';
import { ActionIds, actionBlockId } from '../ids.js';
import { button, section, type Block } from './blocks.js';

/** What was done to an action on a channel post. */
export type ChangedByKind = 'complete' | 'reopen' | 'undo' | 'take' | 'snooze';

const WORDS: Record<Exclude<ChangedByKind, 'snooze'>, string> = {
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
  /** While set: an Undo button (its signed value, see undo-token.ts) that works for this many minutes. */
  undo?: { value: string; minutes: number } | undefined;
}

/** "Completed by @sophie", "Snoozed to 30 Nov at 09:00 by @priya" (no Undo). */
export function changedByText(change: Pick<ChangedBy, 'kind' | 'by' | 'to'>): string {
  if (change.kind === 'snooze') return `:zzz: Snoozed${change.to ? ` to ${slackDate(change.to.due, change.to.tz)}` : ''} by <@${change.by}>`;
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
