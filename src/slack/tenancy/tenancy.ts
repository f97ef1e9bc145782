/**
 * A deployment serving many workspaces, on the Slack side: every request is
 * served by the workspace it came from. Registered before every other
 * listener (after request-workspace.ts has refused a person of another
 * workspace), this middleware
 * - resolves the request's workspace (Bolt's context: the team, or the org for
 *   an org-wide install: `authorizedWorkspace`), puts it on the context, where
 *   listeners read it (both in workspace-on-context.ts), and, once the workspace is
 *   ready, puts its deps there too, so listeners use that workspace's
 *   services only (`depsOf`);
 * - answers the workspace's own set-up commands (`/care admins`, `/care
 *   settings`) until the care system is connected, with the answers of the
 *   `/care` table (listeners/commands/workspace-answers.ts), which answers
 *   them once it is;
 * - until a care account is connected, answers every `/care` and every click
 *   with what an admin must do, and shows the set-up Home tab;
 * - on `app_uninstalled` and `tokens_revoked` (the bot's), forgets the
 *   workspace's tokens and care secrets, so its jobs stop; its audit stays.
 */
import type { AnyMiddlewareArgs, App, Context } from '@slack/bolt';
import type { Logger } from '../../logging/logger.js';
import type { WorkspaceSetup } from '../../deployment/workspace-setup.js';
import type { SlackDeps } from '../deps.js';
import { safeRespond } from '../respond.js';
import { authorizedWorkspace, putDeps, putWorkspace } from '../workspace-on-context.js';
import { parseCommand } from '../commands/parse.js';
import { answerWorkspaceCommand, type SelfServiceSetup } from '../listeners/commands/workspace-answers.js';

/** What the middleware needs of the deployment's registry (workspaces/registry.ts), so that Slack code names no layer above it. */
export interface TenancyRegistry {
  get(workspaceId: string): Promise<{ state: 'ready'; workspace: { deps: SlackDeps } } | { state: 'not-connected' } | { state: 'not-installed' }>;
  refresh(workspaceId: string): Promise<void>;
}

export interface TenancyDeps {
  registry: TenancyRegistry;
  /** Forgetting an uninstalled workspace, with its audit row (deployment/workspace-setup.ts). */
  setup: Pick<WorkspaceSetup, 'forget'>;
  logger: Logger;
  /** A workspace's `/care admins|settings|connect` set-up, the same the composed workspace's table gets. */
  setupOf(workspaceId: string): SelfServiceSetup;
  /** The Home tab of a workspace with no care account yet (admins get the connect button). */
  setupHome(workspaceId: string, userId: string, isAdmin: boolean): Promise<{ type: 'home'; blocks: unknown[] }>;
  /** Interactions that are the set-up's own (the connect form): let through, with no workspace's deps on the context. */
  isSetupInteraction(body: Record<string, unknown>): boolean;
}

type AnyArgs = AnyMiddlewareArgs & { context: Context; next: () => Promise<void>; client: import('@slack/web-api').WebClient; logger: unknown };

export function notConnectedSentence(): string {
  return "Care Actions is installed here but not connected to your care system yet, so it cannot show or change actions. A Care Actions admin connects it from the app's *Home* tab (whoever first installed the app, or a Slack workspace admin); `/care admins` shows who they are.";
}

const eventType = (body: Record<string, unknown>) =>
  body.type === 'event_callback' ? ((body.event as { type?: string } | undefined)?.type ?? undefined) : undefined;

export function registerTenancy(app: App, deps: TenancyDeps): void {
  const { registry, setup, logger } = deps;

  async function forget(body: Record<string, unknown>, why: string) {
    const teamId = typeof body.team_id === 'string' ? body.team_id : undefined;
    const enterpriseId = typeof body.enterprise_id === 'string' ? body.enterprise_id : undefined;
    const workspaceId = await setup.forget({ isEnterpriseInstall: body.is_enterprise_install === true, teamId, enterpriseId }, why);
    if (!workspaceId) return;
    await registry.refresh(workspaceId);
    logger.info('workspace uninstalled: its tokens and care secrets are deleted, its jobs stop', { team: workspaceId, why });
  }

  app.event('app_uninstalled', async ({ body }) => forget(body as unknown as Record<string, unknown>, 'app_uninstalled'));
  app.event('tokens_revoked', async ({ event, body }) => {
    // Only the bot's tokens matter: this app acts as its bot and keeps no user token.
    if ((event.tokens.bot ?? []).length > 0) await forget(body as unknown as Record<string, unknown>, 'tokens_revoked');
  });

  app.use(async (raw) => {
    const args = raw as unknown as AnyArgs;
    const body = args.body as unknown as Record<string, unknown>;
    const type = eventType(body);
    // The request's workspace, on its context for every listener (workspace-on-context.ts).
    const workspaceId = authorizedWorkspace(args.context);
    if (workspaceId) putWorkspace(args.context, workspaceId);
    if (type === 'app_uninstalled' || type === 'tokens_revoked') return args.next();
    if (deps.isSetupInteraction(body)) return args.next();
    if (!workspaceId) return; // nothing here to serve it with

    // The workspace's own set-up commands (`/care admins|settings|connect`) work connected or not.
    const parsed = 'command' in args && args.command.command === '/care' ? parseCommand(args.command.text ?? '') : null;
    const setUp = parsed?.kind === 'workspace' ? parsed.command : null;
    const lookup = setUp ? await registry.get(workspaceId).catch(() => null) : await registry.get(workspaceId);
    // A ready workspace's `/care` table answers them (listeners/commands/workspace.ts) like every other command.
    if (lookup?.state === 'ready') {
      putDeps(args.context, lookup.workspace.deps);
      return args.next();
    }

    if (setUp && 'command' in args) {
      await args.ack();
      // Before the workspace is ready: the same answers as the table's.
      const text = await answerWorkspaceCommand(setUp, args.command.user_id, deps.setupOf(workspaceId)).catch((error: unknown) => {
        logger.warn('a workspace command failed', { sub: setUp.kind, error });
        return 'That did not work because the app could not reach its database. Try again in a minute.';
      });
      await safeRespond(args.respond, { response_type: 'ephemeral', text }, logger);
      return;
    }
    if (!lookup) return;

    // Not connected (or no longer installed): say what an admin must do, whatever was asked.
    const sentence = notConnectedSentence();
    if ('command' in args) {
      await args.ack({ response_type: 'ephemeral', text: sentence });
      return;
    }
    if (type === 'app_home_opened') {
      const event = body.event as { user: string; tab?: string };
      if (event.tab !== 'home' || lookup.state !== 'not-connected') return;
      const isAdmin = (await deps.setupOf(workspaceId).adminReason(event.user)) !== null;
      await args.client.views.publish({ user_id: event.user, view: (await deps.setupHome(workspaceId, event.user, isAdmin)) as never });
      return;
    }
    if ('ack' in args && typeof args.ack === 'function') {
      await (args.ack as () => Promise<void>)();
      const userId = (body.user as { id?: string } | undefined)?.id;
      if ('respond' in args && (await safeRespond(args.respond as never, { response_type: 'ephemeral', replace_original: false, text: sentence }, logger)))
        return;
      if (userId)
        await args.client.chat
          .postMessage({ channel: userId, text: sentence })
          .catch((error) => logger.warn('could not tell someone the workspace is not connected', { error }));
    }
  });
}
