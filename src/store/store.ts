/**
 * The whole database, every workspace's rows: what the installation registry,
 * the schedulers (leases), retention and the tools use. Both implementations
 * (SQLite, PostgreSQL) satisfy it with the same meaning; see openStore().
 * A workspace's services never get it: they get a WorkspaceStore
 * (workspace-store.ts), every method of which stays inside one workspace.
 */
import type {
  HomeSetting,
  AuditEntry,
  AuditInput,
  AuditQuery,
  ClaimOptions,
  ClaimOutcome,
  DecideResult,
  Delivery,
  DeliveryFilter,
  DeliveryKey,
  EventAdmission,
  FailOptions,
  GroupRoute,
  GroupRouteInput,
  IdentityLink,
  Lease,
  LinkDecision,
  LinkInput,
  LinkRequest,
  LinkRequestInput,
  LinkRequestState,
  RecentDeliveries,
  RecentDeliveriesQuery,
  Subscription,
  SubscriptionInput,
  SummarySetting,
  SummarySettingInput,
  UnfinishedQuery,
} from './types.js';
import type { KeyRing } from '../crypto/key-ring.js';
import type { ActionCompletion } from './action-completions.js';
import type { DueHistory, DueSighting } from './due-history.js';
import type { ActionNote, ActionNoteInput } from './action-notes.js';
import type { EpisodeAnswer, EpisodeAnswerInput } from './episode-answers.js';
import type {
  BotTokenRefresh,
  CareConnection,
  CareConnectionInput,
  InstallationQuery,
  InstallationSaved,
  ReencryptResult,
  SlackInstallation,
  SlackInstallationInput,
  WorkspaceSettings,
  WorkspaceSettingsPatch,
  WorkspaceSummary,
} from './workspace-types.js';
import type { ErasedCounts, EraseOptions, PersonRecords } from './person-data.js';
import type { ForgottenCounts } from './forget-workspace.js';
import type { JobFailure, JobFailureOutcome, JobState, JobSuccessOutcome } from './job-state.js';
import type { SingleWorkspace, SingleWorkspaceBound } from './single-workspace.js';

export interface Store {
  readonly kind: 'sqlite' | 'postgres';

  // identity links
  upsertLink(input: LinkInput): Promise<IdentityLink>;
  getLinkBySlackUser(teamId: string, slackUserId: string): Promise<IdentityLink | null>;
  /** Every Slack user linked to a care user; with teamId, only that workspace's. */
  getLinksByCareUser(careUserId: string, teamId?: string): Promise<IdentityLink[]>;
  listLinks(teamId?: string): Promise<IdentityLink[]>;
  deleteLink(teamId: string, slackUserId: string): Promise<boolean>;

  // link requests
  createLinkRequest(input: LinkRequestInput): Promise<{ request: LinkRequest; created: boolean }>;
  /** With teamId, null unless the request is that workspace's. */
  getLinkRequest(id: number, teamId?: string): Promise<LinkRequest | null>;
  listLinkRequests(filter?: { state?: LinkRequestState; teamId?: string }): Promise<LinkRequest[]>;
  decideLinkRequest(id: number, decision: LinkDecision, decidedBy: string, options?: { careUserId?: string; teamId?: string }): Promise<DecideResult>;

  // channel digest subscriptions
  upsertSubscription(input: SubscriptionInput): Promise<Subscription>;
  getSubscription(teamId: string, channelId: string): Promise<Subscription | null>;
  listSubscriptions(teamId?: string): Promise<Subscription[]>;
  deleteSubscription(teamId: string, channelId: string): Promise<boolean>;

  // personal morning summaries
  upsertSummarySetting(input: SummarySettingInput): Promise<SummarySetting>;
  getSummarySetting(teamId: string, slackUserId: string): Promise<SummarySetting | null>;
  /** The summaries that are on: in every workspace, or only in teamId's. */
  listEnabledSummarySettings(teamId?: string): Promise<SummarySetting[]>;

  // notification-group routes
  upsertRoute(input: GroupRouteInput): Promise<GroupRoute>;
  listRoutes(teamId?: string): Promise<GroupRoute[]>;
  /** The routes of any of these groups: in every workspace, or only in teamId's. */
  routesForGroups(groupIds: readonly string[], teamId?: string): Promise<GroupRoute[]>;
  deleteRoute(teamId: string, groupId: string): Promise<boolean>;

