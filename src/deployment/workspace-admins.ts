/**
 * Who may set up a workspace in a deployment serving many: the person who
 * first installed the app (installing it again changes no admin), the admins
 * added with `/care admins add`, and the workspace's own Slack admins and
 * owners (as Slack reports them for this workspace: not a guest, not a Slack
 * Connect user whose home is another organisation). Read from the store and
 * Slack, so it works before a care account is connected.
 */
import type { WebClient } from '@slack/web-api';
import type { SlackInstallation, Store, WorkspaceSettings } from '../store/index.js';
import { type AdminReason, adminReasonBy, type NamedAdmins, namedAdminReason } from '../services/people/admin-rule.js';
import { installationOf } from './installation-of.js';

export type { AdminReason } from '../services/people/admin-rule.js';

export interface WorkspaceAdminsDeps {
  store: Pick<Store, 'getInstallation' | 'getWorkspaceSettings'>;
  /** A Web API client of the workspace (users.info), made with the bot token of the installation read here. */
  slackFor(workspaceId: string, botToken: string): Pick<WebClient, 'users'>;
}

/** Pure: the people a many-workspace deployment names as a workspace's admins (admin-rule.ts). */
export function namedBy(installation: SlackInstallation | null, settings: WorkspaceSettings | null): NamedAdmins {
  return { installer: installation?.user.id ?? null, added: settings?.adminUserIds ?? [] };
}

/** Pure: the stored reasons someone is an admin (without asking Slack). */
export function storedAdminReason(userId: string, installation: SlackInstallation | null, settings: WorkspaceSettings | null): AdminReason | null {
  return namedAdminReason(userId, namedBy(installation, settings));
}

/** Why this person is an admin of the workspace, or null when they are not (the one rule: admin-rule.ts). */
export async function adminReason(deps: WorkspaceAdminsDeps, workspaceId: string, userId: string): Promise<AdminReason | null> {
  const [installation, settings] = await Promise.all([installationOf(deps.store, workspaceId), deps.store.getWorkspaceSettings(workspaceId)]);
  const bot = installation?.bot;
  return adminReasonBy(userId, workspaceId, namedBy(installation, settings), async () =>
    bot ? (await deps.slackFor(workspaceId, bot.token).users.info({ user: userId })).user : null,
  );
}
