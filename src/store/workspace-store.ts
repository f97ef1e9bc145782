/**
 * One workspace's store: everything a workspace's services and jobs may
 * remember, and nothing else. Unlike `Store` (the whole database: the
 * installation registry, leases, migrations, retention across every
 * workspace), no method here takes a team to filter by: each is answered
 * inside the workspace it was built for (scopedWorkspaceStore below). Rows
 * keyed by their team (a link by team and Slack user, an audit entry) are
 * written and read under the store's own team, filled in here: no caller names
 * a team, so the same services run in a deployment of one workspace and in one
 * of many. A delivery whose recipient names another team reads as absent, and
 * its claim is refused (StoreError 'other-workspace'). Care Ids (actions, care
 * users, groups) are not unique across care accounts: every list by a care Id
 * is narrowed to the team.
 */
import { StoreError } from './errors.js';
import { recipientInTeam } from './recipient-team.js';
import type { EraseOptions } from './person-data.js';
import type { Store } from './store.js';
import type {
  AuditInput,
  AuditQuery,
  DeliveryFilter,
  GroupRouteInput,
  LinkDecision,
  LinkInput,
  LinkRequestInput,
  LinkRequestState,
  RecentDeliveriesQuery,
  SubscriptionInput,
  SummarySettingInput,
  UnfinishedQuery,
} from './types.js';

/** A filter of this workspace's rows: the team is the store's own. */
type Own<T> = Omit<T, 'teamId'>;
/** An erasure in this workspace: its audit row names the person who erased, the team is the store's own. */
type OwnErasure = Omit<EraseOptions, 'teamId' | 'audit'> & { audit: Own<EraseOptions['audit']> };

/** Marks a workspace's store, so a whole Store is not taken for one. */
export const WORKSPACE_SCOPE: unique symbol = Symbol('workspace scope');

export interface WorkspaceStore {
  /** The team it answers for (in a deployment of one workspace too). */
  readonly [WORKSPACE_SCOPE]: string;

  // identity links (keyed by team and Slack user)
  upsertLink(input: Own<LinkInput>): ReturnType<Store['upsertLink']>;
  getLinkBySlackUser(slackUserId: string): ReturnType<Store['getLinkBySlackUser']>;
  /** Every Slack user of this workspace linked to a care user. */
  getLinksByCareUser(careUserId: string): ReturnType<Store['getLinksByCareUser']>;
  listLinks(): ReturnType<Store['listLinks']>;
  deleteLink(slackUserId: string): ReturnType<Store['deleteLink']>;

  // link requests
  createLinkRequest(input: Own<LinkRequestInput>): ReturnType<Store['createLinkRequest']>;
  getLinkRequest(id: number): ReturnType<Store['getLinkRequest']>;
  listLinkRequests(filter?: { state?: LinkRequestState }): ReturnType<Store['listLinkRequests']>;
  decideLinkRequest(id: number, decision: LinkDecision, decidedBy: string, options?: { careUserId?: string }): ReturnType<Store['decideLinkRequest']>;

  // channel digest subscriptions
  upsertSubscription(input: Own<SubscriptionInput>): ReturnType<Store['upsertSubscription']>;
  getSubscription(channelId: string): ReturnType<Store['getSubscription']>;
  listSubscriptions(): ReturnType<Store['listSubscriptions']>;
  deleteSubscription(channelId: string): ReturnType<Store['deleteSubscription']>;

  // personal morning summaries
  upsertSummarySetting(input: Own<SummarySettingInput>): ReturnType<Store['upsertSummarySetting']>;
  getSummarySetting(slackUserId: string): ReturnType<Store['getSummarySetting']>;
  listEnabledSummarySettings(): ReturnType<Store['listEnabledSummarySettings']>;

