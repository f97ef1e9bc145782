/**
 * Telling a workspace's admins about a change of its admins (services/people/admin-changes.ts says who and what),
 * for the deployment: the installer and added admins are read from the deployment's tables, and the DMs go
 * through the workspace's own ledger, each once. A workspace's services are given these notices bound to it
 * (adminNoticesOf), so they name no workspace.
 */
import type { Logger } from '../logging/logger.js';
import { ADMIN_CHANGED_KIND, type AdminChange, adminChangeRecipients, adminChangeText, type WorkspaceAdminNotices } from '../services/people/admin-changes.js';
import type { Store } from '../store/index.js';
import { installationOf } from './installation-of.js';
import type { WorkspaceMessenger } from './installs.js';

export interface AdminNotices {
  /** Tell the workspace's admins about a change already made and audited (each once; failures are logged, never thrown). */
  announce(change: AdminChange): Promise<void>;
}

/** The deployment's notices bound to one workspace: what that workspace's services are given, naming no other. */
export function adminNoticesOf(notices: AdminNotices, workspaceId: string): WorkspaceAdminNotices {
  return { announce: (change) => notices.announce({ ...change, workspaceId }) };
}

export function createAdminNotices(deps: {
  store: Pick<Store, 'getInstallation' | 'getWorkspaceSettings'>;
  messenger(workspaceId: string, botToken: string): WorkspaceMessenger;
  logger: Logger;
}): AdminNotices {
  return {
    async announce(change) {
      try {
        const [installation, settings] = await Promise.all([
          installationOf(deps.store, change.workspaceId),
          deps.store.getWorkspaceSettings(change.workspaceId),
        ]);
        const token = installation?.bot?.token;
        if (!token) return;
        const { deliverer, dm } = deps.messenger(change.workspaceId, token);
        const text = adminChangeText(change);
        const results = await Promise.all(
          adminChangeRecipients(change, installation.user.id ?? null, settings?.adminUserIds ?? []).map((userId) =>
            deliverer.deliver(
              { kind: ADMIN_CHANGED_KIND, actionId: '-', occurrence: String(change.auditId), recipient: `user:${change.workspaceId}/${userId}` },
              () => dm(userId),
              { text },
            ),
          ),
        );
        if (results.includes('failed')) deps.logger.warn('an admin change DM could not be sent', { team: change.workspaceId });
      } catch (error) {
        deps.logger.warn('could not tell the admins about an admin change', {
          team: change.workspaceId,
          error: error instanceof Error ? error.message : String(error),
        });
      }
    },
  };
}
