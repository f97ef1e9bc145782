import type { App } from '@slack/bolt';
import { workspaceOf } from '../../workspace-on-context.js';

/**
 * A deployment of one workspace uninstalled from it (`app_uninstalled`), or its bot's tokens revoked: the
 * composition forgets it (deployment/uninstall.ts). Many workspaces: the tenancy middleware does the same per workspace.
 */
export function registerOneWorkspaceUninstall(
  app: App,
  onUninstalled: (workspaceId: string, why: 'app_uninstalled' | 'tokens_revoked') => Promise<void>,
): void {
  app.event('app_uninstalled', async ({ context }) => onUninstalled(workspaceOf(context), 'app_uninstalled'));
  app.event('tokens_revoked', async ({ event, context }) => {
    // Only the bot's tokens matter: this app acts as its bot and keeps no user token.
    if ((event.tokens.bot ?? []).length > 0) await onUninstalled(workspaceOf(context), 'tokens_revoked');
  });
}