  // notification-group routes
  upsertRoute(input: Own<GroupRouteInput>): ReturnType<Store['upsertRoute']>;
  listRoutes(): ReturnType<Store['listRoutes']>;
  routesForGroups(groupIds: readonly string[]): ReturnType<Store['routesForGroups']>;
  deleteRoute(groupId: string): ReturnType<Store['deleteRoute']>;

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
  anyUnfinishedDeliveries(): Promise<boolean>;
  recentDeliveries(query: Own<RecentDeliveriesQuery>): ReturnType<Store['recentDeliveries']>;
  reopenDelivery(id: number): ReturnType<Store['reopenDelivery']>;

  // the care home's settings (shifts, handover, escalation...): its own scope
  getHomeSetting(name: string): ReturnType<Store['getHomeSetting']>;
  listHomeSettings(): ReturnType<Store['listHomeSettings']>;
  setHomeSetting(name: string, value: string | null, updatedBy: string | null): Promise<void>;
  // retention: this workspace's completed actions and their redaction
  noteCompletion(actionId: string, completion: Parameters<Store['noteCompletion']>[2]): Promise<void>;
  dueRedactions(completedBefore: number, limit?: number): ReturnType<Store['dueRedactions']>;
  markRedacted(completion: Parameters<Store['markRedacted']>[1]): Promise<boolean>;
  // this workspace's actions' due times as the app saw them (append-only: the evidence export's honesty)
  noteDue(actionId: string, seen: Parameters<Store['noteDue']>[2]): Promise<boolean>;
  dueHistories(actionIds: readonly string[]): ReturnType<Store['dueHistories']>;
  firstDueBetween(start: number, end: number, limit: number): ReturnType<Store['firstDueBetween']>;
  // this workspace's notes on actions (written once; deleted by retention, erasure, uninstall)
  addNote(note: Parameters<Store['addNote']>[1]): ReturnType<Store['addNote']>;
  listNotes(actionIds: readonly string[]): ReturnType<Store['listNotes']>;
  dropNotes(actionId: string, writtenBefore: number): Promise<number>;
  // this workspace's answers to urgent episodes, and its actions marked as needing two staff
  addEpisodeAnswer(answer: Parameters<Store['addEpisodeAnswer']>[1]): ReturnType<Store['addEpisodeAnswer']>;
  listEpisodeAnswers(actionId: string): ReturnType<Store['listEpisodeAnswers']>;
  episodeAnswersOf(actionIds: readonly string[]): ReturnType<Store['episodeAnswersOf']>;
  undoEpisodeAnswer(id: number, at: number): Promise<boolean>;
  dropAnswerNotes(actionId: string): Promise<number>;
  setTwoStaff(actionId: string, twoStaff: boolean, setBy: string | null): Promise<void>;
  twoStaffMark(actionId: string): ReturnType<Store['twoStaffMark']>;
  twoStaffMarked(actionIds: readonly string[]): ReturnType<Store['twoStaffMarked']>;

  // this workspace's cursors (poll position, urgent episodes, assignment memory...)
  getCursor: Store['getCursor'];
  setCursor: Store['setCursor'];
  /** This workspace's cursors whose name starts with `prefix`, named as this store names them. */
  listCursors(prefix: string): ReturnType<Store['listCursors']>;
  deleteCursor: Store['deleteCursor'];
  /** A lease of this workspace's (a rate gate: nobody gives it back). */
  acquireLease: Store['acquireLease'];

  // one-time keys of this workspace (a spent Undo)
  markRequestSeen: Store['markRequestSeen'];
  forgetRequestSeen: Store['forgetRequestSeen'];

  // audit
  appendAudit(input: Own<AuditInput>): ReturnType<Store['appendAudit']>;
  listAudit(query?: Own<AuditQuery>): ReturnType<Store['listAudit']>;

  // one person's data (an admin's export and erasure)
  personRecords(slackUserId: string): ReturnType<Store['personRecords']>;
  /** The erasure's audit row is this workspace's. */
  erasePerson(slackUserId: string, options: OwnErasure): ReturnType<Store['erasePerson']>;

