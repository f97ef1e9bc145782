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
