/**
 * Issue 36, an idle minute with room at the 5 s default poll: a poll tick over N workspaces asks the store a
 * fixed number of questions, however many workspaces there are. Whether each has an unfinished delivery (its
 * retry sweeps) is read once a tick for all of them and told to each run; the read-cache sync, this instance's
 * own work, reads a workspace's job trouble only until a run of it here went well (and again after one failed).
 * Two instances keeping their leases, as a deployment of many workspaces runs them; on a real SQLite file and on
 * PostgreSQL.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Job, JobContext, JobKind } from '../../src/jobs/job.js';
import { createWorkspaceScheduler, type WorkspaceScheduler } from '../../src/jobs/workspace-scheduler.js';
import { silentLogger } from '../../src/logging/logger.js';
import { type OpenedStore, openStore, type Store } from '../../src/store/index.js';
import { createTestSchema, TEST_DATABASE_URL, type TestSchema } from '../helpers/pg.js';
import { urlWithSchema } from '../e2e/fixtures/spawn-instance.js';

const TICK = 5_000;
const POLL: JobKind = { name: 'changes-poll', schedule: { everyMs: TICK }, sweepsDeliveries: true };
const SYNC: JobKind = { name: 'read-cache-sync', schedule: { everyMs: TICK, atMs: 1_000 }, local: true };
const teamsOf = (n: number) => Array.from({ length: n }, (_, i) => `T${String(i).padStart(4, '0')}`);

/** The store calls made through `store`, counted by method. */
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

