/**
 * Setting a workspace up, and forgetting it: the care account it is
 * connected to (checked before anything is saved), its settings and added
 * admins, and what is deleted when the app is uninstalled. Each change writes
 * its audit row here, so the Slack side (the connect form, `/care admins`,
 * `/care settings`, the tenancy middleware) never reaches the store.
 *
 * Who may do what is not decided here: the callers ask the admin rule first.
 */
import type { CareClient } from '../care/index.js';
import type { Logger } from '../logging/logger.js';
import type { Store, WorkspaceSettings, WorkspaceSettingsPatch } from '../store/index.js';
import { careAddressHost } from './care-address.js';
import { type ConnectionCheck, checkCareConnection } from './care-connection-check.js';
import type { CareHostPolicy } from './care-hosts.js';
import { installationOf } from './installation-of.js';
import { forgetUninstalled } from './uninstall.js';

export type { WorkspaceSettings } from '../store/index.js';

export interface CareCredentials {
  baseUrl: string;
  accountId: string;
  apiKey: string;
  apiSecret: string;
}

/** The care account a workspace is connected to, as the Slack side may see it: never the key or the secret. */
export interface CareAccount {
  baseUrl: string;
  accountId: string;
}

export type ConnectOutcome =
  /** The credentials did not work: nothing was saved. */
  | { saved: false; check: ConnectionCheck }
  /** Saved (some permissions may be missing: `check.permissions`); `replaced` is the account it was connected to before. */
  | { saved: true; check: ConnectionCheck; replaced: CareAccount | null };

/** Which installation went away (Bolt's event fields): a team's, or an org's org-wide one. */
export interface UninstalledQuery {
  teamId?: string | undefined;
  enterpriseId?: string | undefined;
  isEnterpriseInstall: boolean;
}

export interface WorkspaceSetupDeps {
  store: Pick<
    Store,
    | 'getCareConnection'
    | 'setCareConnection'
    | 'deleteCareConnection'
    | 'getInstallation'
    | 'deleteInstallation'
    | 'getWorkspaceSettings'
    | 'setWorkspaceSettings'
    | 'appendAudit'
    | 'forgetWorkspace'
  >;
  /** Build a care client for these credentials (the app passes createCareClient with its logger/limits); closed after the check. */
  careClientFor(c: CareCredentials): CareClient;
  /** The care API hosts this deployment may reach (CARE_API_HOSTS); careClientFor's clients connect only where it allows. */
  careHosts: CareHostPolicy;
  logger: Logger;
}

export interface WorkspaceSetup {
  /** The care account the workspace is connected to, or null. */
  careAccount(workspaceId: string): Promise<CareAccount | null>;
  /** Check the credentials against the care system; save them (and an audit row, never the key or secret) only when they work. */
  connectCare(workspaceId: string, userId: string, credentials: CareCredentials): Promise<ConnectOutcome>;
  /** Forget the workspace's care account and its credentials; the account it was, or null when it was not connected. */
  disconnectCare(workspaceId: string, userId: string): Promise<CareAccount | null>;
  /** Who first installed the app here (they stay an admin), or null. */
  installer(workspaceId: string): Promise<string | null>;
  settings(workspaceId: string): Promise<WorkspaceSettings | null>;
  /** Change the workspace's settings (time zone, web link, added admins) and write what changed to the audit. */
  changeSettings(workspaceId: string, userId: string, patch: WorkspaceSettingsPatch, details: Record<string, unknown>): Promise<void>;
  /**
   * The app was uninstalled (or its bot's tokens revoked): delete everything of the workspace (its installation,
   * care connection, settings, links, digests, ledger, cursors…) but its audit, kept with no Slack user Id in it
   * (services/uninstall.ts). Resolves to the workspace forgotten, or null.
   */
  forget(query: UninstalledQuery, why: string): Promise<string | null>;
}

export function createWorkspaceSetup(deps: WorkspaceSetupDeps): WorkspaceSetup {
  const { store, logger } = deps;

  async function check(c: CareCredentials): Promise<ConnectionCheck> {
    const care = deps.careClientFor(c);
    try {
      return await checkCareConnection(care, { address: c.baseUrl, allowed: deps.careHosts.allowed, logger });
    } finally {
      await care.close().catch(() => undefined);
    }
  }

  return {
    async careAccount(workspaceId) {
      const c = await store.getCareConnection(workspaceId);
      return c ? { baseUrl: c.baseUrl, accountId: c.accountId } : null;
    },

    async connectCare(workspaceId, userId, c) {
      const checked = await check(c);
      if (!checked.ok) return { saved: false, check: checked };
      const previous = await store.getCareConnection(workspaceId);
      await store.setCareConnection({ workspaceId, ...c, connectedBy: userId });
      const missing = checked.permissions.filter((p) => !p.ok).map((p) => p.key);
      const replaced = previous ? { baseUrl: previous.baseUrl, accountId: previous.accountId } : null;
      // Never the key or the secret.
      await store.appendAudit({
        teamId: workspaceId,
        userId,
        verb: 'care.connect',
        details: { baseUrl: c.baseUrl, accountId: c.accountId, replaced, missing },
      });
      logger.info('care connection saved', { teamId: workspaceId, accountId: c.accountId, host: careAddressHost(c.baseUrl), missing });
      return { saved: true, check: checked, replaced };
    },

    async disconnectCare(workspaceId, userId) {
      const existing = await store.getCareConnection(workspaceId);
      if (!existing || !(await store.deleteCareConnection(workspaceId))) return null;
      await store.appendAudit({
        teamId: workspaceId,
        userId,
        verb: 'care.disconnect',
        details: { baseUrl: existing.baseUrl, accountId: existing.accountId },
      });
      logger.info('care connection removed', { teamId: workspaceId, accountId: existing.accountId });
      return { baseUrl: existing.baseUrl, accountId: existing.accountId };
    },

    async installer(workspaceId) {
      return (await installationOf(store, workspaceId))?.user.id ?? null;
    },

    settings: (workspaceId) => store.getWorkspaceSettings(workspaceId),

    async changeSettings(workspaceId, userId, patch, details) {
      await store.setWorkspaceSettings(workspaceId, patch, userId);
      await store.appendAudit({ teamId: workspaceId, userId, verb: 'workspace.settings', details });
    },

    async forget(q, why) {
      const workspaceId = q.isEnterpriseInstall ? q.enterpriseId : q.teamId;
      if (!workspaceId) return null;
      // Nothing of it is kept but the anonymous audit: installed again, it starts afresh (its installer is whoever installs it).
      const { deleted } = await forgetUninstalled(store, { id: workspaceId, all: false }, why);
      logger.info('uninstalled workspace forgotten', { teamId: workspaceId, why, deleted });
      return workspaceId;
    },
  };
}
