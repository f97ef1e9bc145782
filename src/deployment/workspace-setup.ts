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
import { careAddressHost } from '../services/admin/care-address.js';
import type { CareConnecting, CareCredentials } from '../services/admin/care-connecting.js';
import { type ConnectionCheck, checkCareConnection } from '../services/admin/care-connection-check.js';
import type { CareHostPolicy } from '../services/admin/care-hosts.js';
import { ADMIN_ADDED_VERB, ADMIN_REMOVED_VERB } from '../services/people/admin-changes.js';
import type { AdminNotices } from './admin-notices.js';
import { installationOf } from './installation-of.js';
import { forgetUninstalled } from './uninstall.js';

export type { WorkspaceSettings } from '../store/index.js';

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
  /** Tells the workspace's admins about a change of admins (admin-notices.ts); none: nobody is told. */
  adminNotices?: AdminNotices | undefined;
  logger: Logger;
}

/** The deployment's set-up of every workspace: connecting its care account (the form's port, care-connecting.ts) and the rest. */
export interface WorkspaceSetup extends CareConnecting {
  /** Who first installed the app here (they stay an admin), or null. */
  installer(workspaceId: string): Promise<string | null>;
  settings(workspaceId: string): Promise<WorkspaceSettings | null>;
  /** Change the workspace's settings (time zone, web link, added admins) and write what changed to the audit. */
  changeSettings(workspaceId: string, userId: string, patch: WorkspaceSettingsPatch, details: Record<string, unknown>): Promise<void>;
  /**
   * Add or remove an added admin (who may do it is the caller's to check): the list changes, an explicit audit row
   * (`admin.added` / `admin.removed`, naming the person and who) is written, and the admins are told once, in the
   * background (`told` settles when they were).
   */
  changeAdmin(workspaceId: string, userId: string, change: { kind: 'added' | 'removed'; person: string }): Promise<{ told: Promise<void> }>;
  /**
   * The app was uninstalled (or its bot's tokens revoked): delete everything of the workspace (its installation,
   * care connection, settings, links, digests, ledger, cursors…) but its audit, kept with no Slack user Id in it
   * (uninstall.ts). Resolves to the workspace forgotten, or null.
   */
  forget(query: UninstalledQuery, why: string): Promise<string | null>;
}

/** One workspace's own set-up, bound to it (workspaceSetupOf): what its `/care admins|settings` may use, naming no workspace. */
export interface OwnWorkspaceSetup {
  installer(): Promise<string | null>;
  settings(): Promise<WorkspaceSettings | null>;
  changeSettings(userId: string, patch: WorkspaceSettingsPatch, details: Record<string, unknown>): Promise<void>;
  changeAdmin(userId: string, change: { kind: 'added' | 'removed'; person: string }): Promise<{ told: Promise<void> }>;
}

/**
 * The deployment's set-up bound to one workspace, once, when that workspace is built: the part its commands use
 * (never connecting, disconnecting or forgetting, which are the deployment's own: the Home tab's form, the uninstall).
 */
export function workspaceSetupOf(setup: WorkspaceSetup, workspaceId: string): OwnWorkspaceSetup {
  return {
    installer: () => setup.installer(workspaceId),
    settings: () => setup.settings(workspaceId),
    changeSettings: (userId, patch, details) => setup.changeSettings(workspaceId, userId, patch, details),
    changeAdmin: (userId, change) => setup.changeAdmin(workspaceId, userId, change),
  };
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

    async changeAdmin(workspaceId, userId, { kind, person }) {
      const admins = (await store.getWorkspaceSettings(workspaceId))?.adminUserIds ?? [];
      const next = kind === 'added' ? [...admins, person] : admins.filter((id) => id !== person);
      await store.setWorkspaceSettings(workspaceId, { adminUserIds: next }, userId);
      const through = kind === 'added' ? 'admins-add' : 'admins-remove';
      const audit = await store.appendAudit({
        teamId: workspaceId,
        userId,
        verb: kind === 'added' ? ADMIN_ADDED_VERB : ADMIN_REMOVED_VERB,
        details: { slackUserId: person, through, ...(kind === 'removed' ? { was: 'added' } : {}) },
      });
      logger.info(`a Care Actions admin was ${kind}`, { teamId: workspaceId, by: userId });
      const told = deps.adminNotices?.announce({ workspaceId, kind, person, by: userId, through, auditId: audit.id }) ?? Promise.resolve();
      return { told };
    },

    async forget(q, why) {
      // An org-wide install was refused before anything was stored: nothing of it to forget.
      const workspaceId = q.isEnterpriseInstall ? undefined : q.teamId;
      if (!workspaceId) return null;
      // Nothing of it is kept but the anonymous audit: installed again, it starts afresh (its installer is whoever installs it).
      const { deleted } = await forgetUninstalled(store, { id: workspaceId, all: false }, why);
      logger.info('uninstalled workspace forgotten', { teamId: workspaceId, why, deleted });
      return workspaceId;
    },
  };
}
