/**
 * The Status tab's Retry: per delivery kind, what runs that kind's unfinished rows now (the same work the
 * changes poll and the digest and summary ticks retry on their own). A kind missing here gets no Retry button
 * (status.ts): handovers, escalations and follow-ups are their ticks' to run again.
 */
import type { Subscription } from '../../store/index.js';
import type { AssignmentNotices } from './assignment-notices.js';
import type { ChangeNotices } from './change-notices.js';
import type { CompletionNotices } from './completion-notices.js';
import type { CreatorNotices } from './creator-notices.js';
import type { Digests } from '../shift-work/digests.js';
import type { MorningSummaries } from '../shift-work/morning-summaries.js';
import type { PostRedraw } from './post-redraw.js';
import type { Redeliver } from '../admin/status.js';
import type { UrgentAlerts } from '../urgent/urgent-alerts.js';

export interface RedeliveryDeps {
  notices: Pick<CompletionNotices, 'retryUnfinished'>;
  assignments: Pick<AssignmentNotices, 'retryUnfinished'>;
  changes: Pick<ChangeNotices, 'retryUnfinished'>;
  creators: Pick<CreatorNotices, 'retryUnfinished'>;
  urgent: Pick<UrgentAlerts, 'retryUnfinished'>;
  /** The subscriptions an urgent alert goes to, as they are now (urgent-audience.ts). */
  urgentSubscriptions: () => Promise<Subscription[]>;
  digests: Pick<Digests, 'runDue'>;
  summaries: Pick<MorningSummaries, 'runDue'>;
  redraw: Pick<PostRedraw, 'retryUnfinished'>;
  now: () => Date;
}

/** Delivery kind (the ledger's) -> run its unfinished rows now. */
export function redeliveryTable(d: RedeliveryDeps): Record<string, Redeliver> {
  return {
    completion: () => d.notices.retryUnfinished(),
    assignment: () => d.assignments.retryUnfinished(),
    change: () => d.changes.retryUnfinished(),
    creator: () => d.creators.retryUnfinished(),
    urgent: async () => d.urgent.retryUnfinished(await d.urgentSubscriptions()),
    // A digest and each part of its thread: the digests due now run again (what was posted is in the ledger).
    digest: () => d.digests.runDue(d.now()),
    'digest-part': () => d.digests.runDue(d.now()),
    summary: () => d.summaries.runDue(d.now()),
    redraw: () => d.redraw.retryUnfinished(),
  };
}
