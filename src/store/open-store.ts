/**
 * openStore(): PostgreSQL when databaseUrl is postgres:// or postgresql://,
 * else SQLite in dataDir (default ./data). Migrates before resolving.
 */
import type { KeyRing } from '../crypto/key-ring.js';
import type { Logger } from '../logging/logger.js';
import { silentLogger } from '../logging/logger.js';
import * as actionCompletions from './action-completions.js';
import * as dueHistory from './due-history.js';
import * as actionNotes from './action-notes.js';
import * as episodeAnswers from './episode-answers.js';
import * as audit from './audit.js';
import { rotateBotToken } from './bot-token-rotation.js';
import * as careConnections from './care-connections.js';
import * as cursors from './cursors.js';
import type { Ctx, Db } from './db.js';
import * as deliveries from './deliveries.js';
import * as deliveryAdmin from './delivery-admin.js';
import * as deliveryRetries from './delivery-retries.js';
import * as homeSettings from './home-settings.js';
import { StoreError } from './errors.js';
import { forgetWorkspace } from './forget-workspace.js';
import * as installations from './installations.js';
import * as jobDue from './job-due.js';
import * as jobState from './job-state.js';
import * as leases from './leases.js';
import * as linkRequests from './link-requests.js';
import * as links from './links.js';
import type { Migration } from './migrations/index.js';
import { MIGRATIONS } from './migrations/index.js';
import type { MigrateResult } from './migrator.js';
import { migrate } from './migrator.js';
import * as personData from './person-data.js';
import { openPgDb } from './pg-db.js';
import { reencryptAll } from './reencrypt.js';
import * as routes from './routes.js';
import * as seenEvents from './seen-events.js';
import * as seenRequests from './seen-requests.js';
import * as singleWorkspace from './single-workspace.js';
import { openSqliteDb } from './sqlite-db.js';
import type { Store } from './store.js';
import * as subscriptions from './subscriptions.js';
import * as summarySettings from './summary-settings.js';
import * as workspaceSettings from './workspace-settings.js';
import { listWorkspaces } from './workspaces.js';

export interface StoreConfig {
  /** DATABASE_URL: postgres://... or postgresql://... selects PostgreSQL; unset/empty selects SQLite. */
  databaseUrl?: string;
  /** DATA_DIR for the SQLite file (created if missing). Default "./data". */
  dataDir?: string;
  /** PostgreSQL only: keep the tables in this schema (created if missing). For test isolation. */
  schema?: string;
  /**
   * The app's clock (epoch ms), for the times that record when something was done: links, link
   * requests, subscriptions, routes, audit, migrations. Default Date.now. Claims and leases never read it.
   */
  clock?: () => number;
  /**
   * Tests only: claims and leases (the delivery ledger and job leases) read this clock instead of
   * the database's, so a test can move time. Production leaves it unset: every instance then
   * shares the database's clock (see shared-clock.ts).
   */
  sharedClock?: () => number;
  logger?: Logger;
  /**
   * Encrypts Slack tokens and care secrets at rest (ENCRYPTION_KEY, parsed by the caller). Without
   * one the store keeps no tokens or secrets: those methods throw StoreError('encryption-key-missing').
   */
  keyRing?: KeyRing;
  /** PostgreSQL pool size. Default 10. */
  poolSize?: number;
  /** PostgreSQL: how long opening one connection may take. Default 5000 ms. */
  connectTimeoutMs?: number;
  /** PostgreSQL: how long a query may wait for a free pooled connection. Default 30000 ms. */
  poolWaitTimeoutMs?: number;
  /** Override the migration list (tests of the migrator only). */
  migrations?: readonly Migration[];
}

/** A store as openStore() returns it: with what the migrator did at start-up. */
export type OpenedStore = Store & { readonly migration: MigrateResult };

export function isPostgresUrl(url: string | undefined): boolean {
  return url !== undefined && /^postgres(ql)?:\/\//i.test(url);
}