  // delivery ledger
  claimDelivery(key: DeliveryKey, options: ClaimOptions): Promise<ClaimOutcome>;
  /** The methods by a row's id take an optional teamId: then only a row of that workspace (its recipient's team) is read or changed. */
  markSent(id: number, sent: { channel: string; ts: string }, teamId?: string): Promise<boolean>;
  markFailed(id: number, error: string, options: FailOptions, teamId?: string): Promise<boolean>;
  /** A post Slack may still be processing: keep the claim (pending) until it goes stale; note the error. */
  markInDoubt(id: number, error: string, options: { holder: string; at: number }, teamId?: string): Promise<boolean>;
  getDelivery(key: DeliveryKey): Promise<Delivery | null>;
  getDeliveryById(id: number, teamId?: string): Promise<Delivery | null>;
  listDeliveries(filter?: DeliveryFilter): Promise<Delivery[]>;
  countDeliveries(filter?: Omit<DeliveryFilter, 'order' | 'limit'>): Promise<number>;
  /**
   * Deliveries of one kind worth another try (retryable failures, stale pending claims, within their
   * attempts), least recently tried first. Gives up on those out of attempts first: they end failed,
   * with the reason in lastError.
   */
  unfinishedDeliveries(kind: string, query: UnfinishedQuery): Promise<Delivery[]>;
  /** Whether any delivery (of one workspace with `teamId`) is pending or failed for a passing reason: one query before every retry sweep. */
  anyUnfinishedDeliveries(teamId?: string): Promise<boolean>;
  /** The workspaces (team ids) with any delivery pending or failed for a passing reason: the question above for all at once, once a poll tick. */
  workspacesWithUnfinishedDeliveries(): Promise<Set<string>>;
  /** Rows last changed within a window of the store's clock: counts per state and the newest failed ones (an admin's status). */
  recentDeliveries(query: RecentDeliveriesQuery): Promise<RecentDeliveries>;
  /** An admin's Retry: a failed row becomes claimable again with fresh attempts; null unless it is failed now. */
  reopenDelivery(id: number, teamId?: string): Promise<Delivery | null>;

  // a care home's settings (scope: the workspace's Slack team id)
  getHomeSetting(scope: string, name: string): Promise<HomeSetting | null>;
  listHomeSettings(scope: string): Promise<HomeSetting[]>;
  /** null removes it (its default applies again). */
  setHomeSetting(scope: string, name: string, value: string | null, updatedBy: string | null): Promise<void>;
  // retention: when actions were completed, and whether the app's messages about them are redacted
  /** `workspaceId`: the team. `completedAt` null: the action is open again. */
  noteCompletion(workspaceId: string, actionId: string, completion: { actionNo: string; completedAt: number } | null): Promise<void>;
  /** Completions at or before `completedBefore` (ms) not yet redacted, oldest first. */
  dueRedactions(workspaceId: string, completedBefore: number, limit?: number): Promise<ActionCompletion[]>;
  /** True for the one caller that marked this completion redacted. */
  markRedacted(workspaceId: string, completion: Pick<ActionCompletion, 'actionId' | 'completedAt'>): Promise<boolean>;
  // each action's due times as the app saw them (append-only): the evidence export's first due and reschedules
  /** True when the sighting added a row (the first due time, or a reschedule in a newer version). */
  noteDue(workspaceId: string, actionId: string, seen: DueSighting): Promise<boolean>;
  dueHistories(workspaceId: string, actionIds: readonly string[]): Promise<Map<string, DueHistory>>;
  /** Actions whose first due time is in [start, end) (ms). */
  firstDueBetween(workspaceId: string, start: number, end: number, limit: number): Promise<string[]>;
  // notes on actions (written once, never changed): what people said when they completed or took one
  addNote(workspaceId: string, note: ActionNoteInput): Promise<ActionNote>;
  /** These actions' notes, oldest first. */
  listNotes(workspaceId: string, actionIds: readonly string[]): Promise<ActionNote[]>;
  /** Retention: an action's notes written at or before `writtenBefore` (ms) deleted; how many. */
  dropNotes(workspaceId: string, actionId: string, writtenBefore: number): Promise<number>;
  // the answers to urgent episodes ("I'm on it", "I can't", "Join") and actions marked as needing two staff
  /** Null when this person's same answer to the episode is already live (nothing added). */
  addEpisodeAnswer(workspaceId: string, answer: EpisodeAnswerInput): Promise<EpisodeAnswer | null>;
  /** Every answer to an action, oldest first (undone ones too). */
  listEpisodeAnswers(workspaceId: string, actionId: string): Promise<EpisodeAnswer[]>;
  episodeAnswersOf(workspaceId: string, actionIds: readonly string[]): Promise<Map<string, EpisodeAnswer[]>>;
  /** True for the one caller that marked it undone. */
  undoEpisodeAnswer(workspaceId: string, id: number, at: number): Promise<boolean>;
  /** Retention: the notes about an action cleared; how many. */
  dropAnswerNotes(workspaceId: string, actionId: string): Promise<number>;
  setTwoStaff(workspaceId: string, actionId: string, twoStaff: boolean, setBy: string | null): Promise<void>;
  /** Null: never marked either way. */
  twoStaffMark(workspaceId: string, actionId: string): Promise<boolean | null>;
  /** Which of these actions are marked as needing two staff. */
  twoStaffMarked(workspaceId: string, actionIds: readonly string[]): Promise<Set<string>>;

