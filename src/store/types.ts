/**
 * What the store keeps, as callers see it. Times are epoch milliseconds: the
 * ledger's and the leases' by the shared (database) clock, the others by the app's.
 * Slack ids are (teamId, userId/channelId) pairs; care ids are strings.
 */

// ---- identity ----

/** How a Slack user got linked to a care user. */
export type LinkMethod = 'email' | 'admin' | 'request';

export interface IdentityLink {
  teamId: string;
  slackUserId: string;
  careUserId: string;
  method: LinkMethod;
  /** Slack user id of the admin/approver; null when made automatically (email match). */
  linkedBy: string | null;
  linkedAt: number;
}

export interface LinkInput {
  teamId: string;
  slackUserId: string;
  careUserId: string;
  method: LinkMethod;
  linkedBy?: string | null;
  /** Defaults to the store's clock. */
  linkedAt?: number;
}

export type LinkRequestState = 'pending' | 'approved' | 'rejected';

export interface LinkRequest {
  id: number;
  teamId: string;
  slackUserId: string;
  /** The care user asked for, if the requester knew it; on approval, the one linked. */
  careUserId: string | null;
  note: string | null;
  state: LinkRequestState;
  requestedAt: number;
  decidedBy: string | null;
  decidedAt: number | null;
}

export interface LinkRequestInput {
  teamId: string;
  slackUserId: string;
  careUserId?: string | null;
  note?: string | null;
}

export type LinkDecision = 'approved' | 'rejected';

export type DecideResult =
  /** The request moved from pending; on approval `link` is the link that was made. */
  | { ok: true; request: LinkRequest; link: IdentityLink | null }
  /** Nothing changed: no such request, or someone decided it first. */
  | { ok: false; reason: 'not-found' }
  | { ok: false; reason: 'already-decided'; request: LinkRequest };

// ---- channel digests ----

export type DigestDays = 'weekdays' | 'daily';

/** Who/what a channel's digest covers. Unknown keys are kept as given. */
export interface DigestFilters {
  /** Only actions assigned to these care users ... */
  careUserIds?: string[];
  /** ... or to the care users linked to these Slack users (same team as the channel). */
  slackUserIds?: string[];
  /** Only actions assigned to the person who set the digest up. */
  mineOnly?: boolean;
  urgentOnly?: boolean;
  locationId?: string | null;
  [key: string]: unknown;
}

export interface Subscription {
  teamId: string;
  channelId: string;
  /** Local time of day, "HH:MM" (24 h). */
  time: string;
  days: DigestDays;
  /** IANA zone name, e.g. "Europe/London". */
  timeZone: string;
  filters: DigestFilters;
  /** Whether task text may be shown in this channel. */
  showTaskText: boolean;
  /** Whether an empty digest posts "nothing due". */
  postWhenEmpty: boolean;
  /** Whether the channel also gets live urgent alerts. */
  urgentAlerts: boolean;
  /** Channel privacy as known at setup. */
  channelPrivate: boolean;
  setUpBy: string;
  setUpAt: number;
}

export type SubscriptionInput = Omit<Subscription, 'setUpAt' | 'filters'> & {
  filters?: DigestFilters;
  setUpAt?: number;
};

// ---- personal morning summaries ----

/** One person's own morning summary (a DM of their overdue, due-today and urgent actions). */
export interface SummarySetting {
  teamId: string;
  slackUserId: string;
  /** Local time of day in the person's own Slack time zone, "HH:MM" (24 h). */
  time: string;
  days: DigestDays;
  /** Off keeps the time and days, so turning it back on remembers them. */
  enabled: boolean;
  /** When it was last changed (a time already past when set starts the next day). */
  setAt: number;
}

export type SummarySettingInput = Omit<SummarySetting, 'setAt'> & { setAt?: number };

// ---- notification-group routes ----

export interface GroupRoute {
  teamId: string;
  groupId: string;
  groupName: string;
  channelId: string;
  setUpBy: string;
  setUpAt: number;
}

export type GroupRouteInput = Omit<GroupRoute, 'setUpAt'> & { setUpAt?: number };

// ---- delivery ledger ----

/**
 * Identifies one delivery. `kind` e.g. 'completion' | 'due' | 'urgent' | 'digest';
 * `occurrence` the completion time or due window (any stable string);
 * `recipient` e.g. 'user:T1/U1' or 'channel:T1/C1'.
 */
export interface DeliveryKey {
  kind: string;
  actionId: string;
  occurrence: string;
  recipient: string;
}

export type DeliveryState = 'pending' | 'sent' | 'failed';

export interface Delivery extends DeliveryKey {
  id: number;
  state: DeliveryState;
  /** Claims made so far (1 after the first claim). */
  attempts: number;
  claimedBy: string | null;
  claimedAt: number | null;
  lastError: string | null;
  /** Set by markFailed: whether a later claim may try again. */
  retryable: boolean;
  slackChannel: string | null;
  slackTs: string | null;
  createdAt: number;
  updatedAt: number;
  sentAt: number | null;
  /**
   * When the last post left in doubt (no answer; a 5xx) began, on the app's clock (Slack's message times follow
   * it): the next attempt looks in Slack around then before posting again.
   */
  inDoubtAt: number | null;
}

