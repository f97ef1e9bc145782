import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { everySeconds, everySecondsJustAfter, type Job } from '../../src/jobs/job.js';
import { createWorkspaceScheduler, type WorkspaceScheduler as Scheduler, type WorkspaceSchedulerOptions } from '../../src/jobs/workspace-scheduler.js';
import { memoryLogger, silentLogger } from '../../src/logging/logger.js';
import { openStore, type OpenedStore } from '../../src/store/index.js';

/** The one scheduler serving a deployment of one workspace: its jobs are run for that workspace (`teamId` left out). */
const TEAM = 'T1';
function createScheduler(o: Omit<WorkspaceSchedulerOptions, 'kinds' | 'workspaces' | 'jobFor'> & { jobs: Job[] }): Scheduler {
  const { jobs, ...rest } = o;
  return createWorkspaceScheduler({
    ...rest,
    kinds: jobs,
    workspaces: async () => [TEAM],
    jobFor: async (_teamId, kind) => jobs.find((j) => j.name === kind) ?? null,
  });
}
/** A job's lease: one per kind and workspace. */
const leaseOf = (job: string) => `${job}@${TEAM}`;

/** A job that records how many runs overlap and waits on a gate the test opens. */
function gatedJob(name = 'job') {
  let active = 0;
  const state = { runs: 0, maxActive: 0, aborted: 0, started: [] as string[] };
  let opens: (() => void)[] = [];
  let startedWaiters: (() => void)[] = [];
  const job: Job = {
    name,
    schedule: { everyMs: 100 * 365 * 86_400_000 }, // once a century: these tests trigger runs themselves
    async run({ signal }) {
      active++;
      state.runs++;
      state.maxActive = Math.max(state.maxActive, active);
      const waiting = startedWaiters;
      startedWaiters = [];
      for (const w of waiting) w();
      try {
        await new Promise<void>((resolve) => {
          opens.push(resolve);
          signal.addEventListener('abort', () => {
            state.aborted++;
            resolve();
          });
        });
        return state.runs;
      } finally {
        active--;
      }
    },
  };
  return {
    job,
    state,
    open() {
      const o = opens;
      opens = [];
      for (const f of o) f();
    },
    /** Resolves once `n` runs have begun in all (default: the next one, or at once if one is running). */
    started: (n?: number) => {
      const reached = n === undefined ? active > 0 : state.runs >= n;
      if (reached) return Promise.resolve();
      return new Promise<void>((r) => {
        const check = () => (n === undefined || state.runs >= n ? r() : startedWaiters.push(check));
        startedWaiters.push(check);
      });
    },
    get active() {
      return active;
    },
  };
}

const tick = (ms = 20) => new Promise((r) => setTimeout(r, ms));