  // job cursors and leases
  getCursor(name: string): Promise<string | null>;
  setCursor(name: string, value: string): Promise<void>;
  /** The cursors whose name starts with `prefix` (exactly, no wildcard); with `teamId`, only that workspace's. */
  listCursors(prefix: string, teamId?: string): Promise<{ name: string; value: string }[]>;
  /** Forget one cursor; true when it was there. */
  deleteCursor(name: string): Promise<boolean>;
  acquireLease(name: string, holder: string, ttlMs: number): Promise<boolean>;
  renewLease(name: string, holder: string, ttlMs: number): Promise<boolean>;
  releaseLease(name: string, holder: string): Promise<boolean>;
  getLease(name: string): Promise<Lease | null>;
  /** The names starting with `prefix` of the leases another holder has now. */
  leasesHeldElsewhere(prefix: string, holder: string): Promise<Set<string>>;
  /** Extend every lease `holder` has, in one statement; resolves to their names. */
  renewLeasesOf(holder: string, ttlMs: number): Promise<Set<string>>;
  // when each workspace's scheduled job kinds next have work (job-due.ts)
  /** The workspaces whose `kind` is not due at `now` (ms); every other one is. */
  notDue(kind: string, now: number): Promise<Set<string>>;
  /** A run of `kind` begins for the workspace (a workspace with no row is made due first). */
  beginDueRun(teamId: string, kind: string, token: string): Promise<void>;
  /** The run ended well: next due at `dueAt`; false when a change let its row go meanwhile (it stays due). */
  endDueRun(teamId: string, kind: string, token: string, dueAt: number): Promise<boolean>;
  // each workspace's job state: per kind its failures, backoff and slot, and its trouble episode (job-state.ts)
  /** A failed run: backed off, counted in the episode; `tell` for the one caller to tell the episode now. */
  recordJobFailure(teamId: string, failure: JobFailure): Promise<JobFailureOutcome>;
  /** A good run of `kind` at `at` (the app's clock): no longer failing; `ended` for the one caller that ended the episode. */
  recordJobSuccess(teamId: string, kind: string, at: number): Promise<JobSuccessOutcome>;
  /** The claim to tell the episode was used: it is told. False when the claim was no longer `teller`'s. */
  markJobTroubleTold(teamId: string, teller: string, at: number): Promise<boolean>;
  /** Telling failed: the claim given back (told at the next failure). */
  releaseJobTroubleTell(teamId: string, teller: string): Promise<boolean>;
  readJobState(teamId: string): Promise<JobState>;
  /** Many workspaces' job state in one query (per 500): every one asked has an entry. */
  readJobStates(teamIds: readonly string[]): Promise<Map<string, JobState>>;
  /** True for the one caller that claims `slot` of `kind` first (no later slot claimed). */
  claimJobSlot(teamId: string, kind: string, slot: number, at: number): Promise<boolean>;

  // signed requests already seen (replay memory) and other one-time keys (a spent Undo); times from the caller's clock
  /** True the first time `key` is seen (or after its row expired at `now`); false while it is remembered. */
  markRequestSeen(key: string, at: { now: number; expiresAt: number }): Promise<boolean>;
  /** Forget keys expired at `now`; resolves to how many. */
  pruneSeenRequests(now: number): Promise<number>;
  /** Forget one key at once (a one-time claim given back); true when it was remembered. */
  forgetRequestSeen(key: string): Promise<boolean>;