  // health: the database answers and accepts a write (no workspace's rows)
  ping: Store['ping'];
  probeWrite: Store['probeWrite'];
}

/**
 * The one naming rule for what a workspace keeps by name (its cursors, leases, one-time keys; the scheduler's
 * lease of a job kind there): `<name>@<team>`. Team ids hold no '@', so no name of one workspace is another's.
 */
export const workspaceKey = (name: string, teamId: string) => `${name}@${teamId}`;

/** Every method of a workspace's store, each written out (no method may be left to a default). */
type EveryMethod = { [K in keyof WorkspaceStore]-?: WorkspaceStore[K] };

/**
 * One workspace's store, in a deployment of one workspace or of many: every method is answered inside `teamId`, in the
 * query itself (the team is a condition of its SQL, or the row's key names the team and another team's key
 * reads as absent and is refused a write), and its cursors, leases and one-time keys are its own
 * (`name@teamId`: team ids hold no '@', so no name of one workspace is another's).
 *
 * Built method by method: a method added to WorkspaceStore and not written here does not compile, and there
 * is no pass-through to the whole store. test/store/contract/workspace-isolation.ts walks every method with
 * two workspaces (T1, T12) on SQLite and PostgreSQL.
 */
export function scopedWorkspaceStore(store: Store, teamId: string): WorkspaceStore {
  /** A write naming another workspace's row: refused, never done. */
  const refuse = (what: string, rowTeam: string): never => {
    throw new StoreError('other-workspace', `A ${what} of workspace ${rowTeam} cannot be written through workspace ${teamId}'s store.`);
  };
  const named = (name: string) => workspaceKey(name, teamId);
  const scoped: EveryMethod = {
    [WORKSPACE_SCOPE]: teamId,

    upsertLink: (input) => store.upsertLink({ ...input, teamId }),
    getLinkBySlackUser: (slackUserId) => store.getLinkBySlackUser(teamId, slackUserId),
    getLinksByCareUser: (careUserId) => store.getLinksByCareUser(careUserId, teamId),
    listLinks: () => store.listLinks(teamId),
    deleteLink: (slackUserId) => store.deleteLink(teamId, slackUserId),

    createLinkRequest: (input) => store.createLinkRequest({ ...input, teamId }),
    getLinkRequest: (id) => store.getLinkRequest(id, teamId),
    listLinkRequests: (filter) => store.listLinkRequests({ ...filter, teamId }),
    decideLinkRequest: (id, decision, decidedBy, options) => store.decideLinkRequest(id, decision, decidedBy, { ...options, teamId }),

    upsertSubscription: (input) => store.upsertSubscription({ ...input, teamId }),
    getSubscription: (channelId) => store.getSubscription(teamId, channelId),
    listSubscriptions: () => store.listSubscriptions(teamId),
    deleteSubscription: (channelId) => store.deleteSubscription(teamId, channelId),

    upsertSummarySetting: (input) => store.upsertSummarySetting({ ...input, teamId }),
    getSummarySetting: (slackUserId) => store.getSummarySetting(teamId, slackUserId),
    listEnabledSummarySettings: () => store.listEnabledSummarySettings(teamId),

    upsertRoute: (input) => store.upsertRoute({ ...input, teamId }),
    listRoutes: () => store.listRoutes(teamId),
    routesForGroups: (groupIds) => store.routesForGroups(groupIds, teamId),
    deleteRoute: (groupId) => store.deleteRoute(teamId, groupId),

    claimDelivery: async (key, options) => (recipientInTeam(key.recipient, teamId) ? store.claimDelivery(key, options) : refuse('delivery', key.recipient)),
    markSent: (id, sent) => store.markSent(id, sent, teamId),
    markFailed: (id, error, options) => store.markFailed(id, error, options, teamId),
    markInDoubt: (id, error, options) => store.markInDoubt(id, error, options, teamId),
    getDelivery: async (key) => (recipientInTeam(key.recipient, teamId) ? store.getDelivery(key) : null),
    getDeliveryById: (id) => store.getDeliveryById(id, teamId),
    listDeliveries: (filter) => store.listDeliveries({ ...filter, teamId }),
    countDeliveries: (filter) => store.countDeliveries({ ...filter, teamId }),
    unfinishedDeliveries: (kind, query) => store.unfinishedDeliveries(kind, { ...query, teamId }),
    anyUnfinishedDeliveries: () => store.anyUnfinishedDeliveries(teamId),
    recentDeliveries: (query) => store.recentDeliveries({ ...query, teamId }),
    reopenDelivery: (id) => store.reopenDelivery(id, teamId),

    getHomeSetting: (name) => store.getHomeSetting(teamId, name),
    listHomeSettings: () => store.listHomeSettings(teamId),
    setHomeSetting: (name, value, updatedBy) => store.setHomeSetting(teamId, name, value, updatedBy),
    noteCompletion: (actionId, completion) => store.noteCompletion(teamId, actionId, completion),
    dueRedactions: (completedBefore, limit) => store.dueRedactions(teamId, completedBefore, limit),
    markRedacted: (completion) => store.markRedacted(teamId, completion),
    noteDue: (actionId, seen) => store.noteDue(teamId, actionId, seen),
    dueHistories: (actionIds) => store.dueHistories(teamId, actionIds),
    firstDueBetween: (start, end, limit) => store.firstDueBetween(teamId, start, end, limit),
    addNote: (note) => store.addNote(teamId, note),
    listNotes: (actionIds) => store.listNotes(teamId, actionIds),
    dropNotes: (actionId, writtenBefore) => store.dropNotes(teamId, actionId, writtenBefore),
    addEpisodeAnswer: (answer) => store.addEpisodeAnswer(teamId, answer),
    listEpisodeAnswers: (actionId) => store.listEpisodeAnswers(teamId, actionId),
    episodeAnswersOf: (actionIds) => store.episodeAnswersOf(teamId, actionIds),
    undoEpisodeAnswer: (id, at) => store.undoEpisodeAnswer(teamId, id, at),
    dropAnswerNotes: (actionId) => store.dropAnswerNotes(teamId, actionId),
    setTwoStaff: (actionId, twoStaff, setBy) => store.setTwoStaff(teamId, actionId, twoStaff, setBy),
    twoStaffMark: (actionId) => store.twoStaffMark(teamId, actionId),
    twoStaffMarked: (actionIds) => store.twoStaffMarked(teamId, actionIds),

    getCursor: (name) => store.getCursor(named(name)),
    setCursor: (name, value) => store.setCursor(named(name), value),
    listCursors: async (prefix) => {
      const suffix = `@${teamId}`;
      return (await store.listCursors(prefix, teamId))
        .filter((c) => c.name.endsWith(suffix))
        .map((c) => ({ name: c.name.slice(0, -suffix.length), value: c.value }));
    },
    deleteCursor: (name) => store.deleteCursor(named(name)),
    acquireLease: (name, holder, ttlMs) => store.acquireLease(named(name), holder, ttlMs),

    markRequestSeen: (key, at) => store.markRequestSeen(named(key), at),
    forgetRequestSeen: (key) => store.forgetRequestSeen(named(key)),

    appendAudit: (input) => store.appendAudit({ ...input, teamId }),
    listAudit: (query) => store.listAudit({ ...query, teamId }),

    personRecords: (slackUserId) => store.personRecords(slackUserId, teamId),
    erasePerson: (slackUserId, options) => store.erasePerson(slackUserId, { ...options, teamId, audit: { ...options.audit, teamId } }),

    ping: () => store.ping(),
    probeWrite: () => store.probeWrite(),
  };
  return scoped;
}
