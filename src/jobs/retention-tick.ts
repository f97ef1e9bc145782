import type { Retention } from '../services/evidence/retention.js';
import type { Job, JobKind } from './job.js';

/**
 * Edits down the app's own messages about actions completed longer ago than the workspace keeps them
 * (services/evidence/retention.ts); then deletes the reassign records past their time (services/reassign/reassign-undo.ts).
 */
export function retentionJob(kind: JobKind, deps: { retention: Retention; reassignSweep?: (() => Promise<number>) | undefined }): Job {
  return {
    ...kind,
    run: async ({ signal }) => {
      // First (one cheap query, never throws): a retention run that fails must not keep the records.
      const reassignRecords = deps.reassignSweep ? await deps.reassignSweep() : 0;
      const report = await deps.retention.run({ signal });
      // Found by what is due: with nothing left, the oldest completion's time (a new one is noticed by job_due's trigger).
      return { ...report, reassignRecords, ...(report.left === 0 && report.actions === 0 ? { nextDueAt: await deps.retention.nextDueAt() } : {}) };
    },
  };
}