describe.each(backends)('an idle poll tick over many workspaces, on $name', ({ name, skip }) => {
  let dir: string;
  let schema: TestSchema | undefined;
  let now: number;
  const clock = () => now;
  const stores: OpenedStore[] = [];
  const schedulers: WorkspaceScheduler[] = [];

  beforeEach(async () => {
    if (skip) return;
    dir = await mkdtemp(join(tmpdir(), 'idle-poll-tick-test-'));
    schema = name === 'PostgreSQL' ? await createTestSchema(TEST_DATABASE_URL!, 'idle_poll_tick') : undefined;
    now = Date.UTC(2027, 5, 15, 5, 0, 0);
  });
  afterEach(async () => {
    if (skip) return;
    for (const s of schedulers.splice(0)) await s.stop();
    for (const s of stores.splice(0)) await s.close();
    await schema?.drop();
    await rm(dir, { recursive: true, force: true });
  });

  const openOne = async () => {
    const s = await openStore(
      schema ? { databaseUrl: urlWithSchema(schema.url, schema.name), clock, sharedClock: clock } : { dataDir: dir, clock, sharedClock: clock },
    );
    stores.push(s);
    return s;
  };

  /**
   * Two instances over `teams`. The poll's run notes what it was told; told nothing, it asks the store (as the
   * changes poll does). The sync runs only where the poll of its workspace ran (the instance holding it).
   */
  async function deployment(teams: string[], syncFails: Set<string> = new Set(), syncNotDue: Set<string> = new Set()) {
    const told = new Map<string, boolean | undefined>();
    const synced = new Map<string, number>();
    const instance = async (holder: string) => {
      const { store, calls } = counting(await openOne());
      const polledHere = new Set<string>();
      const listings = { n: 0 };
      const jobFor = async (teamId: string, kind: string): Promise<Job | null> => {
        if (kind === POLL.name) {
          return {
            ...POLL,
            async run(ctx: JobContext) {
              polledHere.add(teamId);
              told.set(teamId, ctx.unfinishedDeliveries);
              if (ctx.unfinishedDeliveries === undefined) await store.anyUnfinishedDeliveries(teamId);
              return 'ok';
            },
          };
        }
        if (!polledHere.has(teamId)) return null; // not held here: not composed, no job
        return {
          ...SYNC,
          async run() {
            synced.set(teamId, (synced.get(teamId) ?? 0) + 1);
            if (syncFails.has(teamId)) throw new Error('the care system did not answer');
          },
          notDue: () => syncNotDue.has(teamId),
        };
      };
      const scheduler = createWorkspaceScheduler({
        store: store as OpenedStore,
        holder,
        logger: silentLogger,
        kinds: [POLL, SYNC],
        workspaces: async () => {
          listings.n++;
          return teams;
        },
        // The workspaces held here (the poll ran here), as the registry knows them: the sync lists nothing.
        localWorkspaces: () => [...polledHere],
        jobFor,
        now: clock,
        findDue: true,
        keepLeases: true,
      });
      schedulers.push(scheduler);
      return { scheduler, calls, listings };
    };
    const a = await instance('instance-a');
    const b = await instance('instance-b');
    /** Both instances tick the poll, then the sync, at the next slot; each instance's store calls of it. */
    const tick = async () => {
      now += TICK;
      const slot = now;
      a.calls.clear();
      b.calls.clear();
      a.listings.n = 0;
      b.listings.n = 0;
      const polls = await Promise.all([a.scheduler.tick(POLL.name, { slot }), b.scheduler.tick(POLL.name, { slot })]);
      const syncs = await Promise.all([a.scheduler.tick(SYNC.name, { slot: slot + 1_000 }), b.scheduler.tick(SYNC.name, { slot: slot + 1_000 })]);
      return {
        polled: polls[0].ran + polls[1].ran,
        synced: syncs[0].ran + syncs[1].ran,
        calls: [Object.fromEntries(a.calls), Object.fromEntries(b.calls)],
        /** How often each instance listed every workspace this tick. */
        listings: [a.listings.n, b.listings.n],
      };
    };
    return { a, b, tick, told, synced, store: stores.at(-1)! };
  }

  it.skipIf(skip)('the store calls of an idle tick do not grow with the workspaces: 50 and 400 alike', async () => {
    const idleCalls: Record<string, number>[][] = [];
    for (const n of [50, 400]) {
      const teams = teamsOf(n);
      const d = await deployment(teams);
      const first = await d.tick(); // leases taken, each workspace's first runs (its job trouble read once)
      expect(first.polled).toBe(n);
      expect(first.synced).toBe(n);
      for (let i = 0; i < 3; i++) {
        const idle = await d.tick();
        expect(idle.polled).toBe(n);
        expect(idle.synced).toBe(n);
        // Per instance: which leases the other keeps, and which workspaces have unfinished deliveries; nothing per workspace.
        for (const calls of idle.calls) expect(calls).toEqual({ leasesHeldElsewhere: 1, workspacesWithUnfinishedDeliveries: 1 });
        // The poll's tick lists every workspace once per instance; the sync's, of the workspaces held here, none.
        expect(idle.listings).toEqual([1, 1]);
        idleCalls.push(idle.calls);
      }
      expect(teams.every((t) => d.told.get(t) === false)).toBe(true);
      for (const s of schedulers.splice(0)) await s.stop();
    }
    expect(idleCalls.slice(0, 3)).toEqual(idleCalls.slice(3));
  });

  it.skipIf(skip)('each run is told whether its workspace has an unfinished delivery, as read at the start of the tick', async () => {
    const teams = teamsOf(60);
    const d = await deployment(teams);
    await d.tick();
    // Two workspaces with a delivery left unfinished (one pending, one failed for a passing reason), one sent.
    const claim = (team: string) =>
      d.store.claimDelivery(
        { kind: 'completion', actionId: `A-${team}`, occurrence: 'o', recipient: `user:${team}/U1` },
        { holder: 'x', staleAfterMs: 60_000 },
      );
    await claim('T0007');
    const failed = await claim('T0042');
    await d.store.markFailed(failed.delivery.id, 'ratelimited', { retryable: true, holder: 'x' });
    const sent = await claim('T0013');
    await d.store.markSent(sent.delivery.id, { channel: 'D1', ts: '1.1' });

    await d.tick();
    expect(teams.filter((t) => d.told.get(t) === true)).toEqual(['T0007', 'T0042']);
    expect(teams.filter((t) => d.told.get(t) === false)).toHaveLength(58);
    // A run made on its own (runOnce: no tick read for it) asks for itself.
    const ran = (await d.a.scheduler.runOnce(POLL.name, 'T0007')).ran || (await d.b.scheduler.runOnce(POLL.name, 'T0007')).ran;
    expect(ran).toBe(true);
    expect(d.told.get('T0007')).toBeUndefined();
  });

  it.skipIf(skip)("the sync's job trouble is read again after a run of it failed here, so its backoff holds", async () => {
    const teams = teamsOf(10);
    const d = await deployment(teams, new Set(['T0003']));
    await d.tick(); // T0003's sync fails: backed off (a minute at first)
    expect(d.synced.get('T0003')).toBe(1);
    for (let i = 0; i < 3; i++) {
      const idle = await d.tick();
      expect(idle.synced).toBe(9); // backed off: skipped
      // Its trouble read each tick (by the instance holding it), nobody else's.
      const reads = idle.calls.reduce((n, calls) => n + (calls.readJobState ?? 0), 0);
      expect(reads).toBe(1);
    }
    expect(d.synced.get('T0003')).toBe(1);
  });

  it.skipIf(skip)('a sync whose job says it has nothing to do now (a poll here covered it, or its cache is dormant) is left out', async () => {
    const teams = teamsOf(30);
    const notDue = new Set(teams.slice(0, 20));
    const d = await deployment(teams, new Set(), notDue);
    const first = await d.tick();
    expect(first.synced).toBe(10);
    for (let i = 0; i < 3; i++) {
      const idle = await d.tick();
      expect(idle.synced).toBe(10);
      for (const calls of idle.calls) expect(calls).toEqual({ leasesHeldElsewhere: 1, workspacesWithUnfinishedDeliveries: 1 });
    }
    expect(teams.filter((t) => d.synced.has(t))).toEqual(teams.slice(20));
    // Due again (someone read its cache): it runs at the next tick.
    notDue.delete('T0003');
    expect((await d.tick()).synced).toBe(11);
    expect(d.synced.get('T0003')).toBe(1);
  });
});
