import type { CareClient } from '../care/index.js';
import type { AssignmentNotices } from '../services/notices/assignment-notices.js';
import type { ChangeNotices } from '../services/notices/change-notices.js';
import type { CompletionNotices } from '../services/notices/completion-notices.js';
import type { CareObservations } from '../services/actions/care-observations.js';
import type { CreatorNotices } from '../services/notices/creator-notices.js';
import type { Digests } from '../services/shift-work/digests.js';
import type { Escalations } from '../services/urgent/escalations.js';
import type { FollowUps } from '../services/urgent/follow-up.js';
import type { FirstLook } from '../services/notices/first-look.js';
import type { HandoverService } from '../services/shift-work/handovers.js';
import type { MorningSummaries } from '../services/shift-work/morning-summaries.js';
import type { PostRedraw } from '../services/notices/post-redraw.js';
import type { Retention } from '../services/evidence/retention.js';
import type { DueHistoryService } from '../services/evidence/due-history.js';
import type { ChangeSync } from '../services/read-cache/change-sync.js';
import type { UrgentAlerts } from '../services/urgent/urgent-alerts.js';
import type { WorkspaceStore } from '../store/index.js';
import { cacheSyncJob } from './cache-sync.js';
import { changesPollJob } from './changes-poll.js';
import { digestTickJob } from './digest-tick.js';
import { handoverTickJob } from './handover-tick.js';
import { escalationTickJob } from './escalation-tick.js';
import type { JobsObserver } from './observer.js';
import { everySeconds, everySecondsJustAfter, type Job, type JobKind } from './job.js';
import { retentionJob } from './retention-tick.js';
import { atSecondOfMinute, everyMinutesAt } from './tick-schedule.js';
import { summaryTickJob } from './summary-tick.js';

/** What one workspace's jobs are built from. */
export interface WorkspaceJobsOptions {
  care: CareClient;
  /** The workspace's own store (scopedWorkspaceStore: in a deployment of one too). */
  store: WorkspaceStore;
  notices: CompletionNotices;
  urgent: UrgentAlerts;
  assignments: AssignmentNotices;
  /** DMs to assignees about changes others made through Slack (retried with the poll). */
  changes?: ChangeNotices;
  /** DMs to whoever created an action through Slack when it is completed (found and retried by the poll). */
  creators?: CreatorNotices;
  /** Changes seen in the care system, written to the audit for each action's history. */
  observations?: CareObservations;
  /** The app's first look at the care system (taken by the first poll). */
  firstLook: FirstLook;
  digests: Digests;
  /** Each person's own morning summary DM. */
  summaries: MorningSummaries;
  /** Handover posts at shift changes, and the managers told of one not accepted. */
  handovers?: HandoverService;
  /** The app's own messages about completed actions, edited down once their retention is over (told what the poll sees). */
  retention?: Retention;
  /** Reassign records past their time deleted (with retention's run). */
  reassignSweep?: () => Promise<number>;
  /** Every live post about an action drawn again when the poll sees it change (services/notices/post-redraw.ts). */
  redraw?: PostRedraw;
  /** Each action's first due time and reschedules, as the poll sees them (the evidence export). */
  dueHistory?: DueHistoryService;
  /** The escalation of urgent actions nobody takes (a step a tick at most per action). */
  escalations?: Escalations;
  /** The follow-up of taken urgent work, run in the escalation job's tick just before its steps. */
  followUps?: FollowUps;
  now: () => Date;
  /** How often the care API is polled for completions and urgent changes (default 60 s). */
  pollSeconds: number;
  /** How far back each poll looks before its cursor (default 5 minutes). */
  overlapMs?: number;
  /** Leases, runs and poll lag, for metrics. */
  observer?: JobsObserver | undefined;
  /** The instance's action cache: told what each poll reads, and synced on its own when no poll here did. */
  cacheSync?: ChangeSync;
}

/** How often the escalation job looks for steps due: a step fires at most this late. */
export const ESCALATION_TICK_SECONDS = 5;

/**
 * What each of a workspace's jobs is, apart from its work: the one place their names, schedules and start-up
 * runs are set (the scheduler reads them).
 */
