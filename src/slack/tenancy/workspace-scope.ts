/**
 * Which workspace a Slack request belongs to, for the listeners of a
 * deployment serving many. The listeners are registered once with a `deps`
 * that stands for "the deps of the workspace this request came from": the
 * tenancy middleware resolves the workspace (from Bolt's context) and runs the
 * rest of the request inside `run`, so every property a listener reads comes
 * from that workspace's own services, care client and Slack client. Work a
 * listener starts and does not await (a Home publish, a notice) stays in the
 * same workspace: the scope follows promises and timers.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { SlackDeps } from '../deps.js';

export interface WorkspaceScope {
  /** Run `work` (and everything it starts) as a request of the workspace these deps belong to. */
  run<T>(deps: SlackDeps, work: () => Promise<T>): Promise<T>;
  /** The deps of the current request's workspace; reading one outside a request throws. */
  readonly deps: SlackDeps;
}

export function createWorkspaceScope(): WorkspaceScope {
  const current = new AsyncLocalStorage<SlackDeps>();
  const deps = new Proxy({} as SlackDeps, {
    get(_target, property) {
      const scoped = current.getStore();
      if (!scoped) throw new Error(`no workspace for this Slack request (deps.${String(property)} read outside a workspace's request)`);
      return scoped[property as keyof SlackDeps];
    },
    has: (_target, property) => property in (current.getStore() ?? {}),
  });
  return { run: (scoped, work) => current.run(scoped, work), deps };
}