  // Events API deliveries already admitted, by event_id (their de-duplication); times from the caller's clock
  /** 'admitted' when this copy may run (never admitted, expired, or its admitting copy was never answered and is stale); else 'acked' or 'in-flight'. */
  admitEvent(eventId: string, at: EventAdmission): Promise<'admitted' | 'acked' | 'in-flight'>;
  /** The admitting copy's answer: 'acked' keeps the event refused until it expires; 'failed' lets the next copy in. */
  settleEvent(eventId: string, claim: string, outcome: 'acked' | 'failed'): Promise<boolean>;
  /** Forget events expired at `now`; resolves to how many. */
  pruneSeenEvents(now: number): Promise<number>;

  // many workspaces: installations, care connections, settings. Tokens and secrets are kept encrypted
  // with the key ring given to openStore(); without one, the methods that touch them throw
  // StoreError('encryption-key-missing'), and a value the ring cannot open StoreError('secret-unreadable').
  /**
   * Save a Slack installation: by team, or by enterprise for an org-wide install. Installing again
   * replaces the bot's token, ids and scopes and keeps installedAt and the first installer: only the
   * first installer's own installing again replaces their user grant, webhook and metadata. When none is
   * stored, `installerIfNew` (who installed it before an uninstall) is its installer instead of input.user.
   */
  saveInstallation(input: SlackInstallationInput, options?: { installerIfNew?: string }): Promise<InstallationSaved>;
  /** As Bolt asks: isEnterpriseInstall ? by enterpriseId : by teamId. Null when there is none. */
  getInstallation(query: InstallationQuery): Promise<SlackInstallation | null>;
  deleteInstallation(query: InstallationQuery): Promise<boolean>;
  /**
   * Token rotation: store a refreshed bot token if the stored refresh token is still `expected.refreshToken`
   * (compare-and-set); resolves to the installation as stored then, or null when it was not (another instance
   * refreshed first, or the app was installed again or uninstalled). Installing again does not count as a refresh.
   */
  rotateBotToken(query: InstallationQuery, expected: { refreshToken: string }, next: BotTokenRefresh): Promise<SlackInstallation | null>;
  setCareConnection(input: CareConnectionInput): Promise<CareConnection>;
  getCareConnection(workspaceId: string): Promise<CareConnection | null>;
  deleteCareConnection(workspaceId: string): Promise<boolean>;
  getWorkspaceSettings(workspaceId: string): Promise<WorkspaceSettings | null>;
  /** A field left out keeps its value; null clears it. */
  setWorkspaceSettings(workspaceId: string, patch: WorkspaceSettingsPatch, updatedBy: string | null): Promise<WorkspaceSettings>;
  /** Every installation with its care connection (if any); no secrets. */
  listWorkspaces(): Promise<WorkspaceSummary[]>;
  /** Rewrite every stored secret under the ring's primary key (default: the store's ring); idempotent. */
  reencryptAll(keyRing?: KeyRing): Promise<ReencryptResult>;

  // audit
  appendAudit(input: AuditInput): Promise<AuditEntry>;
  listAudit(query?: AuditQuery): Promise<AuditEntry[]>;

  // data protection (person-data.ts, forget-workspace.ts)
  /** Every row naming this Slack person, by table; with teamId, only that workspace's. No sealed token or secret. */
  personRecords(slackUserId: string, teamId?: string): Promise<PersonRecords>;
  /** Delete the person's own rows and replace their Id elsewhere by an anonymous token, with the erasure's audit row; one transaction. */
  erasePerson(slackUserId: string, options: EraseOptions): Promise<ErasedCounts>;
  /**
   * An uninstalled workspace: delete every row of it but its audit, whose Slack user Ids are removed; one
   * transaction. Without a workspace (a deployment of one): every row of the database but the audit, all of it anonymised.
   */
  forgetWorkspace(workspaceId?: string): Promise<ForgottenCounts>;
  /** The team a deployment of one workspace serves, once bound (single-workspace.ts); null before. */
  singleWorkspace(): Promise<SingleWorkspace | null>;
  /** Bind a deployment of one workspace to its team, adopting its rows kept under the old keys; refused for another team. */
  bindSingleWorkspace(teamId: string): Promise<SingleWorkspaceBound>;

  /** Resolves when the database answers; throws StoreError('unreachable' | 'closed') otherwise. */
  ping(): Promise<void>;
  /** Resolves when the database accepts a write (one row of the replay memory, already expired); throws otherwise. */
  probeWrite(): Promise<void>;
  /** Close connections; waits for an open SQLite transaction. Safe to call twice. */
  close(): Promise<void>;
}
