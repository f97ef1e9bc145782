/**
 * The workspace a Slack request acts in, as a typed value on Bolt's
 * `context`: put there once, before any listener runs, and read by every
 * listener through `workspaceOf`.
 *
 * - Many workspaces: the tenancy middleware (tenancy/tenancy.ts) resolves the
 *   request's workspace and puts it.
 * - One workspace: `registerOneWorkspace` puts the workspace Bolt authorised
 *   the request for (its bot token's team, from auth.test).
 *
 * A listener that finds none was registered without either: that is a wiring
 * mistake, and `workspaceOf` says so instead of acting in a workspace ''.
 */
import type { App, Context } from '@slack/bolt';
import { authorizedWorkspace } from './tenancy/request-workspace.js';

const KEY = 'careActionsWorkspaceId';

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

/** One workspace: every request acts in the workspace Bolt authorised it for (its bot token's team). */
export function registerOneWorkspace(app: App): void {
  app.use(async ({ context, next }) => {
    const workspaceId = authorizedWorkspace(context);
    if (workspaceId) putWorkspace(context, workspaceId);
    await next();
  });
}
