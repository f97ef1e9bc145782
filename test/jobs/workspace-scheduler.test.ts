import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { JobsObserver } from '../../src/jobs/observer.js';
import type { Job, JobContext, JobKind } from '../../src/jobs/job.js';
import { createWorkspaceScheduler, type WorkspaceScheduler, type WorkspaceSchedulerOptions } from '../../src/jobs/workspace-scheduler.js';
import { troubleOf as troubleOfState, type WorkspaceTrouble } from '../../src/jobs/workspace-trouble.js';
import { memoryLogger, silentLogger } from '../../src/logging/logger.js';
import { type OpenedStore, openStore } from '../../src/store/index.js';

const MINUTE = 60_000;
const teams = (n: number, prefix = 'T') => Array.from({ length: n }, (_, i) => `${prefix}${String(i).padStart(3, '0')}`);
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Behaviour = (ctx: JobContext, teamId: string, kind: string) => Promise<unknown>;

/**
 * The workspaces' jobs, shared by every instance in a test (as the care API and
 * Slack are): counts runs per kind and workspace and how many of the same run at once.
 */
function fleet(defaultBehaviour: Behaviour = async () => 'ok') {
  const runs = new Map<string, number>();
  const active = new Map<string, number>();
  let overlaps = 0;
  const behaviours = new Map<string, Behaviour>();
  const key = (kind: string, teamId: string) => `${kind}:${teamId}`;
  return {
    runs,
    get overlaps() {
      return overlaps;
    },
    count: (kind: string, teamId: string) => runs.get(key(kind, teamId)) ?? 0,
    total: (kind: string) => [...runs].filter(([k]) => k.startsWith(`${kind}:`)).reduce((n, [, v]) => n + v, 0),
    /** How that workspace's job of that kind behaves from now on (any kind when `kind` is left out). */
    set(teamId: string, behaviour: Behaviour, kind = '*') {
      behaviours.set(key(kind, teamId), behaviour);
    },
    async jobFor(teamId: string, kind: string): Promise<Job | null> {
      return {
        name: kind,
        schedule: { everyMs: 100 * 365 * 86_400_000 },
        async run(ctx) {
          const k = key(kind, teamId);
          runs.set(k, (runs.get(k) ?? 0) + 1);
          active.set(k, (active.get(k) ?? 0) + 1);
          if (active.get(k)! > 1) overlaps++;
          try {
            const b = behaviours.get(k) ?? behaviours.get(key('*', teamId)) ?? defaultBehaviour;
            return await b(ctx, teamId, kind);
          } finally {
            active.set(k, active.get(k)! - 1);
          }
        },
      };
    },
  };
}

/** A behaviour that waits until the run is aborted (stop, or a lost lease). */
const hangs: Behaviour = (ctx) =>
  new Promise((resolve) => {
    if (ctx.signal.aborted) resolve('aborted');
    ctx.signal.addEventListener('abort', () => resolve('aborted'));
  });

const failsWith =
  (message: string, extra: Record<string, unknown> = {}): Behaviour =>
  async () => {
    throw Object.assign(new Error(message), extra);
  };

