/**
 * A deployment serving many workspaces ("Add to Slack"): each installs the
 * app through OAuth and connects its own care account; every request and
 * every job runs with that workspace's own Slack token, care client and view
 * of the store (workspaces/). Several instances share one PostgreSQL: jobs
 * run per workspace under their own leases, so instances share the work.
 *
 * It wires: the set-up services (compose-multi-setup.ts), the registry composing each workspace with them
 * bound to it, the Bolt app with OAuth and the tenancy middleware (compose-multi-slack.ts), and the jobs.
 */
import { composeShared, type Deployment, lifecycle } from './compose.js';
import type { MultiAppSettings } from './compose-multi-settings.js';
import { composeMultiSetup } from './compose-multi-setup.js';
import { multiSlackApp } from './compose-multi-slack.js';
import { adminNoticesOf } from './deployment/admin-notices.js';
import { installationOf } from './deployment/installation-of.js';
import { createTokenRotation } from './deployment/token-rotation.js';
import { createCarePools } from './care/shared-pools.js';
import { careHostPolicy } from './services/admin/care-hosts.js';
import { oauthRefresh } from './slack/token-rotation/refresh-call.js';
import { createSlackWebClient } from './slack/web-api/web-clients.js';
import { scopedWorkspaceStore } from './store/index.js';
import { composeWorkspace } from './workspaces/compose-workspace.js';
import { deploymentJobs } from './workspaces/deployment-jobs.js';
import { multiWorkspaceRegistry } from './workspaces/registry.js';

export type { MultiAppSettings } from './compose-multi-settings.js';

export async function composeMultiApp(settings: MultiAppSettings): Promise<Deployment> {
  const { logger } = settings;
  const { store, metrics, shared } = await composeShared({
    ...settings,
    // Installed in many workspaces: a distributed app, under Slack's 2025 history limits unless Marketplace-approved.
    slack: { ...settings.slack, distribution: settings.slack.distribution ?? 'distributed' },
    keyRing: settings.keyRing,
    // Per workspace: a smaller bound than one workspace's deployment gets, and no following of the changes feed
    // for a workspace nobody read on this instance for 10 minutes (its poll goes on wherever it runs).
    readCache: { maxBytes: 8 * 1024 * 1024, dormantAfterMs: 10 * 60_000, ...settings.readCache },
  });
  // Which care API hosts admins may connect to; every care client of a connected workspace connects only there too.
  const careHosts = careHostPolicy(settings.careApiHosts);
  // One set of connections to the care API for every workspace here: a workspace polled every few seconds
  // reuses a warm connection instead of opening one a poll (care/shared-pools.ts).
  const carePools = createCarePools();
  const clientSettings = { apiUrl: settings.slack.apiUrl, logger, fetch: metrics.slack.fetch, pacer: shared.slackPacer };
  // Token rotation: each workspace's bot token refreshed before it expires, once across instances (deployment/token-rotation.ts).
  // The refresh is never repeated blindly (a poster's client: no retries of its own), as Slack spends a refresh token once used.
  const rotation = createTokenRotation({
    store,
    installation: (workspaceId) => installationOf(store, workspaceId),
    refresh: oauthRefresh(createSlackWebClient('', 'poster', clientSettings), settings.slack),
    holder: shared.holder,
    now: () => shared.now().getTime(),
    logger: logger.child({ component: 'token-rotation' }),
    // Slack counts its limits per workspace: a refreshed token keeps its workspace's pace and any Retry-After.
    onToken: (workspaceId, token, letGo) => shared.slackPacer.sameWorkspace(token, workspaceId, letGo),
  });
  /** A client of a workspace outside its composition (set-up, admin checks): its calls take the workspace's current token too. */
  const slackFor = (workspaceId: string, token: string) =>
    createSlackWebClient(token, 'interactive', { ...clientSettings, botTokens: rotation.forWorkspace(workspaceId) });
  const setup = composeMultiSetup({ settings, store, shared, rotation, careHosts, slackFor, refresh: (workspaceId) => registry.refresh(workspaceId) });

  const registry = multiWorkspaceRegistry({
    store,
    logger,
    // The app's clock: a workspace unused here for idleMs (default 10 minutes) is let go (registry.ts).
    now: () => shared.now().getTime(),
    ...(settings.recheckMs !== undefined ? { recheckMs: settings.recheckMs } : {}),
    ...(settings.workspaceIdleMs !== undefined ? { idleMs: settings.workspaceIdleMs } : {}),
    defaults: {
      timezone: settings.timezone,
      careWebUrl: settings.careWebUrl,
      retentionDays: settings.retentionDays,
      rateLimitPerSecond: settings.care?.rateLimitPerSecond,
      careConnections: settings.care?.connections ?? 2,
    },
    // Everything a workspace is given is bound to it here, once: nothing it holds takes a workspace id
    // (test/e2e/multi-workspace-deps-isolation.test.ts walks its deps, services and jobs).
    compose: (workspaceId, spec, installation) => {
      rotation.observe(workspaceId, installation);
      return composeWorkspace(
        {
          ...shared,
          // Its view of the store: every query inside its team (store/workspace-store.ts).
          store: scopedWorkspaceStore(store, workspaceId),
          logger: logger.child({ team: workspaceId }),
          // Admins see this workspace's care connection (Reconnect, Disconnect) at the end of their Home tab.
          adminHomeExtra: () => setup.connectionCard(workspaceId, true, spec.timezone),
          // `/care admins|settings` as the tenancy middleware answers them before the workspace was connected.
          workspaceSetup: setup.selfServiceOf(workspaceId),
          adminNotices: adminNoticesOf(setup.adminNotices, workspaceId),
        },
        {
          ...spec,
          botTokens: rotation.forWorkspace(workspaceId),
          care: { ...spec.care, allowAddress: careHosts.addressRuleFor(spec.care.baseUrl), pools: carePools },
        },
      );
    },
  });
  const slackApp = multiSlackApp({ settings, store, metrics, shared, rotation, registry, setup, careHosts, clientSettings, slackFor });

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
    concurrency: settings.jobConcurrency,
    observer: metrics.jobs,
  });

  return {
    store,
    registry,
    slackApp,
    jobs,
    ...lifecycle({ slackApp, metrics, jobs, logger, close: [() => registry.close(), () => carePools.close(), () => store.close()] }),
  };
}
