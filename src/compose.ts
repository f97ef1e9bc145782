import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { WebClient } from '@slack/web-api';
import { appVersion } from './app-version.js';
import { type CareClient, createCareClient } from './care/index.js';
import { createHealth } from './health.js';
import { createJobs, type Scheduler } from './jobs/index.js';
import type { Logger } from './logging/logger.js';
import { createAppMetrics, type MetricsSettings } from './metrics/index.js';
import type { ActionView } from './services/action-model.js';
import { createActionsService } from './services/actions.js';
import { withCareWebLink } from './services/care-web-link.js';
import { createAssignmentNotices } from './services/assignment-notices.js';
import { createChannelPolicy } from './services/channel-policy.js';
import { createChangeNotices } from './services/change-notices.js';
import { createChannelSetup } from './services/channel-setup.js';
import { type CompletionNotices, createCompletionNotices } from './services/completion-notices.js';
import { createDeliverer } from './services/delivery.js';
import { createDigests, type Digests } from './services/digests.js';
import { createDirectoryService } from './services/directory.js';
import { createIdentityService } from './services/identity.js';
import { createMorningSummaries } from './services/morning-summaries.js';
import { createReadCaches, type ReadCaches, type ReadCacheSettings } from './services/read-cache/read-caches.js';
import type { MessageRenderers } from './services/renderers.js';
import { createSlackProfiles } from './services/slack-profiles.js';
import { createStatusService } from './services/status.js';
import { createWorkspaceNames } from './services/workspace-names.js';
import { createSummarySettings } from './services/summary-settings.js';
import { createTeamView } from './services/team-view.js';
import { createUrgentAlerts } from './services/urgent-alerts.js';
import { createSlackApp, type SlackApp } from './slack/app.js';
import type { SlackDeps } from './slack/deps.js';
import { createReplayGuard } from './slack/replay-guard.js';
import { createSignedMetadata, metadataKey } from './slack/signed-metadata.js';
import { assignmentNotice } from './slack/views/assignment-notice.js';
import { changeNotice } from './slack/views/change-notice.js';
import { renderDigest } from './slack/views/digest.js';
import { renderMorningSummary } from './slack/views/morning-summary.js';
import { completionNotice, urgentAlert } from './slack/views/notices.js';
import { createSlackWebClient } from './slack/web-clients.js';
import { openStore, type Store } from './store/index.js';

export interface AppSettings {
  slack: {
    botToken: string;
    signingSecret: string;
    appToken?: string | undefined;
    apiUrl?: string | undefined;
    /** How long a failed users.lookupByEmail is answered from memory (default 30 s). */
    lookupFailureTtlMs?: number;
  };
  care: { baseUrl: string; accountId: string; apiKey: string; apiSecret: string; rateLimitPerSecond?: number };
  /** CARE_WEB_URL: cards link to the action in the care system's web app ({id}, {no}); none when unset. */
  careWebUrl?: string | undefined;
  store: { databaseUrl?: string | undefined; dataDir: string };
  timezone: string;
  adminSlackUserIds: string[];
  logger: Logger;
  /** The app's clock (the demo and tests move it with the sandbox's). */
  now?: () => Date;
  jobs?: { pollSeconds?: number; overlapMs?: number; staleAfterMs?: number; leaseMs?: number; instanceId?: string | undefined };
  /** Shown on admins' Home tab (default: package.json's version). */
  version?: string;
  /** /metrics (on by default, on the app's port): METRICS_PORT, METRICS_TOKEN. */
  metrics?: MetricsSettings;
  /** Care data held in memory for speed (bounds, freshness of reference data); see services/read-cache/. */
  readCache?: ReadCacheSettings;
}

export interface ComposedApp {
  deps: SlackDeps;
  slackApp: SlackApp;
  store: Store;
  care: CareClient;
  slack: WebClient;
  jobs: Scheduler;
  notices: CompletionNotices;
  digests: Digests;
  /** Care data held in memory for speed (stats for tests and benches). */
  reads: ReadCaches;
  /** Start the HTTP (or Socket Mode) receiver; `withJobs` also starts the scheduler. `metricsPort`: METRICS_PORT's server. */
  start(port: number, host?: string, options?: { withJobs?: boolean }): Promise<{ port: number; metricsPort?: number | undefined }>;
  stop(): Promise<void>;
}

