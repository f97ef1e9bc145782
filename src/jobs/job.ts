import type { Logger } from '../logging/logger.js';
import type { TickSchedule } from './tick-schedule.js';

export interface JobContext {
  /** Aborted when the scheduler stops or the lease is lost: stop at the next safe point. */
  signal: AbortSignal;
  logger: Logger;
  /**
   * Whether this workspace has any delivery a retry sweep could work, as read for the whole tick (one query for
   * every workspace, before its runs: workspace-scheduler.ts `findDue`); undefined when not read for it (ask).
   */
  unfinishedDeliveries?: boolean;
}

/** What a job is apart from its work: its name, its ticks on the epoch (tick-schedule.ts) and how it runs. */
export interface JobKind {
  name: string;
  schedule: TickSchedule;
  /** Also run once when the scheduler starts (e.g. to catch up a digest missed while the app was down). */
  runOnStart?: boolean;
  /** Work of this instance alone (e.g. its own memory): runs on every instance, without a lease. */
  local?: boolean;
  /** Runs of this kind at once per tick, instead of the scheduler's `concurrency` (work that mostly waits on Slack's pace). */
  concurrency?: number;
  /**
   * Found by what is due (workspace-scheduler.ts `findDue`): a tick runs only the workspaces whose run of
   * this kind is due (job_due); a run may resolve to `{ nextDueAt }` (ms; null: nothing known to come).
   */
  byDue?: boolean;
  /**
   * Its runs sweep their workspace's unfinished deliveries (the changes poll): with `findDue`, the scheduler reads
   * which workspaces have any once a tick and tells each run (JobContext.unfinishedDeliveries).
   */
  sweepsDeliveries?: boolean;
}

/** A job as data: its kind and an idempotent, resumable run. */
export interface Job extends JobKind {
  run(ctx: JobContext): Promise<unknown>;
  /**
   * A local kind's quick word that a run now would do nothing (synchronous, no I/O): the scheduler then
   * leaves the run out, before any of a run's bookkeeping (the read-cache sync where a poll here covered it).
   */
  notDue?(): boolean;
}

export { everySeconds, everySecondsJustAfter } from './tick-schedule.js';
