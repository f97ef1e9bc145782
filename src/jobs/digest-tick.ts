import type { Digests } from '../services/digests.js';
import type { Job } from './scheduler.js';

/**
 * Every minute: post the digests whose local time has come today and that have
 * not gone out yet. A digest's identity is its channel and local date, so a
 * clock change neither skips nor doubles one, and a digest missed while the
 * app was down is posted on start if it is still the same day.
 */
export function digestTickJob(deps: { digests: Digests; now: () => Date; schedule?: string }): Job {
  return {
    name: 'digests',
    schedule: deps.schedule ?? '0 * * * * *',
    runOnStart: true, // a digest missed while the app was down goes out at start, not at the next minute
    run: () => deps.digests.runDue(deps.now()),
  };
}
