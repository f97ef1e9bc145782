import { WebClient } from '@slack/web-api';
import { createCareClient, type CareClient } from './care/index.js';
import type { Logger } from './logging/logger.js';
import { createActionsService } from './services/actions.js';
import { createChannelPolicy } from './services/channel-policy.js';
import { createDirectoryService } from './services/directory.js';
import { createIdentityService } from './services/identity.js';
import { createSlackProfiles } from './services/slack-profiles.js';
import { createSlackApp, type SlackApp } from './slack/app.js';
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
}

export interface ComposedApp {
  deps: SlackDeps;
  slackApp: SlackApp;
  store: Store;
  care: CareClient;
  slack: WebClient;
  start(port: number, host?: string): Promise<{ port: number }>;
  stop(): Promise<void>;
}

/** Build every dependency once, wire them, and hand back something to start and stop. */
export async function composeApp(settings: AppSettings): Promise<ComposedApp> {
  const { logger } = settings;
  const now = settings.now ?? (() => new Date());
  const store = await openStore({ databaseUrl: settings.store.databaseUrl, dataDir: settings.store.dataDir, logger, clock: () => now().getTime() });
  const care = createCareClient({ ...settings.care, logger: logger.child({ component: 'care-api' }) });
  const slack = new WebClient(settings.slack.botToken, {
    ...(settings.slack.apiUrl ? { slackApiUrl: settings.slack.apiUrl } : {}),
    retryConfig: { retries: 2, factor: 2, minTimeout: 200, maxTimeout: 2000 },
    timeout: 10_000,
    rejectRateLimitedCalls: false,
  });
  const profiles = createSlackProfiles({ slack, defaultTz: settings.timezone });
  const identity = createIdentityService({ store, care, profiles, adminSlackUserIds: settings.adminSlackUserIds, logger });
  const directory = createDirectoryService({ care });
  const channels = createChannelPolicy({ slack, store });
  const actions = createActionsService({ care, store, identity, logger });
  const deps: SlackDeps = { actions, identity, directory, profiles, channels, store, slack, logger, now, timezone: settings.timezone, adminCommands: [] };

  const health = async () => {
    const [db, api] = await Promise.all([
      store.ping().then(() => ({ ok: true }), () => ({ ok: false, detail: 'the database does not answer' })),
      care.actions.list({ per_page: 1 }).then(() => ({ ok: true }), (err: Error) => ({ ok: false, detail: err.name })),
    ]);
    return { store: db, careApi: api };
  };
  const slackApp = createSlackApp({ botToken: settings.slack.botToken, signingSecret: settings.slack.signingSecret, appToken: settings.slack.appToken, slackApiUrl: settings.slack.apiUrl, health }, deps);

  let stopped = false;
  return {
    deps,
    slackApp,
    store,
    care,
    slack,
    start: (port, host) => slackApp.start(port, host),
    async stop() {
      if (stopped) return;
      stopped = true;
      await slackApp.stop().catch((err) => logger.warn('stopping the Slack receiver failed', { error: err }));
      await care.close();
      await store.close();
    },
  };
}