/** Build every dependency once, wire them, and hand back something to start and stop. */
export async function composeApp(settings: AppSettings): Promise<ComposedApp> {
  const { logger } = settings;
  const now = settings.now ?? (() => new Date());
  const store = await openStore({ databaseUrl: settings.store.databaseUrl, dataDir: settings.store.dataDir, logger, clock: () => now().getTime() });
  const metrics = createAppMetrics(settings.metrics ?? {}, { store });
  const care = createCareClient({ ...settings.care, logger: logger.child({ component: 'care-api' }), onAttempt: metrics.careAttempt });
  const token = settings.slack.botToken;
  const apiUrl = settings.slack.apiUrl;
  const fetch = metrics.slack.fetch; // every Web API call, counted
  const slack = createSlackWebClient(token, 'interactive', { apiUrl, logger, fetch });
  // Scheduled work posts through its own client: bounded retries (honouring Retry-After) and a timeout.
  const jobSlack = createSlackWebClient(token, 'jobs', { apiUrl, logger, fetch });
  const staleAfterMs = settings.jobs?.staleAfterMs ?? 2 * 60_000;
  // The deliverer's posts: no retries of the client's own; a timeout well inside a claim's staleness.
  const poster = createSlackWebClient(token, 'poster', { apiUrl, logger, fetch, posterTimeoutMs: Math.min(10_000, Math.max(1_000, staleAfterMs / 4)) });
  const holder = settings.jobs?.instanceId ?? `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;

  const profiles = createSlackProfiles({
    slack,
    defaultTz: settings.timezone,
    ...(settings.slack.lookupFailureTtlMs !== undefined ? { failureTtlMs: settings.slack.lookupFailureTtlMs } : {}),
  });
  // Care data held in memory for speed, kept fresh by the changes feed and our own writes (services/read-cache/).
  const pollSeconds = settings.jobs?.pollSeconds ?? 60;
  const reads = createReadCaches({
    care,
    now: () => now().getTime(),
    logger,
    pollSeconds,
    overlapMs: settings.jobs?.overlapMs ?? 5 * 60_000,
    settings: settings.readCache,
  });
  const identity = createIdentityService({ store, care, profiles, adminSlackUserIds: settings.adminSlackUserIds, logger, users: reads.users });
  const directory = createDirectoryService({ care, reference: reads.reference });
  const channels = createChannelPolicy({ slack, store });
  // The posts services make show the same "Open in care system" link as every other card.
  const linked = (view: ActionView) => withCareWebLink(settings.careWebUrl, view);
  const render: MessageRenderers = {
    completionNotice: (a, ctx, groups) => completionNotice(linked(a), ctx, groups),
    urgentAlert: (a, ctx) => urgentAlert(linked(a), ctx),
    assignmentNotice: (a, ctx, by) => assignmentNotice(linked(a), ctx, by),
    changeNotice: (a, ctx, change) => changeNotice(linked(a), ctx, change),
    digest: renderDigest,
    morningSummary: renderMorningSummary,
  };
  const deliverer = metrics.observeDeliverer(
    createDeliverer({ store, slack: jobSlack, poster, holder, logger: logger.child({ component: 'delivery' }), staleAfterMs }),
  );
  let teamId: Promise<string> | undefined;
  const team = () =>
    (teamId ??= jobSlack.auth.test().then(
      (r) => r.team_id ?? '',
      (err) => {
        teamId = undefined;
        throw err;
      },
    ));
  const notices = createCompletionNotices({
    care,
    store,
    slack: jobSlack,
    identity,
    profiles,
    channels,
    deliverer,
    render,
    teamId: team,
    timezone: settings.timezone,
    logger,
    now,
    staleAfterMs,
  });
  const urgent = createUrgentAlerts({
    store,
    care,
    identity,
    channels,
    deliverer,
    render,
    now,
    staleAfterMs,
    logger: logger.child({ component: 'urgent-alerts' }),
  });
  // The DMs to one person about one action (assignments, changes others made) share what they are built from.
  const dmNoticeDeps = { care, store, slack: jobSlack, identity, profiles, deliverer, render, now, staleAfterMs };
  const assignments = createAssignmentNotices({ ...dmNoticeDeps, teamId: team, logger: logger.child({ component: 'assignment-notices' }) });
  const changes = createChangeNotices({ ...dmNoticeDeps, logger: logger.child({ component: 'change-notices' }) });
  const digests = metrics.observeDigests(createDigests({ care, store, identity, channels, deliverer, render, logger }));
  const summaries = createMorningSummaries({
    care,
    store,
    identity,
    // Time zones read again every 10 minutes of the app's clock: someone who travels gets it at their new local time.
    profiles: createSlackProfiles({ slack: jobSlack, defaultTz: settings.timezone, now: () => now().getTime() }),
    slack: jobSlack,
    deliverer,
    render,
    logger: logger.child({ component: 'summaries' }),
  });
  const actions = createActionsService({
    care: reads.care,
    reads: reads.actions,
    store,
    identity,
    logger,
    careWebUrl: settings.careWebUrl,
    // The fast path: a completion made through Slack is announced at once, through the same ledger.
    // Not awaited, so the person's click is answered first; the ledger and the poller make it exactly once.
    announceCompletion: (action) =>
      void notices
        .deliver(action, { madeInSlack: true })
        .catch((err) => logger.warn('completion notice will be retried by the poller', { actionId: action._id, error: err })),
    // The same for an assignment made through Slack: the new assignee is told at once; the poller finds it sent.
    announceAssignment: (action, change) =>
      void assignments
        .consider(action, change)
        .catch((err) => logger.warn('assignment DM will be retried by the poller', { actionId: action._id, error: err })),
    // Someone else completed, reopened or took an action: its assignee is told at once, exactly once (the ledger).
    announceChange: (action, change) =>
      void changes.tell(action, change).catch((err) => logger.warn('a change DM could not be sent now', { actionId: action._id, error: err })),
  });
  // Admins' Home tab: the team view, and the status with Retry, which runs a kind's unfinished rows now.
  const teamView = createTeamView({ care, store, identity, timezone: settings.timezone, now, reads: reads.actions });
  const status = createStatusService({
    store,
    care,
    identity,
    profiles,
    version: settings.version ?? appVersion(),
    pollSeconds: settings.jobs?.pollSeconds ?? 60,
    now,
    redeliver: {
      completion: () => notices.retryUnfinished(),
      assignment: () => assignments.retryUnfinished(),
      change: () => changes.retryUnfinished(),
      urgent: async () => urgent.retryUnfinished((await store.listSubscriptions()).filter((s) => s.urgentAlerts)),
      digest: () => digests.runDue(now()),
      'digest-part': () => digests.runDue(now()),
      summary: () => summaries.runDue(now()),
    },
  });
  const names = createWorkspaceNames({ slack, now: () => now().getTime() });
  const channelSetup = createChannelSetup({ store, identity, channels, directory, digests, names, timezone: settings.timezone, now });
  const deps: SlackDeps = {
    actions,
    identity,
    directory,
    profiles,
    channels,
    channelSetup,
    names,
    summaries: createSummarySettings({ store, identity, profiles, now }),
    slack,
    logger,
    now,
    timezone: settings.timezone,
    homeQueues: new Map(),
    careVersion: () => reads.actions.version(),
    signedMetadata: createSignedMetadata({ key: metadataKey(settings.slack.signingSecret), now }),
    teamView,
    status,
  };
  const jobs = createJobs({
    care,
    store,
    notices,
    urgent,
    assignments,
    changes,
    digests,
    summaries,
    holder,
    logger,
    now,
    pollSeconds,
    ...(settings.jobs?.overlapMs ? { overlapMs: settings.jobs.overlapMs } : {}),
    cacheSync: reads.sync,
    ...(settings.jobs?.leaseMs ? { leaseMs: settings.jobs.leaseMs } : {}),
    observer: metrics.jobs,
  });

  const health = createHealth({ store, care });
  const slackApp = createSlackApp(
    {
      botToken: settings.slack.botToken,
      signingSecret: settings.slack.signingSecret,
      appToken: settings.slack.appToken,
      slackApiUrl: settings.slack.apiUrl,
      health,
      // Remembered in the store, so a replay is refused whichever instance it reaches. The guard keeps
      // the wall clock (Slack signs with it), not the app's clock, which tests and the demo move.
      replayGuard: createReplayGuard({ store }),
      metrics: metrics.slack,
    },
    deps,
  );

  let stopped = false;
  return {
    deps,
    slackApp,
    store,
    care,
    slack,
    jobs,
    notices,
    digests,
    reads,
    async start(port, host, options) {
      const started = await slackApp.start(port, host);
      const metricsPort = await metrics.listen(host ?? '127.0.0.1');
      if (options?.withJobs) jobs.start();
      return { ...started, metricsPort };
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      await slackApp.stop().catch((err) => logger.warn('stopping the Slack receiver failed', { error: err }));
      await metrics.close();
      await jobs.stop();
      await care.close();
      await store.close();
    },
  };
}
