import type { MorningSummaries } from '../services/morning-summaries.js';
import type { Job, JobKind } from './job.js';

/**
 * Every minute: send each person's morning summary whose local time (in their
 * own Slack time zone) has come today and that has not gone out yet. Its
 * identity is the person and their local date, so a clock change neither skips
 * nor doubles one, and a summary missed while the app was down goes out on
 * start if it is still the same day for that person.
 */
export function summaryTickJob(kind: JobKind, deps: { summaries: MorningSummaries; now: () => Date }): Job {
  return { ...kind, run: () => deps.summaries.runDue(deps.now()) };
}
