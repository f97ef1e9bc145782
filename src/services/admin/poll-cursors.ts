/** The changes poll's cursors in the store: written by the job, read by the admins' status. */

/** The newest `modified` the poll has seen (the care system's clock), ISO; the next poll starts there. */
export const CHANGES_CURSOR = 'changes-poll';

/** When the poll last finished (the app's clock), and how: JSON of LastPollRun. */
export const CHANGES_LAST_RUN_CURSOR = 'changes-poll:last-run';

export interface LastPollRun {
  at: string;
  ok: boolean;
  /** Why the run failed (the error's message, cut to 300 characters). */
  error?: string;
  requests: number;
  seen: number;
  /** When the poll last finished without an error (ISO, the app's clock); kept through failed runs. */
  lastOkAt?: string;
}

/** A poll with no good run for this many of its intervals is late (and never before LATE_AFTER_AT_LEAST_MS). */
export const LATE_AFTER_POLLS = 3;
/** A 5 s poll that is busy for a while (fifty alerts at Slack's post a second) is not late. */
export const LATE_AFTER_AT_LEAST_MS = 60_000;

/** How long without a good run before the admins' status calls a poll every `pollSeconds` late. */
export function pollLateAfterMs(pollSeconds: number): number {
  return Math.max(LATE_AFTER_POLLS * pollSeconds * 1000, LATE_AFTER_AT_LEAST_MS);
}

/**
 * The longest a good run that says nothing new (the same counts as the last one written) goes unwritten:
 * half the time after which the status calls the poll late, so a poll that runs is never shown late. Written
 * at least this often, the last run the status shows is at most this much plus an interval old.
 */
export function lastRunRefreshMs(pollSeconds: number): number {
  return pollLateAfterMs(pollSeconds) / 2;
}
