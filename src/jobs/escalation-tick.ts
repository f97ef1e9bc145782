import type { Escalations } from '../services/urgent/escalations.js';
import type { FollowUps } from '../services/urgent/follow-up.js';
import type { Job, JobKind } from './job.js';

/**
 * Every 5 seconds: the follow-ups of taken urgent work due (services/urgent/follow-up.ts: a DM, or the ladder resumed),
 * then the escalation steps whose time has come (services/urgent/escalations.ts), by the app's clock, in one leased run,
 * so a ladder resumed by a follow-up takes its first step in the same run. Each message is a ledger delivery, so a
 * run on two instances, or one cut short and run again, sends it once. Found by what is due: a workspace with an
 * episode still open, or a taken one still followed up, runs at every tick; one with neither waits until an urgent
 * alert is sent or its ladder changes (job_due's triggers).
 */
export function escalationTickJob(kind: JobKind, deps: { escalations: Escalations; followUps?: FollowUps; now: () => Date }): Job {
  return {
    ...kind,
    run: async () => {
      const now = deps.now();
      const followUps = deps.followUps ? await deps.followUps.runDue(now) : undefined;
      const report = await deps.escalations.runDue(now);
      const result = followUps ? { ...report, followUps } : report;
      return report.episodes > 0 || (followUps?.watching ?? 0) > 0 ? result : { ...result, nextDueAt: null };
    },
  };
}