export function workspaceJobKinds(pollSeconds: number) {
  return {
    // Every minute; a digest or summary missed while the app was down goes out at start, not at the next minute.
    // A workspace's digests take seconds of Slack's posting pace (a thread: one post a second per channel) and
    // little CPU: many workspaces at once, or at 08:00 the last of 1,000 waits ten minutes (bench/tenants.ts).
    // Kinds `byDue` run only where due (job_due, one query a tick; workspace-scheduler.ts `findDue`).
    digests: { name: 'digests', schedule: atSecondOfMinute(0), runOnStart: true, concurrency: 64, byDue: true },
    summaries: { name: 'summaries', schedule: atSecondOfMinute(0), runOnStart: true, byDue: true },
    // At start too: a shift change missed while the app was down is handed over when it comes back (the latest only).
    // Every workspace's shift change may be the same minute (19:00): many at once, like digests at 08:00.
    handovers: { name: 'handovers', schedule: atSecondOfMinute(0), runOnStart: true, concurrency: 64, byDue: true },
    // Every 5 s, so a step fires within 5 s of its time (each step reads its action again first); only the
    // workspaces with an episode open, found by what is due.
    escalations: { name: 'escalations', schedule: everySeconds(ESCALATION_TICK_SECONDS), byDue: true },
    // At start too: the first run of a workspace takes the app's first look (what is already so is not news).
    // Each run ends with the retry sweeps of its workspace's unfinished deliveries: whether there are any is read
    // once a tick for every workspace (with many; workspace-scheduler.ts), not once a run.
    poll: { name: 'changes-poll', schedule: everySeconds(pollSeconds), runOnStart: true, sweepsDeliveries: true },
    // Each instance's own read of the feed for its read cache, just after each poll tick, without a lease.
    cacheSync: { name: 'read-cache-sync', schedule: everySecondsJustAfter(pollSeconds), runOnStart: true, local: true },
    // Every ten minutes: messages of actions whose retention is over edited down (exactly once, paced; services/evidence/retention.ts).
    retention: { name: 'retention', schedule: everyMinutesAt(10, 30), byDue: true },
  } satisfies Record<string, JobKind>;
}

/** One workspace's scheduled work, as data: the digest and summary ticks, the changes poll and the read-cache sync. */
export function workspaceJobs(o: WorkspaceJobsOptions): Job[] {
  const kinds = workspaceJobKinds(o.pollSeconds);
  return [
    digestTickJob(kinds.digests, { digests: o.digests, now: o.now }),
    summaryTickJob(kinds.summaries, { summaries: o.summaries, now: o.now }),
    ...(o.handovers ? [handoverTickJob(kinds.handovers, { handovers: o.handovers, now: o.now })] : []),
    ...(o.escalations
      ? [escalationTickJob(kinds.escalations, { escalations: o.escalations, now: o.now, ...(o.followUps ? { followUps: o.followUps } : {}) })]
      : []),
    changesPollJob(kinds.poll, {
      care: o.care,
      store: o.store,
      notices: o.notices,
      urgent: o.urgent,
      assignments: o.assignments,
      ...(o.changes ? { changes: o.changes } : {}),
      ...(o.creators ? { creators: o.creators } : {}),
      ...(o.observations ? { observations: o.observations } : {}),
      firstLook: o.firstLook,
      overlapMs: o.overlapMs ?? 5 * 60_000,
      now: o.now,
      onPolled: (newest) => o.observer?.polled?.(o.now().getTime() - newest),
      ...(o.cacheSync ? { cacheFeed: o.cacheSync } : {}),
      ...(o.retention ? { retention: o.retention } : {}),
      ...(o.redraw ? { redraw: o.redraw } : {}),
      ...(o.dueHistory ? { dueHistory: o.dueHistory } : {}),
    }),
    ...(o.retention ? [retentionJob(kinds.retention, { retention: o.retention, reassignSweep: o.reassignSweep })] : []),
    ...(o.cacheSync ? [cacheSyncJob(kinds.cacheSync, { sync: o.cacheSync })] : []),
  ];
}

export { everySeconds } from './job.js';
export type { Job } from './job.js';
export type { JobsObserver } from './observer.js';
