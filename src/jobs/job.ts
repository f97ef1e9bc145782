import type { Logger } from '../logging/logger.js';

export interface JobContext {
  /** Aborted when the scheduler stops or the lease is lost: stop at the next safe point. */
  signal: AbortSignal;
  logger: Logger;
}

/** What a job is apart from its work: its name, a cron schedule (seconds field allowed) and how it runs. */
export interface JobKind {
  name: string;
  schedule: string;
  /** Also run once when the scheduler starts (e.g. to catch up a digest missed while the app was down). */
  runOnStart?: boolean;
  /** Work of this instance alone (e.g. its own memory): runs on every instance, without a lease. */
  local?: boolean;
  /** Runs of this kind at once per tick, instead of the scheduler's `concurrency` (work that mostly waits on Slack's pace). */
  concurrency?: number;
}

/** A job as data: its kind and an idempotent, resumable run. */
export interface Job extends JobKind {
  run(ctx: JobContext): Promise<unknown>;
}

/** Every N seconds as a cron expression node-cron accepts (whole minutes past 59 s). */
export function everySeconds(seconds: number): string {
  if (seconds < 60) return `*/${Math.max(1, Math.round(seconds))} * * * * *`;
  const minutes = Math.max(1, Math.round(seconds / 60));
  return minutes === 1 ? '0 * * * * *' : `0 */${minutes} * * * *`;
}

/** As everySeconds, a moment later (1 s; 5 s past the minute for minutes): just after each run of the other. */
export function everySecondsJustAfter(seconds: number): string {
  if (seconds < 60) {
    const n = Math.max(1, Math.round(seconds));
    return n === 1 ? '* * * * * *' : `1-59/${n} * * * * *`;
  }
  const minutes = Math.max(1, Math.round(seconds / 60));
  return minutes === 1 ? '5 * * * * *' : `5 */${minutes} * * * *`;
}