function openDb(config: StoreConfig, logger: Logger): Db {
  const url = config.databaseUrl?.trim();
  if (url && isPostgresUrl(url)) {
    return openPgDb({
      url,
      logger,
      ...(config.schema !== undefined ? { schema: config.schema } : {}),
      ...(config.poolSize !== undefined ? { poolSize: config.poolSize } : {}),
      ...(config.connectTimeoutMs !== undefined ? { connectTimeoutMs: config.connectTimeoutMs } : {}),
      ...(config.poolWaitTimeoutMs !== undefined ? { poolWaitTimeoutMs: config.poolWaitTimeoutMs } : {}),
    });
  }
  if (url) {
    const scheme = url.split(':')[0] ?? '';
    throw new StoreError(
      'bad-config',
      `DATABASE_URL must start with postgres:// or postgresql:// (it starts with "${scheme}:"); leave it unset to use SQLite under DATA_DIR.`,
    );
  }
  return openSqliteDb(config.dataDir?.trim() || './data', logger);
}

export async function openStore(config: StoreConfig = {}): Promise<OpenedStore> {
  const logger = config.logger ?? silentLogger;
  const now = config.clock ?? Date.now;
  const db = openDb(config, logger);
  let migration: MigrateResult;
  try {
    migration = await migrate(db, {
      migrations: config.migrations ?? MIGRATIONS,
      now,
      logger,
      ...(config.schema !== undefined ? { schema: config.schema } : {}),
    });
  } catch (error) {
    await db.close().catch(() => undefined);
    throw error;
  }
  return createStore({ db, now, sharedClock: config.sharedClock, keyRing: config.keyRing }, migration);
}

