import type { ChangeSync } from '../services/read-cache/change-sync.js';
import type { Job, JobKind } from './job.js';

/**
 * This instance's action cache learns of changes even when another instance
 * holds the changes poll: every instance, just after each poll tick, reads the
 * changes itself unless a poll run here does (see change-sync.ts). On start it
 * takes its starting point (one request). A dormant cache, or one a poll here
 * covered this round, is not due: the scheduler leaves that run out.
 */
export function cacheSyncJob(kind: JobKind, deps: { sync: ChangeSync }): Job {
  return { ...kind, run: () => deps.sync.syncIfDue(), notDue: () => deps.sync.notDue() };
}
