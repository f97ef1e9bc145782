/**
 * What follows a change made through Slack, told at once (the fast path; the changes poll finds later whatever
 * this missed, and the delivery ledger makes each notice exactly once):
 * - a completion: the completion notice (made in Slack) and the DM to whoever created the action;
 * - any write: its due time recorded, a new assignee told, an action made urgent alerted to the channels set
 *   up for urgent alerts; then every post about it drawn as it is now (the one clicked is drawn by its listener);
 * - a Complete, Reopen, Take it, Snooze or edit by someone else: the assignee told.
 * None of it is awaited by the person's click, and none of it throws: a failure is logged and left to the poll.
 */
import type { Action } from '../../care/index.js';
import type { Logger } from '../../logging/logger.js';
import type { Subscription } from '../../store/index.js';
import type { AssignmentNotices } from '../notices/assignment-notices.js';
import type { ActionChange, ChangeNotices } from '../notices/change-notices.js';
import type { Actor } from '../people/identity.js';
import type { CompletionNotices } from '../notices/completion-notices.js';
import type { CreatorNotices } from '../notices/creator-notices.js';
import type { DueHistoryService } from '../evidence/due-history.js';
import type { PostRedraw } from '../notices/post-redraw.js';
import type { UrgentAlerts } from '../urgent/urgent-alerts.js';

/** A change made through Slack: who made it, and the action as it was before (null: it is new). */
export interface WriteChange {
  by: Actor;
  before: Action | null;
}

/** What the actions service (actions.ts) calls after each change it makes, not awaited; none of it throws. */
export interface AfterWrite {
  /** After a completion made through Slack. */
  announceCompletion(action: Action): void;
  /** After any change made through Slack (create, edit, Take it, snooze, complete, reopen). */
  announceWrite(action: Action, change: WriteChange): void;
  /** After a Complete, Reopen, Take it, Snooze or edit: the assignee is told when someone else did it. */
  announceChange(action: Action, change: ActionChange): void;
}

export interface AfterWriteDeps {
  notices: Pick<CompletionNotices, 'deliver'>;
  creators: Pick<CreatorNotices, 'deliver'>;
  dueHistory: Pick<DueHistoryService, 'observe'>;
  assignments: Pick<AssignmentNotices, 'consider'>;
  urgent: Pick<UrgentAlerts, 'consider'>;
  /** The subscriptions an urgent alert goes to, read at each write (urgent-audience.ts). */
  urgentSubscriptions: () => Promise<Subscription[]>;
  redraw: Pick<PostRedraw, 'follow'>;
  changes: Pick<ChangeNotices, 'tell'>;
  logger: Logger;
}

export function createAfterWrite(deps: AfterWriteDeps): AfterWrite {
  const { logger } = deps;
  return {
    announceCompletion(action) {
      void deps.notices
        .deliver(action, { madeInSlack: true })
        .catch((err) => logger.warn('completion notice will be retried by the poller', { actionId: action._id, error: err }));
      void deps.creators.deliver(action).catch((err) => logger.warn('the creator DM will be retried by the poller', { actionId: action._id, error: err }));
    },
    // The poll's later sight of the change finds these in the ledger (and in what the app remembers of the action).
    announceWrite(action, change) {
      void Promise.all([
        deps.dueHistory.observe(action, 'slack'),
        deps.assignments.consider(action, { by: change.by, previousAssignee: change.before ? (change.before.assigned_to ?? null) : null }),
        deps.urgentSubscriptions().then((subscriptions) => deps.urgent.consider(action, subscriptions, { before: change.before })),
      ])
        .catch((err) => logger.warn('an assignment DM or urgent alert will be retried by the poller', { actionId: action._id, error: err }))
        .then(() => deps.redraw.follow(action, { drawnAt: change.by.at }))
        .catch((err) => logger.warn('posts about an action will be drawn again by the poller', { actionId: action._id, error: err }));
    },
    announceChange(action, change) {
      void deps.changes.tell(action, change).catch((err) => logger.warn('a change DM could not be sent now', { actionId: action._id, error: err }));
    },
  };
}
