/**
 * A deployment serving many workspaces ("Add to Slack"): each installs the
 * app through OAuth and connects its own care account; every request and
 * every job runs with that workspace's own Slack token, care client and view
 * of the store (workspaces/). Several instances share one PostgreSQL: jobs
 * run per workspace under their own leases, so instances share the work.
 */
import type { KeyRing } from './crypto/key-ring.js';
import { storeHealth } from './health.js';
import { type AppSettings, composeShared, type Deployment, lifecycle } from './compose.js';
import { createCareClient } from './care/index.js';
import { type CareHost, careHostPolicy } from './services/care-hosts.js';
import { createDmChannels } from './services/dm-channels.js';
import { adminNoticesOf, createAdminNotices } from './deployment/admin-notices.js';
import { createInstalls } from './deployment/installs.js';
import { createWorkspaceSetup, workspaceSetupOf } from './deployment/workspace-setup.js';
import { createSlackApp } from './slack/app.js';
import { installationStore } from './slack/installation-store.js';
import { rememberingInstallations } from './slack/remembered-installations.js';
import { oauthSettings } from './slack/oauth-settings.js';
import { oneTimeStateStore } from './slack/oauth-state-store.js';
import { createReplayGuard } from './slack/replay-guard.js';
import { registerTenancy } from './slack/tenancy/tenancy.js';
import { createSlackWebClient } from './slack/web-clients.js';
import { oauthRefresh } from './slack/token-rotation/refresh-call.js';
import { createTokenRotation } from './deployment/token-rotation.js';
import { isConnectCareInteraction, registerConnectCare } from './slack/listeners/workspace/connect-care.js';
import { connectCareHomeBlocks } from './slack/views/connect-care.js';
import { publishHome } from './slack/home-publisher.js';
import type { SlackDistribution } from './slack/rate-plan.js';
import type { SlackInstallation } from './store/index.js';
import { composeWorkspace } from './workspaces/compose-workspace.js';
import { deploymentJobs } from './workspaces/deployment-jobs.js';
import { installationOf } from './deployment/installation-of.js';
import { multiWorkspaceRegistry } from './workspaces/registry.js';
import { storeForWorkspace } from './workspaces/scoped-store.js';
import { workspaceSlack } from './workspaces/workspace-slack.js';
import { adminReason } from './deployment/workspace-admins.js';
import { DEFAULT_RETENTION_DAYS } from './services/retention.js';
import type { SelfServiceSetup } from './slack/listeners/commands/workspace-answers.js';

export interface MultiAppSettings extends Omit<AppSettings, 'slack' | 'care' | 'adminSlackUserIds'> {
  slack: {
    signingSecret: string;
    clientId: string;
    clientSecret: string;
    stateSecret: string;
    /** Another Slack (the local fake): its Web API, OAuth exchange and authorize page. */
    apiUrl?: string | undefined;
    lookupFailureTtlMs?: number;
    /** Default `distributed` (SLACK_MARKETPLACE_APPROVED=true: `marketplace`). */
    distribution?: SlackDistribution | undefined;
  };
  /** Tokens and care secrets are kept encrypted with it (ENCRYPTION_KEY). */
  keyRing: KeyRing;
  /** Every workspace's care client: requests per second (CARE_RATE_LIMIT) and pooled connections. */
  care?: { rateLimitPerSecond?: number | undefined; connections?: number | undefined };
  /** A workspace's runs of one job kind at once on this instance (default 8). */
  jobConcurrency?: number;
  /** How long a workspace is used as composed before its rows are read again (default 60 s). */
  recheckMs?: number;
  /** A workspace this instance has not used for this long is let go with its caches (default 10 minutes). */
  workspaceIdleMs?: number;
  /**
   * CARE_API_HOSTS: the only care API hosts admins may connect to (plain http:// allowed for them). Unset: any
   * public https:// host name, every resolved address checked to be public when connecting (services/care-hosts.ts).
   */
  careApiHosts?: readonly CareHost[] | undefined;
}