/** How a failed attempt is recorded. */
export interface FailOptions {
  /** Whether a later claim may try again. */
  retryable: boolean;
  /** Only if this holder still has the claim. */
  holder?: string;
  /** The post may have gone through (a 5xx): when it began (app clock); the next attempt looks in Slack first. */
  inDoubtAt?: number;
  /** False: the attempt sent nothing and is not counted (Slack's rate limit, a history read to wait for). */
  countAttempt?: boolean;
}

export interface ClaimOptions {
  /** Who is claiming (instance id); stored as claimed_by. */
  holder: string;
  /** A pending claim older than this is presumed dead and may be reclaimed. */
  staleAfterMs: number;
  /** Claims allowed in total (first + reclaims + retries) before giving up. Default 5. */
  maxAttempts?: number;
}

export type ClaimOutcome =
  /** New row: you hold the claim and must send, then markSent / markFailed. */
  | { outcome: 'claimed'; delivery: Delivery }
  /**
   * A pending claim went stale and is now yours (attempts incremented). The
   * previous holder may have crashed between sending and marking: check Slack
   * before sending again.
   */
  | { outcome: 'reclaimed'; delivery: Delivery; previousHolder: string | null }
  /** A retryable failure is now yours to try again (attempts incremented). */
  | { outcome: 'failed-retry'; delivery: Delivery }
  /** Another holder's claim is fresh: do nothing now. */
  | { outcome: 'busy'; delivery: Delivery }
  /** Already delivered. */
  | { outcome: 'sent'; delivery: Delivery; channel: string | null; ts: string | null }
  /** Failed for good (not retryable, or out of attempts): do not send. */
  | { outcome: 'failed'; delivery: Delivery };

/** What the retry sweep asks for: deliveries of one kind worth another try. */
export interface UnfinishedQuery {
  /** A pending claim at least this old is presumed dead. */
  staleAfterMs: number;
  /** Claims allowed in total; rows that used them all are given up on. Default 5. */
  maxAttempts?: number;
  /** Least recently tried first; default 200. */
  limit?: number;
  /** Only rows whose recipient is in this workspace (`<type>:<teamId>/…`); default every workspace. */
  teamId?: string;
}

export interface DeliveryFilter {
  kind?: string;
  actionId?: string;
  recipient?: string;
  state?: DeliveryState;
  /** Only rows whose recipient is in this workspace (`<type>:<teamId>/…`); default every workspace. */
  teamId?: string;
  /** Newest first when set to 'desc'; default oldest first. */
  order?: 'asc' | 'desc';
  limit?: number;
}

/** What recentDeliveries asks for: rows last changed within `windowMs` of the store's clock. */
export interface RecentDeliveriesQuery {
  windowMs: number;
  /** How many of the failed rows to return, newest first (default 10). */
  failedLimit?: number;
  /** Counts and failed rows of this workspace only (recipient `<type>:<teamId>/…`); default every workspace. */
  teamId?: string;
}

/** Deliveries last changed within a window: how many in each state now, and the newest failed rows. */
export interface RecentDeliveries {
  sent: number;
  pending: number;
  failed: number;
  failedRows: Delivery[];
}

// ---- jobs ----

export interface Lease {
  name: string;
  holder: string;
  acquiredAt: number;
  expiresAt: number;
}

// ---- a care home's settings ----

/** One named setting of a care home (its JSON value is read by the service that owns it). */
export interface HomeSetting {
  name: string;
  value: string;
  updatedBy: string | null;
  updatedAt: number;
}

// ---- audit ----

export interface AuditEntry {
  id: number;
  teamId: string;
  userId: string;
  /** What was done, e.g. 'action.complete', 'link.approve', 'subscription.set'. */
  verb: string;
  actionId: string | null;
  details: Record<string, unknown>;
  at: number;
}

export interface AuditInput {
  teamId: string;
  userId: string;
  verb: string;
  actionId?: string | null;
  details?: Record<string, unknown>;
  at?: number;
}

export interface AuditQuery {
  /** Newest first; default 50, at most 1000. */
  limit?: number;
  actionId?: string;
  /** Any of these actions (one read for a whole list); empty = none. */
  actionIds?: readonly string[];
  teamId?: string;
  verb?: string;
}

/** A copy of an Events API delivery asking to run (seen-events.ts). */
export interface EventAdmission {
  /** This copy's claim on the row (random; settleEvent names it). */
  claim: string;
  now: number;
  /** A row still 'admitted' since before this was abandoned (its copy was never answered): it may be taken. */
  staleBefore: number;
  expiresAt: number;
}
