/**
 * One workspace's store: everything a workspace's services and jobs may
 * remember, and nothing else. Unlike `Store` (the whole database: the
 * installation registry, leases, migrations, retention across every
 * workspace), no method here takes a team to filter by: each is answered
 * inside the workspace it was built for (src/workspaces/scoped-store.ts). A
 * row named by another team's key reads as absent, and a write naming another
 * team is refused (StoreError 'other-workspace').
 *
 * Methods that key a row by its team (a link by team and Slack user) keep the
 * key as it is, so the same services run in a deployment of one workspace and
 * in one of many. Care Ids (actions, care users, groups) are not unique
 * across care accounts: every list by a care Id is narrowed to the team.
 */
import type { Store } from './store.js';
import type { AuditQuery, DeliveryFilter, LinkDecision, LinkRequestState, RecentDeliveriesQuery, UnfinishedQuery } from './types.js';

/** A filter of this workspace's rows: the team is the store's own. */
type Own<T> = Omit<T, 'teamId'>;

export interface WorkspaceStore {
  // identity links (keyed by team and Slack user)
  upsertLink: Store['upsertLink'];
  getLinkBySlackUser: Store['getLinkBySlackUser'];
  /** Every Slack user of this workspace linked to a care user. */
  getLinksByCareUser(careUserId: string): ReturnType<Store['getLinksByCareUser']>;
  listLinks(): ReturnType<Store['listLinks']>;
  deleteLink: Store['deleteLink'];

  // link requests
  createLinkRequest: Store['createLinkRequest'];
  getLinkRequest(id: number): ReturnType<Store['getLinkRequest']>;
  listLinkRequests(filter?: { state?: LinkRequestState }): ReturnType<Store['listLinkRequests']>;
  decideLinkRequest(id: number, decision: LinkDecision, decidedBy: string, options?: { careUserId?: string }): ReturnType<Store['decideLinkRequest']>;

  // channel digest subscriptions
  upsertSubscription: Store['upsertSubscription'];
  getSubscription: Store['getSubscription'];
  listSubscriptions(): ReturnType<Store['listSubscriptions']>;
  deleteSubscription: Store['deleteSubscription'];

  // personal morning summaries
  upsertSummarySetting: Store['upsertSummarySetting'];
  getSummarySetting: Store['getSummarySetting'];
  listEnabledSummarySettings(): ReturnType<Store['listEnabledSummarySettings']>;

  // notification-group routes
  upsertRoute: Store['upsertRoute'];
  listRoutes(): ReturnType<Store['listRoutes']>;
  routesForGroups(groupIds: readonly string[]): ReturnType<Store['routesForGroups']>;
  deleteRoute: Store['deleteRoute'];

  // delivery ledger (a row's workspace is in its recipient: `<type>:<teamId>/…`)
  claimDelivery: Store['claimDelivery'];
  markSent(id: number, sent: { channel: string; ts: string }): Promise<boolean>;
  markFailed(id: number, error: string, options: Parameters<Store['markFailed']>[2]): Promise<boolean>;
  markInDoubt(id: number, error: string, options: { holder: string; at: number }): Promise<boolean>;
  getDelivery: Store['getDelivery'];
  getDeliveryById(id: number): ReturnType<Store['getDeliveryById']>;
  listDeliveries(filter?: Own<DeliveryFilter>): ReturnType<Store['listDeliveries']>;
  countDeliveries(filter?: Own<Omit<DeliveryFilter, 'order' | 'limit'>>): ReturnType<Store['countDeliveries']>;
  unfinishedDeliveries(kind: string, query: Own<UnfinishedQuery>): ReturnType<Store['unfinishedDeliveries']>;
  recentDeliveries(query: Own<RecentDeliveriesQuery>): ReturnType<Store['recentDeliveries']>;
  reopenDelivery(id: number): ReturnType<Store['reopenDelivery']>;

  // this workspace's cursors (poll position, urgent episodes, assignment memory...)
  getCursor: Store['getCursor'];
  setCursor: Store['setCursor'];
  /** A lease of this workspace's (a rate gate: nobody gives it back). */
  acquireLease: Store['acquireLease'];

  // one-time keys of this workspace (a spent Undo)
  markRequestSeen: Store['markRequestSeen'];
  forgetRequestSeen: Store['forgetRequestSeen'];

  // audit
  appendAudit: Store['appendAudit'];
  listAudit(query?: Own<AuditQuery>): ReturnType<Store['listAudit']>;

  // health: the database answers and accepts a write (no workspace's rows)
  ping: Store['ping'];
  probeWrite: Store['probeWrite'];
}