describe('workspace scheduler with a real SQLite store', () => {
  let dir: string;
  let now: number;
  const clock = () => now;
  const stores: OpenedStore[] = [];
  const schedulers: WorkspaceScheduler[] = [];
  /** A store handle of its own, as a second app instance would have. */
  const instanceStore = async () => {
    const s = await openStore({ dataDir: dir, clock, sharedClock: clock });
    stores.push(s);
    return s;
  };
  const POLL: JobKind = { name: 'changes-poll', schedule: { everyMs: 100 * 365 * 86_400_000 } };
  const DIGESTS: JobKind = { name: 'digests', schedule: { everyMs: 100 * 365 * 86_400_000 } };
  const instance = async (
    holder: string,
    f: ReturnType<typeof fleet>,
    list: string[],
    more: Partial<WorkspaceSchedulerOptions> = {},
  ): Promise<WorkspaceScheduler & { store: OpenedStore }> => {
    const store = more.store ?? (await instanceStore());
    const s = createWorkspaceScheduler({
      store,
      holder,
      logger: silentLogger,
      kinds: [POLL, DIGESTS],
      workspaces: async () => list,
      jobFor: (teamId, kind) => f.jobFor(teamId, kind),
      now: clock,
      ...more,
    });
    schedulers.push(s);
    return Object.assign(s, { store: store as OpenedStore });
  };
  /** The workspace's trouble episode as its job state rows say (null when none). */
  const troubleOf = async (store: OpenedStore, teamId: string) => troubleOfState(await store.readJobState(teamId)) as WorkspaceTrouble;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'workspace-scheduler-test-'));
    now = Date.UTC(2027, 2, 1, 9, 0, 0);
  });
  afterEach(async () => {
    for (const s of schedulers.splice(0)) await s.stop();
    for (const s of stores.splice(0)) await s.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('two instances ticking the same moment run each of 40 workspaces exactly once between them', async () => {
    const f = fleet(async () => {
      await pause(2); // a little work, so the two instances' runs interleave
      return 'ok';
    });
    const list = teams(40);
    const ranLabels = new Set<string>();
    const leaseEvents = { a: [] as [string, boolean][], b: [] as [string, boolean][] };
    const observer = (events: [string, boolean][]): JobsObserver => ({
      lease: (job, held) => events.push([job, held]),
      ran: (job) => void ranLabels.add(job),
    });
    const a = await instance('instance-a', f, list, { observer: observer(leaseEvents.a) });
    const b = await instance('instance-b', f, list, { observer: observer(leaseEvents.b) });

    // The same scheduled moment; b's clock fires a little later, when a has run some workspaces already.
    const slot = Date.UTC(2027, 2, 1, 9, 0, 0);
    const ticking = a.tick('changes-poll', { slot });
    await vi.waitFor(() => expect(f.total('changes-poll')).toBeGreaterThanOrEqual(10));
    const [ra, rb] = await Promise.all([ticking, b.tick('changes-poll', { slot })]);
    for (const t of list) expect(f.count('changes-poll', t)).toBe(1);
    expect(ra.ran + rb.ran).toBe(40);
    expect(ra.skipped + rb.skipped).toBe(40);
    expect(ra.failed + rb.failed).toBe(0);
    expect(f.overlaps).toBe(0);

    // The next scheduled moment: once more each.
    const [ra2, rb2] = await Promise.all([b.tick('changes-poll', { slot: slot + MINUTE }), a.tick('changes-poll', { slot: slot + MINUTE })]);
    for (const t of list) expect(f.count('changes-poll', t)).toBe(2);
    expect(ra2.ran + rb2.ran).toBe(40);

    // Metrics are labelled by kind, never by workspace; the lease gauge says "holds some" and ends at 0.
    expect([...ranLabels]).toEqual(['changes-poll']);
    const events = [...leaseEvents.a, ...leaseEvents.b];
    expect(events.length).toBeGreaterThan(0);
    expect(new Set(events.map(([job]) => job))).toEqual(new Set(['changes-poll']));
    for (const e of [leaseEvents.a, leaseEvents.b]) if (e.length) expect(e.at(-1)).toEqual(['changes-poll', false]);
    for (const t of list) expect(await a.store.getLease(`changes-poll@${t}`)).toBeNull();
  });

  it('skips a workspace whose lease another instance holds, and runs the others', async () => {
    const f = fleet();
    const list = teams(3);
    let release!: () => void;
    const gate = new Promise((r) => (release = () => r('done')));
    f.set('T001', () => gate, 'changes-poll');
    const a = await instance('instance-a', f, list);
    const b = await instance('instance-b', f, list);

    const held = a.runOnce('changes-poll', 'T001');
    await vi.waitFor(() => expect(f.count('changes-poll', 'T001')).toBe(1));
    expect((await b.store.getLease('changes-poll@T001'))?.holder).toBe('instance-a');
    expect(await b.runOnce('changes-poll', 'T001')).toEqual({ ran: false, skipped: 'leased' });
    expect(await b.tick('changes-poll')).toEqual({ ran: 2, skipped: 1, failed: 0 });
    expect(f.count('changes-poll', 'T001')).toBe(1);
    // Another kind of the same workspace has its own lease.
    expect(await b.runOnce('digests', 'T001')).toMatchObject({ ran: true, result: 'ok' });
    release();
    expect(await held).toEqual({ ran: true, result: 'done' });
    expect(await b.runOnce('changes-poll', 'T001')).toMatchObject({ ran: true });
    expect(f.overlaps).toBe(0);
  });

  it("a kind's own concurrency sets its slots per tick; the others keep the scheduler's", async () => {
    let active = 0;
    const most = new Map<string, number>();
    const f = fleet(async (_ctx, _teamId, kind) => {
      active++;
      most.set(kind, Math.max(most.get(kind) ?? 0, active));
      await pause(5);
      active--;
      return 'ok';
    });
    const warnings: string[] = [];
    const onWarning = (w: Error) => void warnings.push(w.name);
    process.on('warning', onWarning);
    try {
      const list = teams(30);
      const a = await instance('instance-a', f, list, { concurrency: 2, kinds: [POLL, { ...DIGESTS, concurrency: 24 }] });
      expect(await a.tick('digests')).toEqual({ ran: 30, skipped: 0, failed: 0 });
      expect(await a.tick('changes-poll')).toEqual({ ran: 30, skipped: 0, failed: 0 });
      expect(most.get('digests')).toBe(24);
      expect(most.get('changes-poll')).toBe(2);
      await pause(10);
      // 24 runs at once listen for the scheduler's stop: no MaxListenersExceededWarning.
      expect(warnings).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('a hung workspace holds one slot of the pool: 20 others all run in the same tick; stop() aborts it and lets its lease go', async () => {
    const f = fleet();
    const list = ['HUNG', ...teams(20)];
    f.set('HUNG', hangs);
    const logger = memoryLogger('debug');
    const a = await instance('instance-a', f, list, { logger, concurrency: 8 });

    let settled = false;
    const ticking = a.tick('changes-poll').then((r) => {
      settled = true;
      return r;
    });
    await vi.waitFor(() => expect(teams(20).every((t) => f.count('changes-poll', t) === 1)).toBe(true));
    expect(settled).toBe(false); // the tick ends when every run has, and one is hung
    expect((await a.store.getLease('changes-poll@HUNG'))?.holder).toBe('instance-a');
    // A second tick meanwhile runs the others again and leaves the hung one alone.
    expect(await a.tick('changes-poll')).toEqual({ ran: 20, skipped: 1, failed: 0 });

    await a.stop();
    expect(await ticking).toEqual({ ran: 21, skipped: 0, failed: 0 });
    expect(await a.store.getLease('changes-poll@HUNG')).toBeNull();
    expect(await troubleOf(a.store, 'HUNG')).toBeNull(); // stopped, not failed
    expect(await a.runOnce('changes-poll', 'T000')).toEqual({ ran: false });
    expect(logger.lines.join('\n')).not.toContain('failed');
  });

  it('backs off a failing workspace (1, 2, 4 minutes…), tells its trouble once, and tells when it recovers', async () => {
    const f = fleet();
    const list = ['SICK', 'WELL'];
    const told: { teamId: string; trouble: unknown }[] = [];
    const recovered: { teamId: string; trouble: unknown }[] = [];
    const a = await instance('instance-a', f, list, {
      onTrouble: async (teamId, trouble) => void told.push({ teamId, trouble }),
      onRecovered: async (teamId, trouble) => void recovered.push({ teamId, trouble }),
    });
    const t0 = now;
    f.set('SICK', failsWith('care API refused the key xoxb-1234-secret-token', { code: 'unauthorized', status: 401 }));

    expect(await a.tick('changes-poll')).toEqual({ ran: 2, skipped: 0, failed: 1 });
    const first = await troubleOf(a.store, 'SICK');
    expect(first).toMatchObject({ since: t0, failures: 1, nextAttemptAt: t0 + MINUTE, kind: 'changes-poll', told: true });
    expect(first.error).toBe('Error [code=unauthorized, status=401]: care API refused the key [redacted]');
    expect(told).toEqual([{ teamId: 'SICK', trouble: { since: t0, failures: 1, error: first.error, kind: 'changes-poll' } }]);

    now = t0 + 59_000; // backed off: not run, not counted as a failure
    expect(await a.tick('changes-poll')).toEqual({ ran: 1, skipped: 1, failed: 0 });
    expect(await a.runOnce('changes-poll', 'SICK')).toEqual({ ran: false, skipped: 'backoff' });
    expect(f.count('changes-poll', 'SICK')).toBe(1);
    expect((await troubleOf(a.store, 'SICK')).failures).toBe(1);

    now = t0 + MINUTE; // tried again, fails again: 2 minutes now
    expect(await a.tick('changes-poll')).toMatchObject({ failed: 1 });
    expect(await troubleOf(a.store, 'SICK')).toMatchObject({ since: t0, failures: 2, nextAttemptAt: t0 + 3 * MINUTE });
    now = t0 + 3 * MINUTE - 1;
    expect(await a.tick('changes-poll')).toMatchObject({ ran: 1, skipped: 1 });
    now = t0 + 3 * MINUTE;
    expect(await a.tick('changes-poll')).toMatchObject({ ran: 2, failed: 1 });
    expect(await troubleOf(a.store, 'SICK')).toMatchObject({ failures: 3, nextAttemptAt: t0 + 7 * MINUTE });
    expect(told).toHaveLength(1); // once per episode

    // A forced run goes past the backoff; this time the workspace is well again.
    f.set('SICK', async () => 'ok');
    expect(await a.runOnce('changes-poll', 'SICK', { force: true })).toEqual({ ran: true, result: 'ok' });
    expect(recovered).toEqual([{ teamId: 'SICK', trouble: { since: t0, failures: 3 } }]);
    expect(await troubleOf(a.store, 'SICK')).toBeNull();
    expect(await a.tick('changes-poll')).toEqual({ ran: 2, skipped: 0, failed: 0 });

    // A new failure is a new episode, told again; a run that resolves to { error } is a failure too.
    f.set('SICK', async () => ({ error: 'digest channel archived' }));
    now = t0 + 10 * MINUTE;
    expect(await a.runOnce('changes-poll', 'SICK')).toEqual({ ran: true, result: { error: 'digest channel archived' }, failed: true });
    expect(told).toHaveLength(2);
    expect(told[1]).toEqual({ teamId: 'SICK', trouble: { since: now, failures: 1, error: 'digest channel archived', kind: 'changes-poll' } });
    expect(f.count('changes-poll', 'WELL')).toBe(6);
  });

  it('caps the backoff at maxMs', async () => {
    const f = fleet();
    f.set('SICK', failsWith('down'));
    const a = await instance('instance-a', f, ['SICK'], { backoff: { baseMs: 1_000, maxMs: 5_000 } });
    const waits: number[] = [];
    for (let i = 0; i < 5; i++) {
      expect(await a.tick('changes-poll')).toEqual({ ran: 1, skipped: 0, failed: 1 });
      const t = await troubleOf(a.store, 'SICK');
      waits.push(t.nextAttemptAt - now);
      now = t.nextAttemptAt;
    }
    expect(waits).toEqual([1_000, 2_000, 4_000, 5_000, 5_000]);
  });

  it('tells one episode per workspace across instances and kinds, and its recovery once every failing kind runs well', async () => {
    const f = fleet();
    const told: string[] = [];
    const recovered: string[] = [];
    const hooks: Partial<WorkspaceSchedulerOptions> = {
      onTrouble: async (teamId, t) => {
        await pause(5); // telling Slack takes a while; the other instance's failure comes meanwhile
        told.push(`${teamId}:${t.kind}`);
      },
      onRecovered: async (teamId) => void recovered.push(teamId),
    };
    const list = teams(5);
    const a = await instance('instance-a', f, list, hooks);
    const b = await instance('instance-b', f, list, hooks);
    for (const t of list) f.set(t, failsWith('care API unreachable', { code: 'ECONNREFUSED' }));

    // Both kinds fail for every workspace, on two instances at once.
    const reports = await Promise.all([a.tick('changes-poll'), b.tick('digests'), b.tick('changes-poll'), a.tick('digests')]);
    expect(reports.reduce((n, r) => n + r.failed, 0)).toBe(10);
    expect(told.map((s) => s.split(':')[0]).sort()).toEqual(list);
    for (const t of list) expect(await troubleOf(a.store, t)).toMatchObject({ failures: 2, told: true });

    // The poll works again; digests still fail: no recovery yet.
    for (const t of list) f.set(t, async () => 'ok', 'changes-poll');
    now += MINUTE;
    expect(await a.tick('changes-poll')).toMatchObject({ ran: 5, failed: 0 });
    expect(recovered).toEqual([]);
    expect((await troubleOf(a.store, 'T000')).kinds).toEqual({ digests: expect.any(Object) });
    expect(await b.tick('digests')).toMatchObject({ ran: 5, failed: 5 });
    expect(told).toHaveLength(5);

    for (const t of list) f.set(t, async () => 'ok', 'digests');
    now += 2 * MINUTE;
    expect(await b.tick('digests')).toMatchObject({ ran: 5, failed: 0 });
    expect(recovered.sort()).toEqual(list);
    for (const t of list) expect(await troubleOf(a.store, t)).toBeNull();
  });

  it('a notice that could not be told is told at the next failure', async () => {
    const f = fleet();
    f.set('SICK', failsWith('down'));
    let slackUp = false;
    const told: number[] = [];
    const logger = memoryLogger('debug');
    const a = await instance('instance-a', f, ['SICK'], {
      logger,
      onTrouble: async (_t, trouble) => {
        if (!slackUp) throw Object.assign(new Error('slack down'), { code: 'slack_webapi_platform_error' });
        told.push(trouble.failures);
      },
    });
    await a.tick('changes-poll');
    expect(await troubleOf(a.store, 'SICK')).toMatchObject({ failures: 1, told: false });
    expect(logger.lines.join('\n')).toContain('telling at its next failure');

    slackUp = true;
    now += MINUTE;
    await a.tick('changes-poll');
    expect(told).toEqual([2]);
    expect(await troubleOf(a.store, 'SICK')).toMatchObject({ failures: 2, told: true });
    now += 2 * MINUTE;
    await a.tick('changes-poll');
    expect(told).toEqual([2]);
  });

  it('skips a workspace that is not ready, without counting a failure', async () => {
    const f = fleet();
    const a = await instance('instance-a', f, ['READY', 'GONE'], {
      jobFor: async (teamId, kind) => (teamId === 'GONE' ? null : f.jobFor(teamId, kind)),
    });
    expect(await a.tick('changes-poll')).toEqual({ ran: 1, skipped: 1, failed: 0 });
    expect(await a.runOnce('changes-poll', 'GONE')).toEqual({ ran: false, skipped: 'not-ready' });
    expect(await troubleOf(a.store, 'GONE')).toBeNull();
    await expect(a.runOnce('no-such-kind', 'READY')).rejects.toThrow('no job kind');
  });

  it('runs a local kind on every instance, without a lease', async () => {
    const f = fleet();
    const local: JobKind = { name: 'cache-sync', schedule: { everyMs: 100 * 365 * 86_400_000 }, local: true };
    const a = await instance('instance-a', f, teams(3), { kinds: [local] });
    const b = await instance('instance-b', f, teams(3), { kinds: [local] });
    const [ra, rb] = await Promise.all([a.tick('cache-sync', { slot: now }), b.tick('cache-sync', { slot: now })]);
    expect([ra.ran, rb.ran]).toEqual([3, 3]);
    expect(f.total('cache-sync')).toBe(6);
    expect(await a.store.getLease('cache-sync@T000')).toBeNull();
  });

  it('on a per-second schedule, two started instances share the workspaces without overlap; a runOnStart kind ticks at start', async () => {
    const f = fleet(async () => {
      await pause(50);
      return 'ok';
    });
    const list = teams(6);
    const kinds: JobKind[] = [
      { name: 'changes-poll', schedule: { everyMs: 1000 } },
      { name: 'digests', schedule: { everyMs: 100 * 365 * 86_400_000 }, runOnStart: true },
    ];
    const a = await instance('instance-a', f, list, { kinds });
    const b = await instance('instance-b', f, list, { kinds: kinds.slice(0, 1) });
    // The ticks follow the app's clock: it runs on with real time here.
    const running = setInterval(() => {
      now += 50;
    }, 50);
    a.start();
    b.start();
    await vi.waitFor(() => expect(list.every((t) => f.count('changes-poll', t) >= 2)).toBe(true), { timeout: 6_000, interval: 50 });
    await a.stop();
    await b.stop();
    clearInterval(running);
    expect(f.overlaps).toBe(0);
    for (const t of list) expect(f.count('digests', t)).toBe(1);
  });
});
