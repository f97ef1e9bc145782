import cron, { type ScheduledTask } from 'node-cron';
import type { Logger } from '../logging/logger.js';
import type { Store } from '../store/index.js';
import { withLease, withStopSignal } from './leased-run.js';
import type { JobsObserver } from './observer.js';

export interface JobContext {
  /** Aborted when the scheduler stops or the lease is lost: stop at the next safe point. */
  signal: AbortSignal;
  logger: Logger;
}

/** A job as data: a name, a cron schedule (seconds field allowed) and an idempotent, resumable run. */
export interface Job {
  name: string;
  schedule: string;
  /** Also run once when the scheduler starts (e.g. to catch up a digest missed while the app was down). */
  runOnStart?: boolean;
  /** Work of this instance alone (e.g. its own memory): runs on every instance, without a lease. */
  local?: boolean;
  run(ctx: JobContext): Promise<unknown>;
}

/** What a job is apart from its work: its name, schedule and how it runs. */
export type JobKind = Omit<Job, 'run'>;

export interface Scheduler {
  start(): void;
  /** Run one job now through the same lease as a scheduled run; false when another holder has it. */
  runOnce(name: string): Promise<{ ran: boolean; result?: unknown }>;
  /** Stop scheduling, abort and wait for running jobs, release leases. */
  stop(): Promise<void>;
}

export interface SchedulerOptions {
  jobs: Job[];
  store: Store;
  holder: string;
  logger: Logger;
  /** Lease length; renewed at a third of it while a job runs. Default 60 s. */
  leaseMs?: number;
  /** Told about leases taken and let go and about each run (metrics). */
  observer?: JobsObserver | undefined;
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

export function createScheduler(options: SchedulerOptions): Scheduler {
  const { store, holder, logger } = options;
  const observe = options.observer ?? {};
  const leaseMs = options.leaseMs ?? 60_000;
  const jobs = new Map(options.jobs.map((j) => [j.name, j]));
  const running = new Map<string, Promise<{ ran: boolean; result?: unknown }>>();
  const tasks: ScheduledTask[] = [];
  const stopping = new AbortController();

  type RunResult = { ran: boolean; result?: unknown };

  async function localRun(job: Job): Promise<RunResult> {
    return withStopSignal(stopping.signal, async (signal) => {
      try {
        return { ran: true, result: await job.run({ signal, logger: logger.child({ job: job.name }) }) };
      } catch (err) {
        logger.error('job failed; it runs again next time', { job: job.name, error: err });
        return { ran: true, result: { error: err instanceof Error ? err.message : String(err) } };
      }
    });
  }

  async function leasedRun(job: Job): Promise<RunResult> {
    if (job.local) return localRun(job);
    const holding = {
      store,
      holder,
      logger,
      leaseMs,
      stopping: stopping.signal,
      fields: { job: job.name },
      observe: (held: boolean) => observe.lease?.(job.name, held),
    };
    const outcome = await withLease(job.name, holding, async (signal): Promise<RunResult> => {
      const started = Date.now();
      try {
        const result = await job.run({ signal, logger: logger.child({ job: job.name }) });
        logger.debug('job finished', { job: job.name, ms: Date.now() - started });
        observe.ran?.(job.name, Date.now() - started, true);
        return { ran: true, result };
      } catch (err) {
        // The cursor was not moved past what failed: the next run resumes from it.
        logger.error('job failed; it will resume from its cursor next run', { job: job.name, error: err });
        observe.ran?.(job.name, Date.now() - started, false);
        return { ran: true, result: { error: err instanceof Error ? err.message : String(err) } };
      }
    });
    if (outcome.held) return outcome.value;
    // The store is unreachable: skip this run (a scheduled tick must never crash the process).
    if (outcome.error !== undefined) logger.warn('could not take a job lease; skipping this run', { job: job.name, error: outcome.error });
    return { ran: false }; // another instance has it, or this one is stopping
  }

  function runLeased(job: Job): Promise<RunResult> {
    if (stopping.signal.aborted) return Promise.resolve({ ran: false });
    if (running.has(job.name)) return Promise.resolve({ ran: false }); // never overlap within this instance
    // Marked as running before the lease is even asked for, so two triggers at
    // once (a tick and runOnce) cannot both pass the check above.
    const work = leasedRun(job).finally(() => running.delete(job.name));
    running.set(job.name, work);
    return work;
  }

  return {
    start() {
      for (const job of jobs.values()) {
        const task = cron.createTask(job.schedule, () => void runLeased(job), { name: job.name, noOverlap: true });
        void task.start();
        tasks.push(task);
        if (job.runOnStart) void runLeased(job);
      }
    },
    async runOnce(name) {
      const job = jobs.get(name);
      if (!job) throw new Error(`no job named ${name}`);
      // Wait for this instance's current run (and any that started meanwhile), then run.
      for (let current = running.get(name); current; current = running.get(name)) await current.catch(() => undefined);
      return runLeased(job);
    },
    async stop() {
      for (const task of tasks) await task.destroy();
      tasks.length = 0;
      stopping.abort();
      await Promise.allSettled([...running.values()]);
    },
  };
}
