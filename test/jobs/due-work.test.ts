/**
 * Issue 36, "A minute with room": with many workspaces, the kinds found by what is due (digests, summaries,
 * handovers, escalations, retention) run only where due. One query a tick over all workspaces leaves out the
 * ones not due, so an idle workspace takes no lease and reads no cursor for them; a change that makes work
 * (a digest channel set up, an urgent alert sent, a care home setting) makes its workspace due at once, on
 * any instance, through the store itself. On a real SQLite file and on PostgreSQL.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Job } from '../../src/jobs/job.js';
import type { JobKind } from '../../src/jobs/job.js';
import { createWorkspaceScheduler, type WorkspaceScheduler } from '../../src/jobs/workspace-scheduler.js';
import { silentLogger } from '../../src/logging/logger.js';
import { type OpenedStore, openStore, type Store } from '../../src/store/index.js';
import { createTestSchema, TEST_DATABASE_URL, type TestSchema } from '../helpers/pg.js';
import { urlWithSchema } from '../e2e/fixtures/spawn-instance.js';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const N = 200;
const teams = Array.from({ length: N }, (_, i) => `T${String(i).padStart(3, '0')}`);
const FAR = { everyMs: 100 * 365 * DAY };
const DIGESTS: JobKind = { name: 'digests', schedule: FAR, byDue: true };
const ESCALATIONS: JobKind = { name: 'escalations', schedule: FAR, byDue: true };
const POLL: JobKind = { name: 'changes-poll', schedule: FAR };

/** The store calls a tick makes, counted by method (a store handle of one instance). */
function counting(store: Store): { store: Store; calls: Map<string, number> } {
  const calls = new Map<string, number>();
  const counted = new Proxy(store, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls.set(String(prop), (calls.get(String(prop)) ?? 0) + 1);
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { store: counted, calls };
}

const backends: { name: string; skip: boolean }[] = [
  { name: 'SQLite', skip: false },
  { name: 'PostgreSQL', skip: !TEST_DATABASE_URL },
];

describe.each(backends)('work found by what is due, on $name', ({ name, skip }) => {
  let dir: string;
  let schema: TestSchema | undefined;
  let now: number;
  const clock = () => now;
  const stores: OpenedStore[] = [];
  const schedulers: WorkspaceScheduler[] = [];
  /** Runs per kind and workspace (the jobs are the workspaces', shared by the instances). */
  const runs = new Map<string, number>();
  const ran = (kind: string) => [...runs].filter(([k]) => k.startsWith(`${kind}:`)).reduce((n, [, v]) => n + v, 0);
  const ranFor = (kind: string, team: string) => runs.get(`${kind}:${team}`) ?? 0;
  /** What each run does besides counting (a change made while it runs). */
  let during: (kind: string, teamId: string) => Promise<void> = async () => undefined;

  const jobFor = async (teamId: string, kind: string): Promise<Job> => ({
    name: kind,
    schedule: FAR,
    async run() {
      runs.set(`${kind}:${teamId}`, (runs.get(`${kind}:${teamId}`) ?? 0) + 1);
      await during(kind, teamId);
      // Digests: the next is tomorrow's; escalations: no episode open (nothing known to come).
      return kind === 'digests' ? { nextDueAt: now + DAY } : kind === 'escalations' ? { nextDueAt: null } : 'ok';
    },
  });

  const instanceStore = async () => {
    const s = await openStore(
      schema ? { databaseUrl: urlWithSchema(schema.url, schema.name), clock, sharedClock: clock } : { dataDir: dir, clock, sharedClock: clock },
    );
    stores.push(s);
    return s;
  };
  const instance = async (holder: string, more: { keepLeases?: boolean } = {}) => {
    const opened = await instanceStore();
    const { store, calls } = counting(opened);
    const s = createWorkspaceScheduler({
      store: store as OpenedStore,
      holder,
      logger: silentLogger,
      kinds: [POLL, DIGESTS, ESCALATIONS],
      workspaces: async () => teams,
      jobFor,
      now: clock,
      findDue: true,
      ...more,
    });
    schedulers.push(s);
    return { s, calls, store: opened };
  };
  const both = (a: WorkspaceScheduler, b: WorkspaceScheduler, kind: string, slot: number) =>
    Promise.all([a.tick(kind, { slot }), b.tick(kind, { slot })]).then(([x, y]) => ({ ran: x.ran + y.ran, failed: x.failed + y.failed }));

  beforeEach(async () => {
    if (skip) return;
    runs.clear();
    during = async () => undefined;
    dir = await mkdtemp(join(tmpdir(), 'due-work-test-'));
    schema = name === 'PostgreSQL' ? await createTestSchema(TEST_DATABASE_URL!, 'due_work') : undefined;
    now = Date.UTC(2027, 2, 2, 9, 0, 0);
  });
  afterEach(async () => {
    if (skip) return;
    for (const s of schedulers.splice(0)) await s.stop();
    for (const s of stores.splice(0)) await s.close();
    await schema?.drop();
    await rm(dir, { recursive: true, force: true });
  });

  it.skipIf(skip)(`an idle minute at ${N} workspaces on 2 instances takes no lease and reads no cursor for a kind with nothing due`, async () => {
    const a = await instance('instance-a');
    const b = await instance('instance-b');
    // First minute: nothing known yet, so every workspace is due once (between the two instances).
    expect(await both(a.s, b.s, 'digests', 1)).toEqual({ ran: N, failed: 0 });
    expect(await both(a.s, b.s, 'escalations', 1)).toEqual({ ran: N, failed: 0 });
    expect(teams.every((t) => ranFor('digests', t) === 1 && ranFor('escalations', t) === 1)).toBe(true);

    // The next minute, idle: nothing runs, and no workspace's lease or cursor is touched.
    now += MINUTE;
    a.calls.clear();
    b.calls.clear();
    expect(await both(a.s, b.s, 'digests', 2)).toEqual({ ran: 0, failed: 0 });
    expect(await both(a.s, b.s, 'escalations', 2)).toEqual({ ran: 0, failed: 0 });
    expect(ran('digests')).toBe(N);
    expect(ran('escalations')).toBe(N);
    for (const calls of [a.calls, b.calls]) {
      expect(calls.get('acquireLease') ?? 0).toBe(0);
      expect(calls.get('getCursor') ?? 0).toBe(0);
      expect(calls.get('readJobState') ?? 0).toBe(0);
      expect(calls.get('setCursor') ?? 0).toBe(0);
      // One query for each kind's tick, over all workspaces.
      expect(calls.get('notDue')).toBe(2);
    }
    // The poll is not found by what is due: it still runs everywhere.
    expect(await both(a.s, b.s, 'changes-poll', 2)).toEqual({ ran: N, failed: 0 });
  });

  it.skipIf(skip)(
    'a digest channel set up, an urgent alert sent or a care home setting changed makes that workspace due at once, on either instance',
    async () => {
      const a = await instance('instance-a');
      const b = await instance('instance-b');
      await both(a.s, b.s, 'digests', 1);
      await both(a.s, b.s, 'escalations', 1);
      now += MINUTE;

      // A digest channel set up in T005 (through instance b's store).
      await b.store.upsertSubscription({
        teamId: 'T005',
        channelId: 'C1',
        time: '08:00',
        days: 'daily',
        timeZone: 'Europe/London',
        showTaskText: false,
        postWhenEmpty: true,
        urgentAlerts: true,
        channelPrivate: false,
        setUpBy: 'U1',
      });
      // An urgent alert sent in T009's channel (the ledger row marked sent).
      const claim = await b.store.claimDelivery(
        { kind: 'urgent', actionId: 'A1', occurrence: '2027-03-02T09:00:30Z', recipient: 'channel:T009/C9' },
        { holder: 'instance-b', staleAfterMs: MINUTE },
      );
      if (claim.outcome !== 'claimed') throw new Error(`claim: ${claim.outcome}`);
      // Not sent yet: nothing is due.
      expect(await both(a.s, b.s, 'escalations', 2)).toEqual({ ran: 0, failed: 0 });
      await b.store.markSent(claim.delivery.id, { channel: 'C9', ts: '1.000100' });

      expect(await both(a.s, b.s, 'digests', 3)).toEqual({ ran: 1, failed: 0 });
      expect(ranFor('digests', 'T005')).toBe(2);
      expect(await both(a.s, b.s, 'escalations', 3)).toEqual({ ran: 1, failed: 0 });
      expect(ranFor('escalations', 'T009')).toBe(2);

      // A care home setting (the escalation ladder, the shifts) of T042: its calendar kinds and escalations are due.
      now += MINUTE;
      await a.store.setHomeSetting('T042', 'escalation', '{"afterMinutes":5}', 'U1');
      expect(await both(a.s, b.s, 'digests', 4)).toEqual({ ran: 1, failed: 0 });
      expect(await both(a.s, b.s, 'escalations', 4)).toEqual({ ran: 1, failed: 0 });
      expect(ranFor('digests', 'T042')).toBe(2);
      expect(ranFor('escalations', 'T042')).toBe(2);
    },
  );

  it.skipIf(skip)('a change made while a run goes on leaves the workspace due: the next tick runs it again', async () => {
    const a = await instance('instance-a');
    during = async (kind, teamId) => {
      if (kind === 'digests' && teamId === 'T007' && ranFor('digests', 'T007') === 1) await a.store.setHomeSetting('T007', 'shifts', '[]', 'U1');
    };
    expect((await a.s.tick('digests', { slot: 1 })).ran).toBe(N);
    now += MINUTE;
    const next = await a.s.tick('digests', { slot: 2 });
    expect(next.ran).toBe(1);
    expect(ranFor('digests', 'T007')).toBe(2);
    now += MINUTE;
    expect((await a.s.tick('digests', { slot: 3 })).ran).toBe(0);
  });

  it.skipIf(skip)('a run that fails stays due: it is tried again (after its backoff), never forgotten', async () => {
    const a = await instance('instance-a');
    during = async (kind, teamId) => {
      if (kind === 'digests' && teamId === 'T011' && ranFor('digests', 'T011') === 1) throw new Error('Slack is away');
    };
    expect((await a.s.tick('digests', { slot: 1 })).failed).toBe(1);
    now += 5 * MINUTE; // past the first backoff (1 minute), before the others are due again
    expect((await a.s.tick('digests', { slot: 2 })).ran).toBe(1);
    expect(ranFor('digests', 'T011')).toBe(2);
  });

  it.skipIf(skip)(
    'with leases kept, each workspace is polled by one instance tick after tick, and an idle poll run touches no lease, slot or trouble row',
    async () => {
      const a = await instance('instance-a', { keepLeases: true });
      const b = await instance('instance-b', { keepLeases: true });
      const holders = new Map<string, string>();
      expect(await both(a.s, b.s, 'changes-poll', 1)).toEqual({ ran: N, failed: 0 });
      for (const t of teams) holders.set(t, (await a.store.getLease(`changes-poll@${t}`))?.holder ?? '-');
      expect(new Set(holders.values()).has('-')).toBe(false);
      for (let tick = 2; tick <= 4; tick++) {
        now += 5_000; // a poll every 5 s, within half a kept lease's length of its taking (renewed on a timer after)
        a.calls.clear();
        b.calls.clear();
        expect(await both(a.s, b.s, 'changes-poll', tick)).toEqual({ ran: N, failed: 0 });
        for (const calls of [a.calls, b.calls]) {
          expect(calls.get('acquireLease') ?? 0).toBe(0);
          expect(calls.get('releaseLease') ?? 0).toBe(0);
          expect(calls.get('getCursor') ?? 0).toBe(0);
          expect(calls.get('readJobState') ?? 0).toBe(0);
          expect(calls.get('setCursor') ?? 0).toBe(0);
          // One query for the leases the other instance keeps.
          expect(calls.get('leasesHeldElsewhere')).toBe(1);
        }
        for (const t of teams) expect((await a.store.getLease(`changes-poll@${t}`))?.holder).toBe(holders.get(t));
      }
      expect(teams.every((t) => ranFor('changes-poll', t) === 4)).toBe(true);
      // One instance stops: it gives its leases back, and the other polls every workspace at the next tick.
      await a.s.stop();
      now += 10_000;
      expect((await b.s.tick('changes-poll', { slot: 5 })).ran).toBe(N);
      expect(teams.every((t) => ranFor('changes-poll', t) === 5)).toBe(true);
    },
  );
});
