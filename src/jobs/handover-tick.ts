import type { HandoverService } from '../services/shift-work/handovers.js';
import type { Job, JobKind } from './job.js';

/**
 * Every minute: post the latest shift change's handover where it has not gone
 * out, and tell the managers of each handover nobody accepted in time (every
 * one posted in the last week, so a missed tick still tells them). A handover's
 * identity is its channel and the shift occurrence (`2027-10-30/Night`), so a
 * clock change neither skips nor doubles one, and one missed while the app was
 * down goes out on start (only the latest: no backlog).
 */
export function handoverTickJob(kind: JobKind, deps: { handovers: HandoverService; now: () => Date }): Job {
  return {
    ...kind,
    run: async () => {
      const now = deps.now();
      const report = await deps.handovers.runDue(now);
      return { ...report, nextDueAt: await deps.handovers.nextDueAt(now) };
    },
  };
}
