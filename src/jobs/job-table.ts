/**
 * The jobs of the workspaces composed on this instance, by workspace and kind: where the scheduler
 * (workspace-scheduler.ts) finds the job a run of a workspace runs. The registry (workspaces/registry.ts)
 * enters a workspace's jobs (jobs/index.ts `workspaceJobs`, one per kind) when it composes the workspace, and
 * takes them out when it lets the workspace go, finds its rows changed, or closes; so a run of a workspace
 * composed here reaches its job without asking the composition. Only a miss (a workspace not composed here,
 * or composed from rows since changed) asks it, through the scheduler's `jobFor`.
 */
import type { Job, JobKind } from './job.js';

export interface JobTable {
  /**
   * The workspace's job of this kind, if its jobs are entered. A take of a kind that is not `local` is a use
   * of the workspace on this instance (`takenAt`): it is not let go for idleness while its jobs run here.
   */
  take(workspaceId: string, kind: Pick<JobKind, 'name' | 'local'>): Job | undefined;
  /** The workspace's jobs, as it was composed: they replace any entered before (the same ones again: kept as they are). */
  enter(workspaceId: string, jobs: readonly Job[]): void;
  /** Its jobs out (let go, out of date, or closed): the next run of it asks the composition. */
  withdraw(workspaceId: string): void;
  /** When a job of the workspace (not `local`) was last taken (epoch ms, the table's clock); undefined: none since it was entered. */
  takenAt(workspaceId: string): number | undefined;
}

interface Entry {
  jobs: readonly Job[];
  takenAt?: number;
}

/** A table on the given clock (epoch ms: the registry's, which measures idleness by it). */
export function createJobTable(now: () => number): JobTable {
  const entries = new Map<string, Entry>();
  return {
    take(workspaceId, kind) {
      const entry = entries.get(workspaceId);
      const job = entry?.jobs.find((j) => j.name === kind.name);
      if (job && !kind.local) entry!.takenAt = now();
      return job;
    },
    enter(workspaceId, jobs) {
      if (entries.get(workspaceId)?.jobs !== jobs) entries.set(workspaceId, { jobs });
    },
    withdraw(workspaceId) {
      entries.delete(workspaceId);
    },
    takenAt: (workspaceId) => entries.get(workspaceId)?.takenAt,
  };
}
