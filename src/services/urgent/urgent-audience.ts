/**
 * Which channels hear of an urgent action: the subscriptions set up for urgent alerts (`urgentAlerts`); a
 * channel that only takes digests is never alerted. Read afresh at each use (a write through Slack, a Retry
 * from the Status tab), so a channel set up a moment ago is alerted at once.
 */
import type { Action } from '../../care/index.js';
import type { Subscription, WorkspaceStore } from '../../store/index.js';

/** Pure: the subscriptions an urgent alert goes to. */
export function urgentAlertSubscriptions(subscriptions: readonly Subscription[]): Subscription[] {
  return subscriptions.filter((s) => s.urgentAlerts);
}

/**
 * Pure: the channels an alert about this urgent action goes to (the alert itself, a hand-back): set up for
 * urgent alerts, and for its location or for every location.
 */
export function urgentAlertChannelsFor(subscriptions: readonly Subscription[], action: Pick<Action, 'location'>): Subscription[] {
  return urgentAlertSubscriptions(subscriptions).filter((s) => !s.filters.locationId || s.filters.locationId === action.location);
}

/** The workspace's subscriptions an urgent alert goes to, as they are now. */
export async function urgentAlertSubscriptionsOf(store: Pick<WorkspaceStore, 'listSubscriptions'>): Promise<Subscription[]> {
  return urgentAlertSubscriptions(await store.listSubscriptions());
}
