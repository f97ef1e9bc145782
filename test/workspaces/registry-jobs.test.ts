/**
 * Issue 34, a tick reaches its job without climbing above jobs/: the jobs of a workspace composed on this instance
 * are in the job table (jobs/job-table.ts) from the moment the registry composes it, and the scheduler's runs take
 * them there; only a miss (not composed here, its rows changed since, or let go) asks the registry. A real SQLite
 * store; the registry's and the scheduler's clock is stepped by hand.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { KeyRing } from '../../src/crypto/key-ring.js';
import { workspaceJobKinds } from '../../src/jobs/index.js';
import type { Job } from '../../src/jobs/job.js';
import type { WorkspaceScheduler } from '../../src/jobs/workspace-scheduler.js';
import { silentLogger } from '../../src/logging/logger.js';
import { type OpenedStore, openStore, workspaceKey } from '../../src/store/index.js';
import type { Workspace } from '../../src/workspaces/compose-workspace.js';
import { deploymentJobs } from '../../src/workspaces/deployment-jobs.js';
import { multiWorkspaceRegistry, type WorkspaceRegistry } from '../../src/workspaces/registry.js';

const MIN = 60_000;
const TEAM = 'T0CARE';
const kinds = workspaceJobKinds(5);

describe("a registry's composed workspaces and the scheduler's runs of their jobs", () => {
  let dir: string;
  let store: OpenedStore;
  let now: number;
  let registry: WorkspaceRegistry;
  let jobs: WorkspaceScheduler;
  /** Each composition of the workspace, with the runs of its jobs. */
  const compositions: { polls: number; syncs: number; closed: boolean }[] = [];
  let gets = 0;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'registry-jobs-test-'));
    now = Date.UTC(2027, 5, 15, 5, 0, 0);
    store = await openStore({ dataDir: dir, clock: () => now, keyRing: new KeyRing([randomBytes(32)]) });
    await store.saveInstallation({
      isEnterpriseInstall: false,
      teamId: TEAM,
      teamName: 'Sunrise Care',
      appId: 'A1',
      bot: { token: 'xoxb-care', scopes: ['chat:write'], id: 'B1', userId: 'UBOT' },
      user: { id: 'U1' },
    });
    await store.setCareConnection({ workspaceId: TEAM, baseUrl: 'https://care.example', accountId: 'acc', apiKey: 'k', apiSecret: 's', connectedBy: 'U1' });
    compositions.length = 0;
    gets = 0;
    const composing = multiWorkspaceRegistry({
      store,
      compose: () => {
        const c = { polls: 0, syncs: 0, closed: false };
        compositions.push(c);
        const workspaceJobs: Job[] = [
          { ...kinds.poll, run: async () => void c.polls++ },
          { ...kinds.cacheSync, run: async () => void c.syncs++ },
        ];
        return { jobs: workspaceJobs, close: async () => void (c.closed = true) } as unknown as Workspace;
      },
      defaults: { timezone: 'Europe/London' },
      logger: silentLogger,
      now: () => now,
      idleMs: 10 * MIN,
      closeAfterMs: 5,
    });
    // The registry as the scheduler is given it, with its `get` counted.
    registry = {
      ...composing,
      mode: composing.mode,
      jobTable: composing.jobTable,
      get: (workspaceId) => {
        gets++;
        return composing.get(workspaceId);
      },
    };
    jobs = deploymentJobs({ store, registry, holder: 'instance-a', logger: silentLogger, now: () => new Date(now), pollSeconds: 5, leaseClock: () => now });
  });
  afterEach(async () => {
    await jobs.stop();
    await registry.close();
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('the first poll composes the workspace (one get); the next 30 ticks, over 15 minutes, run its job from the table with no get, and it is not let go', async () => {
    expect((await jobs.tick('changes-poll')).ran).toBe(1);
    expect(gets).toBe(1);
    for (let i = 0; i < 30; i++) {
      now += 30_000;
      expect(await jobs.tick('changes-poll')).toEqual({ ran: 1, skipped: 0, failed: 0 });
      expect((await jobs.tick('read-cache-sync')).ran).toBe(1);
    }
    expect(gets).toBe(1);
    // One composition ran every poll and sync: its runs kept it in use, so it was never let go (nor composed again).
    expect(compositions).toEqual([{ polls: 31, syncs: 30, closed: false }]);
    expect([...registry.composed().keys()]).toEqual([TEAM]);
  });

  it('the work of this instance alone runs only for a workspace composed here: the sync composes nothing and asks no get', async () => {
    expect((await jobs.tick('read-cache-sync')).ran).toBe(0);
    expect(gets).toBe(0);
    expect(compositions).toEqual([]);
    await jobs.tick('changes-poll');
    expect((await jobs.tick('read-cache-sync')).ran).toBe(1);
    expect(gets).toBe(1);
  });

  it('rows changed since it was composed: the next run asks get, which composes it again from them once it reads them again', async () => {
    await jobs.tick('changes-poll');
    now += 30_000;
    await store.setWorkspaceSettings(TEAM, { timeZone: 'Europe/Dublin' }, 'U1');
    // The listing sees the change: the runs ask get again; the registry reads the rows again within recheckMs (60 s).
    await jobs.tick('changes-poll');
    expect(gets).toBe(2);
    now += 61_000;
    await jobs.tick('changes-poll');
    expect(gets).toBe(3);
    expect(compositions.map((c) => c.closed)).toEqual([true, false]);
    // The new composition's jobs are in the table: no get again.
    now += 5_000;
    await jobs.tick('changes-poll');
    await jobs.tick('changes-poll');
    expect(gets).toBe(3);
    expect(compositions.map((c) => c.polls)).toEqual([2, 3]);
  });

  it('let go for idleness on this instance (its runs elsewhere): its jobs leave the table, and a run here composes it again', async () => {
    await jobs.tick('changes-poll');
    // Another instance keeps the poll's lease from now on: this one runs nothing of the workspace for 11 minutes.
    await store.releaseLease(workspaceKey('changes-poll', TEAM), 'instance-a');
    expect(await store.acquireLease(workspaceKey('changes-poll', TEAM), 'instance-b', 60 * MIN)).toBe(true);
    now += 11 * MIN;
    expect((await jobs.tick('changes-poll')).ran).toBe(0);
    expect(registry.composed().size).toBe(0);
    expect((await jobs.tick('read-cache-sync')).ran).toBe(0);
    await store.releaseLease(workspaceKey('changes-poll', TEAM), 'instance-b');
    expect((await jobs.tick('changes-poll')).ran).toBe(1);
    expect(gets).toBe(2);
    expect(compositions.map((c) => [c.polls, c.syncs])).toEqual([
      [1, 0],
      [1, 0],
    ]);
  });
});
