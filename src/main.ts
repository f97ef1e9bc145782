/**
 * `npm start`: read the configuration, build every dependency once, start the
 * Slack receiver and the scheduler; stop cleanly on SIGTERM/SIGINT.
 */
import { appVersion } from './app-version.js';
import { composeApp, type Deployment, TeamUnknownError } from './compose.js';
import { composeMultiApp } from './compose-multi.js';
import { type AppConfig, ConfigError, loadAppConfig } from './config.js';
import { parseKeyRing } from './crypto/key-ring.js';
import { createLogger } from './logging/logger.js';
import { isStoreError } from './store/index.js';

/** The deployment's secrets, so no log line carries them wherever they turn up (logging/redact.ts). */
function secretsOf(config: AppConfig): (string | undefined)[] {
  const all = config as Partial<Record<string, unknown>>;
  const names = ['SLACK_SIGNING_SECRET', 'SLACK_CLIENT_SECRET', 'SLACK_STATE_SECRET', 'SLACK_BOT_TOKEN', 'SLACK_APP_TOKEN', 'CARE_API_KEY', 'CARE_API_SECRET'];
  const keys = typeof all.ENCRYPTION_KEY === 'string' ? all.ENCRYPTION_KEY.split(',').map((k) => k.trim()) : [];
  return [...names.map((n) => (typeof all[n] === 'string' ? (all[n] as string) : undefined)), config.METRICS_TOKEN, ...keys];
}

async function main(): Promise<void> {
  let config: AppConfig;
  try {
    config = loadAppConfig(process.env);
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      console.error('See .env.example for every variable and what it means.');
      process.exit(2);
    }
    throw err;
  }
  const logger = createLogger({ level: config.LOG_LEVEL, base: { app: 'care-actions-slack' }, secrets: secretsOf(config) });
  let app: Deployment;
  const common = {
    store: { databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR },
    timezone: config.APP_TIMEZONE,
    careWebUrl: config.CARE_WEB_URL,
    retentionDays: config.RETENTION_DAYS,
    logger,
    jobs: { pollSeconds: config.COMPLETION_POLL_SECONDS, instanceId: config.INSTANCE_ID },
    metrics: { port: config.METRICS_PORT, token: config.METRICS_TOKEN, processMetrics: true },
  };
  try {
    app =
      config.mode === 'multi'
        ? await composeMultiApp({
            ...common,
            slack: {
              signingSecret: config.SLACK_SIGNING_SECRET,
              clientId: config.SLACK_CLIENT_ID,
              clientSecret: config.SLACK_CLIENT_SECRET,
              stateSecret: config.SLACK_STATE_SECRET,
              apiUrl: config.SLACK_API_URL,
              distribution: config.SLACK_MARKETPLACE_APPROVED ? 'marketplace' : 'distributed',
            },
            keyRing: parseKeyRing(config.ENCRYPTION_KEY),
            care: { rateLimitPerSecond: config.CARE_RATE_LIMIT },
            careApiHosts: config.CARE_API_HOSTS,
          })
        : await composeApp({
            ...common,
            slack: {
              botToken: config.SLACK_BOT_TOKEN,
              teamId: config.SLACK_TEAM_ID,
              signingSecret: config.SLACK_SIGNING_SECRET,
              appToken: config.SLACK_APP_TOKEN,
              apiUrl: config.SLACK_API_URL,
            },
            care: {
              baseUrl: config.CARE_API_BASE_URL,
              accountId: config.CARE_ACCOUNT_ID,
              apiKey: config.CARE_API_KEY,
              apiSecret: config.CARE_API_SECRET,
              rateLimitPerSecond: config.CARE_RATE_LIMIT,
            },
            adminSlackUserIds: config.ADMIN_SLACK_USER_IDS,
          });
  } catch (err) {
    if (isStoreError(err) || err instanceof TeamUnknownError) {
      console.error(`Cannot start: ${(err as Error).message}`);
      process.exit(3);
    }
    throw err;
  }
  const { port, metricsPort } = await app.start(config.PORT, '0.0.0.0', { withJobs: true });
  logger.info('care-actions-slack is running', {
    version: appVersion(),
    mode: config.SLACK_APP_TOKEN ? 'socket' : 'http',
    workspaces: config.mode,
    port,
    metrics: `:${metricsPort ?? port}/metrics${config.METRICS_TOKEN ? ' (bearer token)' : ''}`,
    store: app.store.kind,
    // The process zone changes no schedule (jobs tick on UTC epoch time; digests use each workspace's zone): said for whoever reads the log.
    processTimeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    appTimeZone: config.APP_TIMEZONE,
  });

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info('stopping', { signal });
    const force = setTimeout(() => process.exit(1), 15_000);
    force.unref();
    await app.stop();
    logger.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((err: unknown) => {
  console.error(`care-actions-slack failed to start: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