describe('the scheduler, for one workspace, with a real SQLite store', () => {
  let dir: string;
  let now: number;
  const clock = () => now;
  const stores: OpenedStore[] = [];
  const schedulers: Scheduler[] = [];
  /** A store handle of its own, as a second app instance would have. */
  const instanceStore = async () => {
    const s = await openStore({ dataDir: dir, clock, sharedClock: clock });
    stores.push(s);
    return s;
  };
  const scheduler = (store: OpenedStore, holder: string, jobs: Job[], leaseMs = 60_000) => {
    const s = createScheduler({ store, holder, jobs, logger: silentLogger, leaseMs, now: clock });
    schedulers.push(s);
    return s;
  };

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'scheduler-test-'));
    now = Date.UTC(2027, 2, 1, 9, 0, 0);
  });
  afterEach(async () => {
    for (const s of schedulers.splice(0)) await s.stop();
    for (const s of stores.splice(0)) await s.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('lets only one of two instances run a job at a time', async () => {
    const g = gatedJob();
    const a = scheduler(await instanceStore(), 'instance-a', [g.job]);
    const b = scheduler(await instanceStore(), 'instance-b', [g.job]);
    const first = a.runOnce('job');
    await g.started();
    expect(await b.runOnce('job')).toEqual({ ran: false, skipped: 'leased' });
    g.open();
    expect(await first).toEqual({ ran: true, result: 1 });
    // Released at the end of the run: the other instance may run it now.
    const second = b.runOnce('job');
    await g.started(2);
    g.open();
    expect(await second).toEqual({ ran: true, result: 2 });
    expect(g.state.maxActive).toBe(1);
  });

  it('runs a local job on every instance at once (no lease), still never twice at once within one', async () => {
    const g = gatedJob('local');
    const local = { ...g.job, local: true };
    const a = scheduler(await instanceStore(), 'instance-a', [local]);
    const b = scheduler(await instanceStore(), 'instance-b', [local]);
    const runs = [a.runOnce('local'), b.runOnce('local')];
    await g.started(2);
    expect(g.active).toBe(2);
    const again = a.runOnce('local'); // waits for this instance's own run
    await tick();
    expect(g.active).toBe(2);
    g.open();
    await g.started(3);
    g.open();
    expect((await Promise.all([...runs, again])).map((r) => r.ran)).toEqual([true, true, true]);
  });

  it('schedules the cache sync just after each poll tick', () => {
    expect(everySeconds(5)).toEqual({ everyMs: 5_000 });
    expect(everySecondsJustAfter(5)).toEqual({ everyMs: 5_000, atMs: 1_000 });
    expect(everySeconds(60)).toEqual({ everyMs: 60_000, atMs: 0 });
    expect(everySecondsJustAfter(60)).toEqual({ everyMs: 60_000, atMs: 5_000 });
    expect(everySecondsJustAfter(300)).toEqual({ everyMs: 300_000, atMs: 5_000 });
  });

  it('never runs a job twice at once in one instance, even when triggered twice together', async () => {
    const g = gatedJob();
    const a = scheduler(await instanceStore(), 'instance-a', [g.job]);
    const both = Promise.all([a.runOnce('job'), a.runOnce('job')]);
    await g.started();
    await tick();
    expect(g.active).toBe(1);
    g.open();
    await g.started(2); // the second run starts only after the first ended
    expect(g.active).toBe(1);
    g.open();
    const results = await both;
    expect(results.map((r) => r.ran)).toEqual([true, true]);
    expect(g.state.runs).toBe(2);
    expect(g.state.maxActive).toBe(1);
  });

  it('lets another instance take over when a dead holder’s lease expires', async () => {
    const g = gatedJob();
    const store = await instanceStore();
    // An instance that died while holding the lease: nobody renews it.
    expect(await store.acquireLease(leaseOf('job'), 'dead-instance', 30_000)).toBe(true);
    const b = scheduler(await instanceStore(), 'instance-b', [g.job]);
    expect(await b.runOnce('job')).toEqual({ ran: false, skipped: 'leased' });
    now += 29_000;
    expect(await b.runOnce('job')).toEqual({ ran: false, skipped: 'leased' });
    now += 1_000; // expired
    const run = b.runOnce('job');
    await g.started();
    expect((await store.getLease(leaseOf('job')))?.holder).toBe('instance-b');
    g.open();
    expect(await run).toMatchObject({ ran: true });
    expect(await store.getLease(leaseOf('job'))).toBeNull();
  });

  it('logs a lease renewal that fails and stops the run once the lease may have run out', async () => {
    const g = gatedJob();
    const store = await instanceStore();
    const logger = memoryLogger('debug');
    const a = createScheduler({ store, holder: 'instance-a', jobs: [g.job], logger, leaseMs: 3_000, now: clock }); // renewed every second
    schedulers.push(a);
    const run = a.runOnce('job');
    await g.started();
    await store.close(); // the database goes away under the running job: renewals fail
    const deadline = Date.now() + 10_000;
    while (g.state.aborted === 0 && Date.now() < deadline) await tick(100);
    expect(g.state.aborted).toBe(1);
    expect(await run).toMatchObject({ ran: true });
    expect(logger.lines.some((l) => l.includes('could not renew a job lease'))).toBe(true);
    expect(logger.lines.some((l) => l.includes('stopping the run'))).toBe(true);
  });

  it('keeps its lease while a long run renews it, and aborts a run whose lease was taken', async () => {
    const g = gatedJob();
    const a = scheduler(await instanceStore(), 'instance-a', [g.job], 3_000); // renewed every second
    const b = scheduler(await instanceStore(), 'instance-b', [g.job], 3_000);
    const run = a.runOnce('job');
    await g.started();
    now += 2_000;
    await tick(1_150); // a renewal happened: the lease now ends 3 s after the new now
    now += 2_000; // past the first expiry, within the renewed one
    expect(await b.runOnce('job')).toEqual({ ran: false, skipped: 'leased' });
    expect(g.state.aborted).toBe(0);

    // A stall longer than the lease (a paused process): b takes over, a learns it at its next renewal.
    now += 10_000;
    const taken = b.runOnce('job');
    await tick(1_150);
    expect(g.state.aborted).toBe(1);
    expect(await run).toMatchObject({ ran: true });
    g.open();
    expect(await taken).toMatchObject({ ran: true });
  });

  it('stop() aborts and waits for a running job, then releases its lease', async () => {
    const g = gatedJob();
    let finished = false;
    const slow: Job = {
      name: 'slow',
      schedule: { everyMs: 100 * 365 * 86_400_000 },
      async run(ctx) {
        await g.job.run(ctx);
        await tick(100); // finishing work after the abort (e.g. saving a cursor)
        finished = true;
      },
    };
    const store = await instanceStore();
    const a = scheduler(store, 'instance-a', [slow]);
    const run = a.runOnce('slow');
    await g.started();
    expect((await store.getLease(leaseOf('slow')))?.holder).toBe('instance-a');
    await a.stop();
    expect(g.state.aborted).toBe(1);
    expect(finished).toBe(true);
    expect(await run).toMatchObject({ ran: true });
    expect(await store.getLease(leaseOf('slow'))).toBeNull();
    expect(await a.runOnce('slow')).toEqual({ ran: false });
  });

  it('a run triggered just before stop() does not start after it', async () => {
    const g = gatedJob();
    const a = scheduler(await instanceStore(), 'instance-a', [g.job]);
    const run = a.runOnce('job'); // still waiting for its lease
    await a.stop();
    expect(await run).toEqual({ ran: false });
    expect(g.state.runs).toBe(0);
  });

  it('a failing job reports the error, frees the lease, is backed off, and runs again once its wait is over', async () => {
    let calls = 0;
    const flaky: Job = {
      name: 'flaky',
      schedule: { everyMs: 100 * 365 * 86_400_000 },
      async run() {
        calls++;
        if (calls === 1) throw new Error('care API down');
        return 'ok';
      },
    };
    const store = await instanceStore();
    const logger = memoryLogger('debug');
    const a = createScheduler({ store, holder: 'instance-a', jobs: [flaky], logger, now: clock });
    schedulers.push(a);
    expect(await a.runOnce('flaky')).toEqual({ ran: true, result: { error: 'Error: care API down' }, failed: true });
    expect(logger.lines.join('\n')).toContain('workspace job failed; backed off');
    expect(await store.getLease(leaseOf('flaky'))).toBeNull();
    // A minute's wait after a first failure (jobs/backoff.ts), then it runs again.
    expect(await a.runOnce('flaky')).toEqual({ ran: false, skipped: 'backoff' });
    now += 60_000;
    expect(await a.runOnce('flaky')).toEqual({ ran: true, result: 'ok' });
  });

  it('a store that cannot be reached skips the run instead of crashing', async () => {
    const store = await instanceStore();
    const g = gatedJob();
    const a = scheduler(store, 'instance-a', [g.job]);
    await store.close();
    stores.splice(stores.indexOf(store), 1);
    expect(await a.runOnce('job')).toEqual({ ran: false, skipped: 'leased' });
    expect(g.state.runs).toBe(0);
  });

  it('on a schedule, two started instances never overlap and a runOnStart job runs at start', async () => {
    let active = 0;
    let maxActive = 0;
    const runsBy: Record<string, number> = { a: 0, b: 0 };
    const every = (holder: string): Job => ({
      name: 'every-second',
      schedule: { everyMs: 1000 },
      async run() {
        active++;
        maxActive = Math.max(maxActive, active);
        runsBy[holder]!++;
        await tick(300);
        active--;
      },
    });
    let startRuns = 0;
    const onStart: Job = { name: 'on-start', schedule: { everyMs: 100 * 365 * 86_400_000 }, runOnStart: true, run: async () => void startRuns++ };
    const a = scheduler(await instanceStore(), 'a', [every('a'), onStart]);
    const b = scheduler(await instanceStore(), 'b', [every('b')]);
    // The ticks follow the app's clock: it runs on with real time here.
    const running = setInterval(() => {
      now += 50;
    }, 50);
    a.start();
    b.start();
    await tick(2_600);
    await a.stop();
    await b.stop();
    clearInterval(running);
    expect(startRuns).toBe(1);
    expect(runsBy.a! + runsBy.b!).toBeGreaterThanOrEqual(2);
    expect(maxActive).toBe(1);
  });
});
