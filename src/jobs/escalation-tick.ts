import type { Escalations } from '../services/escalations.js';
import type { Job, JobKind } from './job.js';

/**
 * Every minute: the escalation steps whose time has come (services/escalations.ts),
 * by the app's clock. Each step is a ledger delivery, so a run on two instances,
 * or one cut short and run again, sends it once.
 */
export function escalationTickJob(kind: JobKind, deps: { escalations: Escalations; now: () => Date }): Job {
  return { ...kind, run: () => deps.escalations.runDue(deps.now()) };
}
