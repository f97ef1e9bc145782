import type { MorningSummaries } from '../services/shift-work/morning-summaries.js';
import type { Job, JobKind } from './job.js';

/**
 * Every minute: send each person's morning summary whose local time (in their
 * own Slack time zone) has come today and that has not gone out yet. Its
 * identity is the person and their local date, so a clock change neither skips
 * nor doubles one, and a summary missed while the app was down goes out on
 * start if it is still the same day for that person.
 */
export function summaryTickJob(kind: JobKind, deps: { summaries: MorningSummaries; now: () => Date }): Job {
  return {
    ...kind,
    run: async () => {
      const now = deps.now();
      const report = await deps.summaries.runDue(now);
      // Found by what is due: none due or left to retry now, so none is due before the next one's time.
      const quiet = report.due === 0 && !report.results['no-time-zone'] && !report.results.failed;
      return quiet ? { ...report, nextDueAt: await deps.summaries.nextDueAt(now) } : report;
    },
  };
}
