/**
 * The workspace a Slack request acts in, as typed values on Bolt's
 * `context`: put there once, before any listener runs, and read by every
 * listener through `workspaceOf` (its Id) and `depsOf` (its services, care
 * client and Slack client).
 *
 * One rule for every payload kind: a request acts in the installation Bolt
 * authorised it for (`authorizedWorkspace`): `context.teamId` (or
 * `context.enterpriseId` for an org-wide Enterprise Grid install), which
 * Bolt's authorize takes from an event's `authorizations`, a command's
 * `team_id`, an interaction's `team` and, for a view submission,
 * `view.app_installed_team_id` first (a modal opened through a Slack Connect
 * channel in another organisation's workspace). A person of another
 * workspace is refused before (tenancy/request-workspace.ts).
 *
 * - Many workspaces: the tenancy middleware (tenancy/tenancy.ts) resolves the
 *   request's workspace and puts both (its deps once it is ready).
 * - One workspace: `registerOneWorkspace` puts the workspace Bolt authorised
 *   the request for (its bot token's team, from auth.test) and the one
 *   workspace's deps.
 *
 * A listener that finds none was registered without either: that is a wiring
 * mistake, and `workspaceOf` and `depsOf` say so instead of acting in a
 * workspace '' or another request's. Work a listener starts and does not
 * await (a Home publish, a notice) is handed the deps it was read with, so it
 * stays in the same workspace.
 */
import type { App, Context } from '@slack/bolt';
import type { SlackDeps } from './deps.js';

const KEY = 'careActionsWorkspaceId';
const DEPS_KEY = 'careActionsWorkspaceDeps';

/** The workspace Bolt authorised a request for: the org for an org-wide install, else the team. */
export function authorizedWorkspace(context: Context): string | undefined {
  return (context.isEnterpriseInstall ? context.enterpriseId : context.teamId) ?? undefined;
}

/** A context the workspace was put on. */
export interface WorkspaceContext extends Context {
  [KEY]: string;
}

/** Put the request's workspace on its context (the tenancy middleware; `registerOneWorkspace`). */
export function putWorkspace(context: Context, workspaceId: string): asserts context is WorkspaceContext {
  if (workspaceId === '') throw new Error('putWorkspace: an empty workspace Id');
  context[KEY] = workspaceId;
}

/** The workspace the request acts in (its team Id); throws when no middleware put one on this context. */
export function workspaceOf(context: Context): string {
  const id = context[KEY];
  if (typeof id !== 'string' || id === '')
    throw new Error(
      'No workspace on this Slack request’s context: the listener ran before the tenancy middleware (many workspaces) or registerOneWorkspace (one workspace) put it there.',
    );
  return id;
}

/** Put the deps of the request's workspace on its context (the tenancy middleware, for a ready workspace; `registerOneWorkspace`). */
export function putDeps(context: Context, deps: SlackDeps): void {
  context[DEPS_KEY] = deps;
}

/** The deps of the workspace the request acts in; throws when no middleware put them on this context. */
export function depsOf(context: Context): SlackDeps {
  const deps = context[DEPS_KEY] as SlackDeps | undefined;
  if (!deps)
    throw new Error(
      'No workspace deps on this Slack request’s context: the listener ran before the tenancy middleware (many workspaces, once the workspace is ready) or registerOneWorkspace (one workspace) put them there.',
    );
  return deps;
}

/**
 * One workspace: every request acts in the workspace Bolt authorised it for (its bot token's team), with the
 * one workspace's deps (left out only where no listener reads them, e.g. a test of the set-up listeners alone).
 */
export function registerOneWorkspace(app: App, deps?: SlackDeps): void {
  app.use(async ({ context, next }) => {
    const workspaceId = authorizedWorkspace(context);
    if (workspaceId) putWorkspace(context, workspaceId);
    if (deps) putDeps(context, deps);
    await next();
  });
}
