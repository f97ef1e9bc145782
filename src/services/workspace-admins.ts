/**
 * Who may set up a workspace in a deployment serving many: the person who
 * first installed the app (installing it again changes no admin), the admins
 * added with `/care admins add`, and the workspace's own Slack admins and
 * owners (as Slack reports them for this workspace: not a guest, not a Slack
 * Connect user whose home is another organisation). Read from the store and
 * Slack, so it works before a care account is connected.
 */
import type { WebClient } from '@slack/web-api';
import { isSlackAdminOf } from './slack-admin.js';
import type { SlackInstallation, Store, WorkspaceSettings } from '../store/index.js';
import { installationOf } from './installation-of.js';

export type AdminReason = 'installer' | 'added' | 'slack-admin';

export interface WorkspaceAdminsDeps {
  store: Pick<Store, 'getInstallation' | 'getWorkspaceSettings'>;
  /** A Web API client of the workspace (users.info), made with the bot token of the installation read here. */
  slackFor(workspaceId: string, botToken: string): Pick<WebClient, 'users'>;
}

/** Pure: the stored reasons someone is an admin (without asking Slack). */
export function storedAdminReason(userId: string, installation: SlackInstallation | null, settings: WorkspaceSettings | null): AdminReason | null {
  if (installation?.user.id === userId) return 'installer';
  if (settings?.adminUserIds.includes(userId)) return 'added';
  return null;
}

/** Why this person is an admin of the workspace, or null when they are not. Slack's answer failing counts as "not" (safe side). */
export async function adminReason(deps: WorkspaceAdminsDeps, workspaceId: string, userId: string): Promise<AdminReason | null> {
  const [installation, settings] = await Promise.all([installationOf(deps.store, workspaceId), deps.store.getWorkspaceSettings(workspaceId)]);
  const stored = storedAdminReason(userId, installation, settings);
  if (stored || !installation?.bot) return stored;
  try {
    const { user } = await deps.slackFor(workspaceId, installation.bot.token).users.info({ user: userId });
    return user && isSlackAdminOf(user, workspaceId) ? 'slack-admin' : null;
  } catch {
    return null;
  }
}