function createStore(ctx: Ctx, migration: MigrateResult): OpenedStore {
  const { db } = ctx;
  return {
    kind: db.kind,
    migration,

    upsertLink: (input) => links.upsertLink(ctx, input),
    getLinkBySlackUser: (teamId, slackUserId) => links.getLinkBySlackUser(ctx, teamId, slackUserId),
    getLinksByCareUser: (careUserId, teamId) => links.getLinksByCareUser(ctx, careUserId, teamId),
    listLinks: (teamId) => links.listLinks(ctx, teamId),
    deleteLink: (teamId, slackUserId) => links.deleteLink(ctx, teamId, slackUserId),

    createLinkRequest: (input) => linkRequests.createLinkRequest(ctx, input),
    getLinkRequest: (id, teamId) => linkRequests.getLinkRequest(ctx, id, teamId),
    listLinkRequests: (filter) => linkRequests.listLinkRequests(ctx, filter),
    decideLinkRequest: (id, decision, decidedBy, options) => linkRequests.decideLinkRequest(ctx, id, decision, decidedBy, options),

    upsertSubscription: (input) => subscriptions.upsertSubscription(ctx, input),
    getSubscription: (teamId, channelId) => subscriptions.getSubscription(ctx, teamId, channelId),
    listSubscriptions: (teamId) => subscriptions.listSubscriptions(ctx, teamId),
    deleteSubscription: (teamId, channelId) => subscriptions.deleteSubscription(ctx, teamId, channelId),

    upsertSummarySetting: (input) => summarySettings.upsertSummarySetting(ctx, input),
    getSummarySetting: (teamId, slackUserId) => summarySettings.getSummarySetting(ctx, teamId, slackUserId),
    listEnabledSummarySettings: (teamId) => summarySettings.listEnabledSummarySettings(ctx, teamId),

    upsertRoute: (input) => routes.upsertRoute(ctx, input),
    listRoutes: (teamId) => routes.listRoutes(ctx, teamId),
    routesForGroups: (groupIds, teamId) => routes.routesForGroups(ctx, groupIds, teamId),
    deleteRoute: (teamId, groupId) => routes.deleteRoute(ctx, teamId, groupId),

    claimDelivery: (key, options) => deliveries.claimDelivery(ctx, key, options),
    markSent: (id, sent, teamId) => deliveries.markSent(ctx, id, sent, teamId),
    markFailed: (id, error, options, teamId) => deliveries.markFailed(ctx, id, error, options, teamId),
    markInDoubt: (id, error, options, teamId) => deliveries.markInDoubt(ctx, id, error, options, teamId),
    getDelivery: (key) => deliveries.getDelivery(ctx, key),
    getDeliveryById: (id, teamId) => deliveries.getDeliveryById(ctx, id, teamId),
    listDeliveries: (filter) => deliveries.listDeliveries(ctx, filter),
    countDeliveries: (filter) => deliveries.countDeliveries(ctx, filter),
    unfinishedDeliveries: (kind, query) => deliveryRetries.unfinishedDeliveries(ctx, kind, query),
    anyUnfinishedDeliveries: (teamId) => deliveryRetries.anyUnfinishedDeliveries(ctx, teamId),
    workspacesWithUnfinishedDeliveries: () => deliveryRetries.workspacesWithUnfinishedDeliveries(ctx),
    recentDeliveries: (query) => deliveryAdmin.recentDeliveries(ctx, query),
    reopenDelivery: (id, teamId) => deliveryAdmin.reopenDelivery(ctx, id, teamId),

    getHomeSetting: (scope, name) => homeSettings.getHomeSetting(ctx, scope, name),
    listHomeSettings: (scope) => homeSettings.listHomeSettings(ctx, scope),
    setHomeSetting: (scope, name, value, updatedBy) => homeSettings.setHomeSetting(ctx, scope, name, value, updatedBy),
    noteCompletion: (workspaceId, actionId, completion) => actionCompletions.noteCompletion(ctx, workspaceId, actionId, completion),
    dueRedactions: (workspaceId, completedBefore, limit) => actionCompletions.dueRedactions(ctx, workspaceId, completedBefore, limit),
    markRedacted: (workspaceId, completion) => actionCompletions.markRedacted(ctx, workspaceId, completion),
    noteDue: (workspaceId, actionId, seen) => dueHistory.noteDue(ctx, workspaceId, actionId, seen),
    dueHistories: (workspaceId, actionIds) => dueHistory.dueHistories(ctx, workspaceId, actionIds),
    firstDueBetween: (workspaceId, start, end, limit) => dueHistory.firstDueBetween(ctx, workspaceId, start, end, limit),
    addNote: (workspaceId, note) => actionNotes.addNote(ctx, workspaceId, note),
    listNotes: (workspaceId, actionIds) => actionNotes.listNotes(ctx, workspaceId, actionIds),
    dropNotes: (workspaceId, actionId, writtenBefore) => actionNotes.dropNotes(ctx, workspaceId, actionId, writtenBefore),
    addEpisodeAnswer: (workspaceId, answer) => episodeAnswers.addEpisodeAnswer(ctx, workspaceId, answer),
    listEpisodeAnswers: (workspaceId, actionId) => episodeAnswers.listEpisodeAnswers(ctx, workspaceId, actionId),
    episodeAnswersOf: (workspaceId, actionIds) => episodeAnswers.episodeAnswersOf(ctx, workspaceId, actionIds),
    undoEpisodeAnswer: (workspaceId, id, at) => episodeAnswers.undoEpisodeAnswer(ctx, workspaceId, id, at),
    dropAnswerNotes: (workspaceId, actionId) => episodeAnswers.dropAnswerNotes(ctx, workspaceId, actionId),
    setTwoStaff: (workspaceId, actionId, twoStaff, setBy) => episodeAnswers.setTwoStaff(ctx, workspaceId, actionId, twoStaff, setBy),
    twoStaffMark: (workspaceId, actionId) => episodeAnswers.twoStaffMark(ctx, workspaceId, actionId),
    twoStaffMarked: (workspaceId, actionIds) => episodeAnswers.twoStaffMarked(ctx, workspaceId, actionIds),

    getCursor: (name) => cursors.getCursor(ctx, name),
    setCursor: (name, value) => cursors.setCursor(ctx, name, value),
    listCursors: (prefix, teamId) => cursors.listCursors(ctx, prefix, teamId),
    deleteCursor: (name) => cursors.deleteCursor(ctx, name),
    acquireLease: (name, holder, ttlMs) => leases.acquireLease(ctx, name, holder, ttlMs),
    renewLease: (name, holder, ttlMs) => leases.renewLease(ctx, name, holder, ttlMs),
    releaseLease: (name, holder) => leases.releaseLease(ctx, name, holder),
    getLease: (name) => leases.getLease(ctx, name),
    leasesHeldElsewhere: (prefix, holder) => leases.leasesHeldElsewhere(ctx, prefix, holder),
    renewLeasesOf: (holder, ttlMs) => leases.renewLeasesOf(ctx, holder, ttlMs),
    notDue: (kind, now) => jobDue.notDue(ctx, kind, now),
    beginDueRun: (teamId, kind, token) => jobDue.beginDueRun(ctx, teamId, kind, token),
    endDueRun: (teamId, kind, token, dueAt) => jobDue.endDueRun(ctx, teamId, kind, token, dueAt),
    recordJobFailure: (teamId, failure) => jobState.recordJobFailure(ctx, teamId, failure),
    recordJobSuccess: (teamId, kind, at) => jobState.recordJobSuccess(ctx, teamId, kind, at),
    markJobTroubleTold: (teamId, teller, at) => jobState.markJobTroubleTold(ctx, teamId, teller, at),
    releaseJobTroubleTell: (teamId, teller) => jobState.releaseJobTroubleTell(ctx, teamId, teller),
    readJobState: (teamId) => jobState.readJobState(ctx, teamId),
    readJobStates: (teamIds) => jobState.readJobStates(ctx, teamIds),
    claimJobSlot: (teamId, kind, slot, at) => jobState.claimJobSlot(ctx, teamId, kind, slot, at),

    markRequestSeen: (key, at) => seenRequests.markRequestSeen(ctx, key, at),
    pruneSeenRequests: (now) => seenRequests.pruneSeenRequests(ctx, now),
    admitEvent: (eventId, at) => seenEvents.admitEvent(ctx, eventId, at),
    settleEvent: (eventId, claim, outcome) => seenEvents.settleEvent(ctx, eventId, claim, outcome),
    pruneSeenEvents: (now) => seenEvents.pruneSeenEvents(ctx, now),
    forgetRequestSeen: (key) => seenRequests.forgetRequestSeen(ctx, key),

    saveInstallation: (input, options) => installations.saveInstallation(ctx, input, options),
    getInstallation: (query) => installations.getInstallation(ctx, query),
    deleteInstallation: (query) => installations.deleteInstallation(ctx, query),
    rotateBotToken: (query, expected, next) => rotateBotToken(ctx, query, expected, next),
    setCareConnection: (input) => careConnections.setCareConnection(ctx, input),
    getCareConnection: (workspaceId) => careConnections.getCareConnection(ctx, workspaceId),
    deleteCareConnection: (workspaceId) => careConnections.deleteCareConnection(ctx, workspaceId),
    getWorkspaceSettings: (workspaceId) => workspaceSettings.getWorkspaceSettings(ctx, workspaceId),
    setWorkspaceSettings: (workspaceId, patch, updatedBy) => workspaceSettings.setWorkspaceSettings(ctx, workspaceId, patch, updatedBy),
    listWorkspaces: () => listWorkspaces(ctx),
    reencryptAll: (keyRing) => reencryptAll(ctx, keyRing),

    appendAudit: (input) => audit.appendAudit(ctx, input),
    listAudit: (query) => audit.listAudit(ctx, query),

    personRecords: (slackUserId, teamId) => personData.personRecords(ctx, slackUserId, teamId),
    erasePerson: (slackUserId, options) => personData.erasePerson(ctx, slackUserId, options),
    forgetWorkspace: (workspaceId) => forgetWorkspace(ctx, workspaceId),
    singleWorkspace: () => singleWorkspace.singleWorkspace(ctx),
    bindSingleWorkspace: (teamId) => singleWorkspace.bindSingleWorkspace(ctx, teamId),

    ping: async () => void (await db.get('SELECT 1 AS ok')),
    probeWrite: () => seenRequests.probeWrite(ctx),
    close: () => db.close(),
  };
}
