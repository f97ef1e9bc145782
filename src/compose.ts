import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { WebClient } from '@slack/web-api';
import { appVersion } from './app-version.js';
import type { CareClient } from './care/index.js';
import type { KeyRing } from './crypto/key-ring.js';
import type { WorkspaceScheduler } from './jobs/workspace-scheduler.js';
import type { Logger } from './logging/logger.js';
import { type AppMetrics, createAppMetrics, type MetricsSettings } from './metrics/index.js';
import type { CompletionNotices } from './services/notices/completion-notices.js';
import type { Digests } from './services/shift-work/digests.js';
import type { RetentionDays } from './services/evidence/retention.js';
import type { ReadCaches, ReadCacheSettings } from './services/read-cache/read-caches.js';
import { createSlackApp, type SlackApp } from './slack/app.js';
import type { SlackDeps } from './slack/deps.js';
import { createReplayGuard } from './slack/receivers/replay-guard.js';
import type { SlackDistribution } from './slack/web-api/rate-plan.js';
import { createSlackPacer, pacerClockOf } from './slack/web-api/slack-pacer.js';
import { createSignedMetadata, metadataKey } from './slack/sealed/signed-metadata.js';
import { openStore, type Store } from './store/index.js';
import { composeWorkspace, type WorkspaceShared } from './workspaces/compose-workspace.js';
import { deploymentJobs } from './workspaces/deployment-jobs.js';
import { forgetUninstalled } from './deployment/uninstall.js';
import { singleWorkspaceRegistry, type WorkspaceRegistry } from './workspaces/registry.js';
import { soleWorkspaceStore } from './workspaces/scoped-store.js';

export interface AppSettings {
  slack: {
    botToken: string;
    signingSecret: string;
    appToken?: string | undefined;
    apiUrl?: string | undefined;
    /** How long a failed users.lookupByEmail is answered from memory (default 30 s). */
    lookupFailureTtlMs?: number;
    /** What Slack allows this app (its history reads above all): an internal app unless said otherwise. */
    distribution?: SlackDistribution | undefined;
    /** False only in tests against a Slack without limits: the app does not pace itself (Retry-After is still waited out). */
    paced?: boolean | undefined;
  };
  care: { baseUrl: string; accountId: string; apiKey: string; apiSecret: string; rateLimitPerSecond?: number };
  /** CARE_WEB_URL: cards link to the action in the care system's web app ({id}, {no}); none when unset. */
  careWebUrl?: string | undefined;
  /** RETENTION_DAYS: days after completion the app's own messages about an action are edited down (0 at once, 'off' never; default 30). */
  retentionDays?: RetentionDays | undefined;
  /**
   * `sharedClock`: for tests only, the clock claims and leases are judged by instead of the database's
   * (the e2e harness moves one clock for the app, the care system, Slack and the ledger).
   */
  store: { databaseUrl?: string | undefined; dataDir: string; sharedClock?: (() => number) | undefined };
  timezone: string;
  adminSlackUserIds: string[];
  logger: Logger;
  /** The app's clock (the demo and tests move it with the sandbox's). */
  now?: () => Date;
  jobs?: {
    pollSeconds?: number;
    overlapMs?: number;
    staleAfterMs?: number;
    leaseMs?: number;
    instanceId?: string | undefined;
    /** How long a workspace's failing job waits before it is tried again: doubling from baseMs (default 1 min) to maxMs (30 min). */
    backoff?: { baseMs?: number; maxMs?: number } | undefined;
  };
  /** Shown on admins' Home tab (default: package.json's version). */
  version?: string;
  /** /metrics (on by default, on the app's port): METRICS_PORT, METRICS_TOKEN. */
  metrics?: MetricsSettings;
  /** Care data held in memory for speed (bounds, freshness of reference data); see services/read-cache/. */
  readCache?: ReadCacheSettings;
}

/** A deployment as main.ts starts and stops it, of one workspace or many: its workspaces, its receiver and its jobs. */
export interface Deployment {
  store: Store;
  /** Its workspaces: one from the environment, or those installed through OAuth. */
  registry: WorkspaceRegistry;
  slackApp: SlackApp;
  /** Every workspace's jobs, under one scheduler (`jobs.runOnce(kind)` runs a kind for the one workspace of a single deployment). */
  jobs: WorkspaceScheduler;
  /** Start the HTTP (or Socket Mode) receiver; `withJobs` also starts the scheduler. `metricsPort`: METRICS_PORT's server. */
  start(port: number, host?: string, options?: { withJobs?: boolean }): Promise<{ port: number; metricsPort?: number | undefined }>;
  stop(): Promise<void>;
}

/** A single-workspace deployment, with its one workspace's parts at hand (tests, benches, the demo). */
export interface ComposedApp extends Deployment {
  deps: SlackDeps;
  care: CareClient;
  slack: WebClient;
  notices: CompletionNotices;
  digests: Digests;
  /** Care data held in memory for speed (stats for tests and benches). */
  reads: ReadCaches;
}

