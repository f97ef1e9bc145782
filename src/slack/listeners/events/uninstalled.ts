import type { App } from '@slack/bolt';

/**
 * A deployment of one workspace uninstalled from it (`app_uninstalled`), or its bot's tokens revoked: the
 * composition forgets it (services/uninstall.ts). Many workspaces: the tenancy middleware does the same per workspace.
 */
export function registerOneWorkspaceUninstall(
  app: App,
  onUninstalled: (workspaceId: string, why: 'app_uninstalled' | 'tokens_revoked') => Promise<void>,
): void {
  const teamOf = (body: unknown) => {
    const b = body as { team_id?: unknown; enterprise_id?: unknown; is_enterprise_install?: unknown };
    const id = b.is_enterprise_install === true ? b.enterprise_id : b.team_id;
    return typeof id === 'string' ? id : '';
  };
  app.event('app_uninstalled', async ({ body }) => onUninstalled(teamOf(body), 'app_uninstalled'));
  app.event('tokens_revoked', async ({ event, body }) => {
    // Only the bot's tokens matter: this app acts as its bot and keeps no user token.
    if ((event.tokens.bot ?? []).length > 0) await onUninstalled(teamOf(body), 'tokens_revoked');
  });
}