/** The workspace an installation serves: its team, or its org for an org-wide install. */
const installedWorkspace = (i: SlackInstallation) => (i.isEnterpriseInstall ? i.enterpriseId : i.teamId) ?? '';

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
  const apiUrl = settings.slack.apiUrl;
  // Which care API hosts admins may connect to; every care client of a connected workspace connects only there too.
  const careHosts = careHostPolicy(settings.careApiHosts);
  const clientSettings = { apiUrl, logger, fetch: metrics.slack.fetch, pacer: shared.slackPacer };
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
    // (test/e2e/multi-workspace-deps-isolation.test.ts walks its deps).
    compose: (workspaceId, spec, installation) => {
      rotation.observe(workspaceId, installation);
      return composeWorkspace(
        {
          ...shared,
          store: storeForWorkspace(store, workspaceId),
          logger: logger.child({ team: workspaceId }),
          // Admins see this workspace's care connection (Reconnect, Disconnect) at the end of their Home tab.
          adminHomeExtra: () => connectionCard(workspaceId, true, spec.timezone),
          // `/care admins|settings` as the tenancy middleware answers them before the workspace was connected.
          workspaceSetup: selfServiceOf(workspaceId),
          adminNotices: adminNoticesOf(adminNotices, workspaceId),
        },
        { ...spec, botTokens: rotation.forWorkspace(workspaceId), care: { ...spec.care, allowAddress: careHosts.addressRuleFor(spec.care.baseUrl) } },
      );
    },
  });
  const timezoneOf = async (workspaceId: string) => (await store.getWorkspaceSettings(workspaceId))?.timeZone ?? settings.timezone;
  /** The care connection card; `timezone` when the caller knows it (a composed workspace does), else read. */
  const connectionCard = async (workspaceId: string, isAdmin: boolean, timezone?: string) =>
    connectCareHomeBlocks({ isAdmin, connection: await store.getCareConnection(workspaceId), timezone: timezone ?? (await timezoneOf(workspaceId)) });
  const setupHome = async (workspaceId: string, _userId: string, isAdmin: boolean) => ({
    type: 'home' as const,
    blocks: await connectionCard(workspaceId, isAdmin),
  });
  /** After a connect or disconnect: the admin's Home tab as it is now. */
  const republishHome = async (workspaceId: string, userId: string) => {
    const lookup = await registry.get(workspaceId);
    if (lookup.state === 'ready') return publishHome(lookup.workspace.deps, workspaceId, userId);
    if (lookup.state !== 'not-connected' || !lookup.installation.bot) return;
    await slackFor(workspaceId, lookup.installation.bot.token).views.publish({ user_id: userId, view: (await setupHome(workspaceId, userId, true)) as never });
  };
  const reasonFor = (workspaceId: string, userId: string) => adminReason({ store, slackFor }, workspaceId, userId);
  /** How a workspace's bot DMs people outside its composition (installs, admin changes): its ledger and DM channels. */
  const messenger = (workspaceId: string, botToken: string) => {
    const { jobSlack, deliverer } = workspaceSlack(
      shared,
      storeForWorkspace(store, workspaceId),
      botToken,
      async () => workspaceId,
      rotation.forWorkspace(workspaceId),
    );
    return { deliverer, dm: createDmChannels(jobSlack) };
  };
  // A change of a workspace's admins, by any path, is told to its admins once (deployment/admin-notices.ts).
  const adminNotices = createAdminNotices({ store, messenger, logger: logger.child({ component: 'admin-changes' }) });
  const defaults = { timezone: settings.timezone, careWebUrl: settings.careWebUrl, retentionDays: settings.retentionDays ?? DEFAULT_RETENTION_DAYS };
  // Connecting the care account, settings, admins and uninstalling: the service writes their audit rows.
  const setup = createWorkspaceSetup({
    store,
    careClientFor: (c) =>
      createCareClient({
        ...c,
        maxRetries: 0,
        timeoutMs: 5_000,
        logger: logger.child({ component: 'care-connect' }),
        allowAddress: careHosts.addressRuleFor(c.baseUrl),
      }),
    careHosts,
    adminNotices,
    logger,
  });
  /** A workspace's `/care admins|settings|connect`: set in Slack by its admins (slack/listeners/commands/workspace-answers.ts), bound to it. */
  const selfServiceOf = (workspaceId: string): SelfServiceSetup => ({
    mode: 'self-service',
    setup: workspaceSetupOf(setup, workspaceId),
    defaults,
    adminReason: (userId) => reasonFor(workspaceId, userId),
    onChanged: () => registry.refresh(workspaceId),
  });

  // Installing (and installing again): the first installer stays the installer; DMs go through the workspace's ledger.
  const installs = createInstalls({
    store,
    timezone: settings.timezone,
    logger: logger.child({ component: 'installs' }),
    messenger,
    onReinstalled: (workspaceId) => registry.refresh(workspaceId),
  });

  const slackApp = createSlackApp(
    {
      signingSecret: settings.slack.signingSecret,
      slackApiUrl: apiUrl,
      logger,
      health: async () => ({ store: await storeHealth(store) }),
      replayGuard: createReplayGuard({ store, onFailOpen: metrics.replayGuardFailOpen, logger }),
      metrics: metrics.slack,
      pacer: shared.slackPacer,
      // Bolt's per-request client calls with the current token of the workspace its token is of.
      botTokens: (token) => rotation.sourceOfToken(token),
      oauth: {
        ...oauthSettings(settings.slack, {
          stateStore: oneTimeStateStore({ secret: settings.slack.stateSecret, seen: store }),
          slackApiUrl: apiUrl,
          // Refused, not stored (oauth-settings.ts): Slack's grant is given back so the org keeps no half install.
          onOrgWideRefused: async (installation) => {
            logger.warn('refused an org-wide (Enterprise Grid) install: the app is installed per workspace', { enterprise: installation.enterprise?.id });
            if (installation.bot?.token) await createSlackWebClient(installation.bot.token, 'poster', clientSettings).auth.revoke();
          },
        }),
        // Requests of installed workspaces are still authorised while the database does not answer.
        installationStore: rememberingInstallations(
          installationStore(
            {
              saveInstallation: async (input) => {
                const saved = await installs.save(input);
                // Installed (again): this instance calls with the new token from now on.
                rotation.observe(installedWorkspace(saved.installation), saved.installation);
                return saved;
              },
              getInstallation: (query) => store.getInstallation(query),
              deleteInstallation: (query) => store.deleteInstallation(query),
            },
            {
              now: () => shared.now().getTime(),
              // Bolt gets the token our rotation keeps fresh, and never refreshes on its own (installation-store.ts).
              freshBotToken: (installation) => {
                const workspaceId = installedWorkspace(installation);
                rotation.observe(workspaceId, installation);
                return rotation.forWorkspace(workspaceId).current();
              },
            },
          ),
        ),
      },
      beforeListeners: (app) => {
        registerTenancy(app, {
          registry,
          setup,
          logger,
          setupOf: selfServiceOf,
          setupHome,
          isSetupInteraction: isConnectCareInteraction,
        });
        registerConnectCare(app, {
          setup,
          isAdmin: async (workspaceId, userId) => (await reasonFor(workspaceId, userId)) !== null,
          careHosts,
          // The workspace is built again with the new account, and the admin's Home tab shows it.
          onChanged: async (workspaceId, userId) => {
            await registry.refresh(workspaceId);
            await republishHome(workspaceId, userId).catch((error) => logger.warn('could not refresh the Home tab after connecting', { error }));
          },
          signedMetadata: shared.signedMetadata,
          logger,
        });
      },
    },
    // No deps: each request's workspace's are put on its context by the tenancy middleware.
  );

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
    ...lifecycle({ slackApp, metrics, jobs, logger, close: [() => registry.close(), () => store.close()] }),
  };
}
