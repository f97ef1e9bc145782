/**
 * Many workspaces: the deployment's set-up services, each handed to a workspace only bound to it. Installing
 * (and installing again), connecting the care account, settings and admins (with their audit rows), a change
 * of admins told to the admins once, and the care connection card of a workspace's Home tab.
 */
import type { WebClient } from '@slack/web-api';
import { createCareClient } from './care/index.js';
import type { MultiAppSettings } from './compose-multi-settings.js';
import { createAdminNotices } from './deployment/admin-notices.js';
import { createInstalls } from './deployment/installs.js';
import type { TokenRotation } from './deployment/token-rotation.js';
import { adminReason } from './deployment/workspace-admins.js';
import { createWorkspaceSetup, workspaceSetupOf } from './deployment/workspace-setup.js';
import type { CareHostPolicy } from './services/admin/care-hosts.js';
import { createDmChannels } from './services/dm-channels.js';
import { DEFAULT_RETENTION_DAYS } from './services/evidence/retention.js';
import type { SelfServiceSetup } from './slack/listeners/commands/workspace-answers.js';
import { connectCareHomeBlocks } from './slack/views/connect-care.js';
import { scopedWorkspaceStore, type Store } from './store/index.js';
import type { WorkspaceRegistry } from './workspaces/registry.js';
import type { WorkspaceShared } from './workspaces/workspace-spec.js';
import { workspaceSlack } from './workspaces/workspace-slack.js';

export type MultiSetup = ReturnType<typeof composeMultiSetup>;

export function composeMultiSetup(p: {
  settings: MultiAppSettings;
  store: Store;
  shared: Omit<WorkspaceShared, 'store'>;
  rotation: TokenRotation;
  careHosts: CareHostPolicy;
  /** A client of a workspace outside its composition, calling with the workspace's current token. */
  slackFor: (workspaceId: string, token: string) => WebClient;
  /** The registry's: the workspace is built again with its new rows (the registry is made after these). */
  refresh: WorkspaceRegistry['refresh'];
}) {
  const { settings, store, shared, rotation, careHosts } = p;
  const { logger } = settings;
  const timezoneOf = async (workspaceId: string) => (await store.getWorkspaceSettings(workspaceId))?.timeZone ?? settings.timezone;
  /** The care connection card; `timezone` when the caller knows it (a composed workspace does), else read. */
  const connectionCard = async (workspaceId: string, isAdmin: boolean, timezone?: string) =>
    connectCareHomeBlocks({ isAdmin, connection: await store.getCareConnection(workspaceId), timezone: timezone ?? (await timezoneOf(workspaceId)) });
  const setupHome = async (workspaceId: string, _userId: string, isAdmin: boolean) => ({
    type: 'home' as const,
    blocks: await connectionCard(workspaceId, isAdmin),
  });
  const reasonFor = (workspaceId: string, userId: string) => adminReason({ store, slackFor: p.slackFor }, workspaceId, userId);
  /** How a workspace's bot DMs people outside its composition (installs, admin changes): its ledger and DM channels. */
  const messenger = (workspaceId: string, botToken: string) => {
    const { jobSlack, deliverer } = workspaceSlack(
      shared,
      scopedWorkspaceStore(store, workspaceId),
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
    onChanged: () => p.refresh(workspaceId),
  });
  // Installing (and installing again): the first installer stays the installer; DMs go through the workspace's ledger.
  const installs = createInstalls({
    store,
    timezone: settings.timezone,
    logger: logger.child({ component: 'installs' }),
    messenger,
    onReinstalled: (workspaceId) => p.refresh(workspaceId),
  });
  return { adminNotices, setup, installs, selfServiceOf, reasonFor, connectionCard, setupHome };
}
