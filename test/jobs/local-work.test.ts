/**
 * Issue 36, PostgreSQL work per idle workspace-minute: work of an instance alone (its read cache's sync, a `local`
 * kind) runs, on every instance, for the workspaces that instance holds, after each poll tick (every 5 s by
 * default). A workspace it does not hold is left without a question to the store: its job trouble is read only
 * for a run that will be made. On a real SQLite file and on PostgreSQL.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Job } from '../../src/jobs/job.js';
import type { JobKind } from '../../src/jobs/job.js';
import { createWorkspaceScheduler, type WorkspaceScheduler } from '../../src/jobs/workspace-scheduler.js';
import { silentLogger } from '../../src/logging/logger.js';
import { type OpenedStore, openStore } from '../../src/store/index.js';
import { createTestSchema, TEST_DATABASE_URL, type TestSchema } from '../helpers/pg.js';
import { urlWithSchema } from '../e2e/fixtures/spawn-instance.js';

const N = 200;
const teams = Array.from({ length: N }, (_, i) => `T${String(i).padStart(3, '0')}`);
const SYNC: JobKind = { name: 'read-cache-sync', schedule: { everyMs: 100 * 365 * 86_400_000 }, local: true };

const backends: { name: string; skip: boolean }[] = [
  { name: 'SQLite', skip: false },
  { name: 'PostgreSQL', skip: !TEST_DATABASE_URL },
];

describe.each(backends)("an instance's own work for the workspaces it holds, on $name", ({ name, skip }) => {
  let dir: string;
  let schema: TestSchema | undefined;
  const now = Date.UTC(2027, 2, 2, 9, 0, 0);
  const stores: OpenedStore[] = [];
  const schedulers: WorkspaceScheduler[] = [];

  beforeEach(async () => {
    if (skip) return;
    dir = await mkdtemp(join(tmpdir(), 'local-work-test-'));
    schema = name === 'PostgreSQL' ? await createTestSchema(TEST_DATABASE_URL!, 'local_work') : undefined;
  });
  afterEach(async () => {
    if (skip) return;
    for (const s of schedulers.splice(0)) await s.stop();
    for (const s of stores.splice(0)) await s.close();
    await schema?.drop();
    await rm(dir, { recursive: true, force: true });
  });

  it.skipIf(skip)(`two instances each holding half of ${N} workspaces: each runs its half and asks the store about nothing else`, async () => {
    const synced = new Map<string, string>();
    const instance = async (holder: string, holds: (team: string) => boolean) => {
      const store = await openStore(schema ? { databaseUrl: urlWithSchema(schema.url, schema.name), clock: () => now } : { dataDir: dir, clock: () => now });
      stores.push(store);
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
      // A workspace held by the other instance is not composed here: no job.
      const jobFor = async (teamId: string): Promise<Job | null> => (holds(teamId) ? { ...SYNC, run: async () => void synced.set(teamId, holder) } : null);
      const scheduler = createWorkspaceScheduler({
        store: counted as OpenedStore,
        holder,
        logger: silentLogger,
        kinds: [SYNC],
        workspaces: async () => teams,
        jobFor,
        now: () => now,
        findDue: true,
        keepLeases: true,
      });
      schedulers.push(scheduler);
      return { scheduler, calls };
    };
    const even = (t: string) => Number(t.slice(1)) % 2 === 0;
    const a = await instance('instance-a', even);
    const b = await instance('instance-b', (t) => !even(t));

    const [ra, rb] = await Promise.all([a.scheduler.tick(SYNC.name, { slot: 1 }), b.scheduler.tick(SYNC.name, { slot: 1 })]);
    expect(ra.ran).toBe(N / 2);
    expect(rb.ran).toBe(N / 2);
    expect(synced.size).toBe(N);
    expect(teams.every((t) => synced.get(t) === (even(t) ? 'instance-a' : 'instance-b'))).toBe(true);
    // One read of the job trouble per run made (its backoff), none for a workspace held by the other instance; no lease.
    for (const { calls } of [a, b]) {
      expect(calls.get('readJobState')).toBe(N / 2);
      expect(calls.get('getCursor') ?? 0).toBe(0);
      expect(calls.get('acquireLease') ?? 0).toBe(0);
      expect(calls.get('setCursor') ?? 0).toBe(0);
    }
  });
});
