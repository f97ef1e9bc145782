/**
 * Many workspaces: the Bolt app, with "Add to Slack" (OAuth, the installation store), the tenancy middleware
 * that serves each request with its workspace, and the connect-care form. No deps of its own: each request's
 * workspace's are put on its context by the tenancy middleware.
 */
import type { MultiAppSettings } from './compose-multi-settings.js';
import type { MultiSetup } from './compose-multi-setup.js';
import type { TokenRotation } from './deployment/token-rotation.js';
import { storeHealth } from './health.js';
import type { AppMetrics } from './metrics/index.js';
import type { CareHostPolicy } from './services/admin/care-hosts.js';
import { createSlackApp } from './slack/app.js';
import { publishHome } from './slack/home-publisher.js';
import { installationStore } from './slack/install/installation-store.js';
import { isConnectCareInteraction, registerConnectCare } from './slack/listeners/workspace/connect-care.js';
import { oauthSettings } from './slack/install/oauth-settings.js';
import { oneTimeStateStore } from './slack/install/oauth-state-store.js';
import { rememberingInstallations } from './slack/install/remembered-installations.js';
import { createReplayGuard } from './slack/receivers/replay-guard.js';
import { registerTenancy } from './slack/tenancy/tenancy.js';
import { createSlackWebClient } from './slack/web-api/web-clients.js';
import type { SlackInstallation, Store } from './store/index.js';
import type { WorkspaceRegistry } from './workspaces/registry.js';
import type { WorkspaceShared } from './workspaces/workspace-spec.js';

/** The workspace an installation serves: its team (org-wide installs are refused before they are stored). */
const installedWorkspace = (i: SlackInstallation) => i.teamId ?? '';

export function multiSlackApp(p: {
  settings: MultiAppSettings;
  store: Store;
  metrics: AppMetrics;
  shared: Omit<WorkspaceShared, 'store'>;
  rotation: TokenRotation;
  registry: WorkspaceRegistry;
  setup: MultiSetup;
  careHosts: CareHostPolicy;
  clientSettings: Parameters<typeof createSlackWebClient>[2];
  slackFor: (workspaceId: string, token: string) => ReturnType<typeof createSlackWebClient>;
}) {
  const { settings, store, metrics, shared, rotation, registry, setup, clientSettings } = p;
  const { logger } = settings;
  const apiUrl = settings.slack.apiUrl;
  /** After a connect or disconnect: the admin's Home tab as it is now. */
  const republishHome = async (workspaceId: string, userId: string) => {
    const lookup = await registry.get(workspaceId);
    if (lookup.state === 'ready') return publishHome(lookup.workspace.deps, workspaceId, userId);
    if (lookup.state !== 'not-connected' || !lookup.installation.bot) return;
    await p
      .slackFor(workspaceId, lookup.installation.bot.token)
      .views.publish({ user_id: userId, view: (await setup.setupHome(workspaceId, userId, true)) as never });
  };
  return createSlackApp(
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
                const saved = await setup.installs.save(input);
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
          setup: setup.setup,
          logger,
          setupOf: setup.selfServiceOf,
          setupHome: setup.setupHome,
          isSetupInteraction: isConnectCareInteraction,
        });
        registerConnectCare(app, {
          setup: setup.setup,
          isAdmin: async (workspaceId, userId) => (await setup.reasonFor(workspaceId, userId)) !== null,
          careHosts: p.careHosts,
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
}
