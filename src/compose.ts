import { WebClient } from '@slack/web-api';
import { createCareClient, type CareClient } from './care/index.js';
import type { Logger } from './logging/logger.js';
import { createActionsService } from './services/actions.js';
import { createChannelPolicy } from './services/channel-policy.js';
import { createDirectoryService } from './services/directory.js';
import { createIdentityService } from './services/identity.js';
import { createSlackProfiles } from './services/slack-profiles.js';
import { createSlackApp, type SlackApp } from './slack/app.js';
import { boltLogger } from './slack/bolt-logger.js';
import { createJobs, type Scheduler } from './jobs/index.js';
import { createCompletionNotices, type CompletionNotices } from './services/completion-notices.js';
import { createDeliverer } from './services/delivery.js';
import { createDigests, type Digests } from './services/digests.js';
import { createUrgentAlerts } from './services/urgent-alerts.js';
import { createAdminCommands } from './slack/listeners/commands/admin-commands.js';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { SlackDeps } from './slack/deps.js';
import { openStore, type Store } from './store/index.js';

export interface AppSettings {
  slack: { botToken: string; signingSecret: string; appToken?: string | undefined; apiUrl?: string | undefined };
  care: { baseUrl: string; accountId: string; apiKey: string; apiSecret: string; rateLimitPerSecond?: number };
  store: { databaseUrl?: string | undefined; dataDir: string };
  timezone: string;
  adminSlackUserIds: string[];
  logger: Logger;
  /** The app's clock (the demo and tests move it with the sandbox's). */
  now?: () => Date;
  jobs?: { pollSeconds?: number; overlapMs?: number; staleAfterMs?: number; leaseMs?: number; instanceId?: string | undefined };
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
  /** Start the HTTP (or Socket Mode) receiver; `withJobs` also starts the scheduler. */
  start(port: number, host?: string, options?: { withJobs?: boolean }): Promise<{ port: number }>;
  stop(): Promise<void>;
}

/** Build every dependency once, wire them, and hand back something to start and stop. */
export async function composeApp(settings: AppSettings): Promise<ComposedApp> {
  const { logger } = settings;
  const now = settings.now ?? (() => new Date());
  const store = await openStore({ databaseUrl: settings.store.databaseUrl, dataDir: settings.store.dataDir, logger, clock: () => now().getTime() });
  const care = createCareClient({ ...settings.care, logger: logger.child({ component: 'care-api' }) });
  // The WebClients log through our logger (JSON, levelled), not to the console; never their debug
  // lines, which hold whole request bodies (message text, email addresses).
  const webApiLogger = { ...boltLogger(logger.child({ component: 'slack-web-api' })), debug: () => undefined };
  const slack = new WebClient(settings.slack.botToken, {
    ...(settings.slack.apiUrl ? { slackApiUrl: settings.slack.apiUrl } : {}),
    logger: webApiLogger,
    retryConfig: { retries: 2, factor: 2, minTimeout: 200, maxTimeout: 2000 },
    timeout: 10_000,
    rejectRateLimitedCalls: false,
  });
  const profiles = createSlackProfiles({ slack, defaultTz: settings.timezone });
  const identity = createIdentityService({ store, care, profiles, adminSlackUserIds: settings.adminSlackUserIds, logger });
  const directory = createDirectoryService({ care });
  const channels = createChannelPolicy({ slack, store });
  const actions = createActionsService({ care, store, identity, logger });
  const deps: SlackDeps = {
    actions,
    identity,
    directory,
    profiles,
    channels,
    store,
    slack,
    logger,
    now,
    timezone: settings.timezone,
    adminCommands: [],
    homeQueues: new Map(),
  };

  // Scheduled work posts through its own WebClient: bounded retries (honouring Retry-After) and a timeout.
  const jobSlack = new WebClient(settings.slack.botToken, {
    ...(settings.slack.apiUrl ? { slackApiUrl: settings.slack.apiUrl } : {}),
    logger: webApiLogger,
    retryConfig: { retries: 5, factor: 2, minTimeout: 500, maxTimeout: 5000 },
    timeout: 10_000,
    rejectRateLimitedCalls: false,
  });
  const holder = settings.jobs?.instanceId ?? `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
  const staleAfterMs = settings.jobs?.staleAfterMs ?? 2 * 60_000;
  // Deliveries post through a client that never retries by itself: the deliverer retries within its
  // claim's time (honouring Retry-After) and checks the channel's history after an unclear failure,
  // so a slow retry can never overlap another instance taking the claim over.
  const poster = new WebClient(settings.slack.botToken, {
    ...(settings.slack.apiUrl ? { slackApiUrl: settings.slack.apiUrl } : {}),
    logger: webApiLogger,
    retryConfig: { retries: 0 },
    rejectRateLimitedCalls: true,
    timeout: Math.min(10_000, Math.max(1_000, staleAfterMs / 4)),
  });
  const deliverer = createDeliverer({ store, slack: jobSlack, poster, holder, logger: logger.child({ component: 'delivery' }), staleAfterMs });
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
    teamId: team,
    timezone: settings.timezone,
    logger,
    now,
    staleAfterMs,
  });
  const urgent = createUrgentAlerts({ store, care, identity, channels, deliverer, now, staleAfterMs, logger: logger.child({ component: 'urgent-alerts' }) });
  const digests = createDigests({ care, store, identity, channels, deliverer, logger });
  // The fast path: a completion made through Slack is announced at once, through the same ledger.
  // Not awaited, so the person's click is answered first; the ledger and the poller make it exactly once.
  actions.onCompleted(async (action) => {
    void notices.deliver(action).catch((err) => logger.warn('completion notice will be retried by the poller', { actionId: action._id, error: err }));
  });
  deps.adminCommands!.push(createAdminCommands(deps, digests));
  const jobs = createJobs({
    care,
    store,
    notices,
    urgent,
    digests,
    holder,
    logger,
    now,
    pollSeconds: settings.jobs?.pollSeconds ?? 60,
    ...(settings.jobs?.overlapMs ? { overlapMs: settings.jobs.overlapMs } : {}),
    ...(settings.jobs?.leaseMs ? { leaseMs: settings.jobs.leaseMs } : {}),
  });

  // Health answers within ~2 s whatever happens (probes time out; the client's retries would not).
  const within = <T>(p: Promise<T>, fallback: T) => Promise.race([p, new Promise<T>((r) => setTimeout(() => r(fallback), 2000).unref())]);
  const health = async () => {
    const [db, api] = await Promise.all([
      within(
        store.ping().then(
          () => ({ ok: true }),
          () => ({ ok: false, detail: 'the database does not answer' }),
        ),
        { ok: false, detail: 'the database did not answer within 2 s' },
      ),
      within(
        care.actions.list({ per_page: 1 }).then(
          () => ({ ok: true }),
          (err: Error) => ({ ok: false, detail: err.name }),
        ),
        { ok: false, detail: 'the care API did not answer within 2 s' },
      ),
    ]);
    return { store: db, careApi: api };
  };
  const slackApp = createSlackApp(
    {
      botToken: settings.slack.botToken,
      signingSecret: settings.slack.signingSecret,
      appToken: settings.slack.appToken,
      slackApiUrl: settings.slack.apiUrl,
      health,
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
    async start(port, host, options) {
      const started = await slackApp.start(port, host);
      if (options?.withJobs) jobs.start();
      return started;
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      await slackApp.stop().catch((err) => logger.warn('stopping the Slack receiver failed', { error: err }));
      await jobs.stop();
      await care.close();
      await store.close();
    },
  };
}
