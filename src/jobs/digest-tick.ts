import type { Digests } from '../services/shift-work/digests.js';
import type { Job, JobKind } from './job.js';

/**
 * Every minute: post the digests whose local time has come today and that have
 * not gone out yet. A digest's identity is its channel and local date, so a
 * clock change neither skips nor doubles one, and a digest missed while the
 * app was down is posted on start if it is still the same day.
 */
export function digestTickJob(kind: JobKind, deps: { digests: Digests; now: () => Date }): Job {
  return {
    ...kind,
    run: async () => {
      const now = deps.now();
      const report = await deps.digests.runDue(now);
      // Found by what is due: none posted now, so none is due before the next one's time.
      return report.channels > 0 ? report : { ...report, nextDueAt: await deps.digests.nextDueAt(now) };
    },
  };
}
