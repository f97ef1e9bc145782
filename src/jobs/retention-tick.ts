import type { Retention } from '../services/retention.js';
import type { Job, JobKind } from './job.js';

/** Edits down the app's own messages about actions completed longer ago than the workspace keeps them (services/retention.ts). */
export function retentionJob(kind: JobKind, deps: { retention: Retention }): Job {
  return {
    ...kind,
    run: ({ signal }) => deps.retention.run({ signal }),
  };
}