/** What single- and multi-workspace start-ups build alike: the store, metrics, this instance's name, the shared settings. */
export async function composeShared(
  settings: Omit<AppSettings, 'slack' | 'care' | 'careWebUrl' | 'retentionDays' | 'timezone' | 'adminSlackUserIds'> & {
    slack: Pick<AppSettings['slack'], 'signingSecret' | 'apiUrl' | 'lookupFailureTtlMs' | 'distribution' | 'paced'>;
    keyRing?: KeyRing | undefined;
  },
): Promise<{ store: Store; metrics: AppMetrics; shared: Omit<WorkspaceShared, 'store'> }> {
  const { logger } = settings;
  const now = settings.now ?? (() => new Date());
  const store = await openStore({
    databaseUrl: settings.store.databaseUrl,
    dataDir: settings.store.dataDir,
    logger,
    clock: () => now().getTime(),
    ...(settings.store.sharedClock ? { sharedClock: settings.store.sharedClock } : {}),
    ...(settings.keyRing ? { keyRing: settings.keyRing } : {}),
  });
  const metrics = createAppMetrics(settings.metrics ?? {}, { store });
  const shared: Omit<WorkspaceShared, 'store'> = {
    metrics,
    logger,
    now,
    holder: settings.jobs?.instanceId ?? `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`,
    staleAfterMs: settings.jobs?.staleAfterMs ?? 2 * 60_000,
    pollSeconds: settings.jobs?.pollSeconds ?? 60,
    overlapMs: settings.jobs?.overlapMs ?? 5 * 60_000,
    slackApiUrl: settings.slack.apiUrl,
    signedMetadata: createSignedMetadata({ key: metadataKey(settings.slack.signingSecret), now }),
    version: settings.version ?? appVersion(),
    readCache: settings.readCache,
    lookupFailureTtlMs: settings.slack.lookupFailureTtlMs,
    // One pacer for every Slack client of this process (Bolt's, the jobs', the deliverer's), all workspaces.
    slackPacer: createSlackPacer({
      distribution: settings.slack.distribution ?? 'internal',
      paced: settings.slack.paced,
      clock: pacerClockOf(now),
      observer: metrics.slack.pacer,
    }),
  };
  return { store, metrics, shared };
}

/** Build every dependency once, wire them, and hand back something to start and stop (one workspace, from the environment). */
export async function composeApp(settings: AppSettings): Promise<ComposedApp> {
  const { logger } = settings;
  const { store, metrics, shared } = await composeShared(settings);
  // The one workspace's rows keyed by team (links, audit) are kept under its team, learned from Slack when first needed.
  const team = () => workspace.teamId();
  const workspace = composeWorkspace(
    { ...shared, store: soleWorkspaceStore(store, team) },
    {
      botToken: settings.slack.botToken,
      care: settings.care,
      timezone: settings.timezone,
      careWebUrl: settings.careWebUrl,
      retentionDays: settings.retentionDays,
      admins: { configured: settings.adminSlackUserIds },
    },
  );
  const { deps, care, slack, notices, digests, reads, health } = workspace;
  const registry = singleWorkspaceRegistry(workspace);
  // The one workspace's jobs run as many workspaces' do: backed off when they fail, its admins told once.
  const jobs = deploymentJobs({
    store,
    registry,
    holder: shared.holder,
    logger,
    now: shared.now,
    pollSeconds: shared.pollSeconds,
    leaseMs: settings.jobs?.leaseMs,
    leaseClock: settings.store.sharedClock,
    backoff: settings.jobs?.backoff,
    observer: metrics.jobs,
  });

  const slackApp = createSlackApp(
    {
      botToken: settings.slack.botToken,
      signingSecret: settings.slack.signingSecret,
      appToken: settings.slack.appToken,
      slackApiUrl: settings.slack.apiUrl,
      health,
      // Remembered in the store, so a replay is refused whichever instance it reaches. The guard keeps
      // the wall clock (Slack signs with it), not the app's clock, which tests and the demo move.
      replayGuard: createReplayGuard({ store, onFailOpen: metrics.replayGuardFailOpen, logger }),
      metrics: metrics.slack,
      pacer: shared.slackPacer,
      // Uninstalled from its workspace: its jobs stop and every row of the database goes but the anonymous audit.
      onUninstalled: async (workspaceId, why) => {
        await jobs.stop();
        const { deleted } = await forgetUninstalled(store, { id: workspaceId, all: true }, why);
        logger.warn(
          'the app was uninstalled from its workspace: its data is deleted and its jobs stopped; stop this deployment, or install the app again and restart it',
          {
            why,
            deleted,
          },
        );
      },
    },
    deps,
  );

  return {
    deps,
    slackApp,
    store,
    care,
    slack,
    registry,
    jobs,
    notices,
    digests,
    reads,
    ...lifecycle({ slackApp, metrics, jobs, logger, close: [() => registry.close(), () => store.close()] }),
  };
}

/** Start (receiver, /metrics, optionally the jobs) and stop (in reverse, then `close` in order, once) an app of either mode. */
export function lifecycle(parts: {
  slackApp: SlackApp;
  metrics: AppMetrics;
  jobs: { start(): void; stop(): Promise<void> };
  logger: Logger;
  close: (() => Promise<void>)[];
}): Pick<Deployment, 'start' | 'stop'> {
  const { slackApp, metrics, jobs, logger } = parts;
  let stopped = false;
  return {
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
      for (const close of parts.close) await close();
    },
  };
}
