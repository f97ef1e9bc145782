/**
 * A deployment's scheduled work, one workspace or many alike: each kind of
 * job (jobs/index.ts) runs for every connected workspace of the registry,
 * under a lease per kind and workspace (`changes-poll@T123`); a workspace
 * whose runs fail is backed off, and its admins are told once when its
 * scheduled work stops working and once when it works again. A run takes its
 * job from the registry's job table (jobs/job-table.ts); only a workspace not
 * composed here (or composed from rows since changed) is asked of the registry.
 */
import { workspaceJobKinds, type JobsObserver } from '../jobs/index.js';
import type { JobKind } from '../jobs/job.js';
import { createWorkspaceScheduler, type WorkspaceScheduler } from '../jobs/workspace-scheduler.js';
import type { Logger } from '../logging/logger.js';
import { createDmChannels } from '../services/dm-channels.js';
import { createWorkspaceTrouble } from '../services/notices/trouble-notices.js';
import type { Store } from '../store/index.js';
import type { WorkspaceRegistry } from './registry.js';

export interface DeploymentJobsOptions {
  store: Store;
  /**
   * The workspaces to run for (`connected`), the jobs of those composed here (`jobTable`), and, on a miss, each
   * one's composition (`get`), as for its admins.
   */
  registry: Pick<WorkspaceRegistry, 'mode' | 'get' | 'connected' | 'held' | 'heldIds' | 'jobTable'>;
  holder: string;
  logger: Logger;
  now: () => Date;
  pollSeconds: number;
  /** Lease length (default 60 s): how long a dead instance holds a workspace's job up. */
  leaseMs?: number | undefined;
  /** A failing job's wait before it is tried again (default: from 1 minute, doubling, to 30). */
  backoff?: { baseMs?: number; maxMs?: number } | undefined;
  /** A workspace's runs of one kind at once on this instance (default 8). */
  concurrency?: number | undefined;
  observer?: JobsObserver | undefined;
  /** The clock the store judges leases by (a test's shared clock; default the wall clock, the database's time). */
  leaseClock?: (() => number) | undefined;
}

export function deploymentJobs(o: DeploymentJobsOptions): WorkspaceScheduler {
  const { registry, logger } = o;
  const ready = async (workspaceId: string) => {
    const lookup = await registry.get(workspaceId);
    return lookup.state === 'ready' ? lookup.workspace : null;
  };
  const troubleOf = async (workspaceId: string) => {
    const workspace = await ready(workspaceId);
    if (!workspace) return null;
    return createWorkspaceTrouble({
      // Its Slack team: the DMs are its people's.
      teamId: await workspace.teamId(),
      deliverer: workspace.deliverer,
      dm: createDmChannels(workspace.jobSlack),
      admins: () => workspace.identity.adminIds(),
      timezone: workspace.deps.timezone,
      // One workspace's care account is set in the environment; each of many is connected from its Home tab.
      reconnect: registry.mode === 'single' ? 'environment' : 'home-tab',
    });
  };
  const kinds: JobKind[] = Object.values(workspaceJobKinds(o.pollSeconds));
  const local = new Set(kinds.filter((k) => k.local).map((k) => k.name));
  return createWorkspaceScheduler({
    store: o.store,
    holder: o.holder,
    logger,
    kinds,
    workspaces: () => registry.connected(),
    // Work of this instance alone runs for the workspaces it holds, known here: no listing of every workspace.
    localWorkspaces: () => registry.heldIds(),
    // A workspace composed here: its job from the table, no `get`. A miss composes it (or reads its rows again).
    jobTable: registry.jobTable,
    // Work of this instance alone (its read cache) is for the workspaces it holds: it never composes one.
    jobFor: async (workspaceId, kind) => (local.has(kind) ? registry.held(workspaceId) : await ready(workspaceId))?.jobs.find((j) => j.name === kind) ?? null,
    ...(o.concurrency ? { concurrency: o.concurrency } : {}),
    ...(o.leaseMs ? { leaseMs: o.leaseMs } : {}),
    ...(o.backoff ? { backoff: o.backoff } : {}),
    now: () => o.now().getTime(),
    leaseClock: o.leaseClock ?? Date.now,
    observer: o.observer,
    // Many workspaces: kinds found by what is due run only where due (one workspace's deployment runs them all).
    findDue: registry.mode === 'multi',
    // Each workspace's runs stay on one instance, so the others let go of it (registry.ts idleMs).
    keepLeases: registry.mode === 'multi',
    onTrouble: async (workspaceId, trouble) => {
      logger.warn("a workspace's scheduled work keeps failing; its admins are told once", { team: workspaceId, kind: trouble.kind, error: trouble.error });
      await (await troubleOf(workspaceId))?.troubled(trouble);
    },
    onRecovered: async (workspaceId, trouble) => {
      logger.info("a workspace's scheduled work works again", { team: workspaceId });
      await (await troubleOf(workspaceId))?.recovered(trouble, o.now().getTime());
    },
  });
}
