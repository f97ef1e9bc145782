import type { App } from '@slack/bolt';
import { homeOpened } from '../../home-publisher.js';
import { depsOf, workspaceOf } from '../../workspace-on-context.js';

/** app_home_opened: publish the Home tab, at most once per person per few seconds (idempotent, so Slack's redeliveries are harmless). */
export function registerAppHomeOpened(app: App): void {
  app.event('app_home_opened', async ({ event, context }) => {
    const deps = depsOf(context);
    if (event.tab !== 'home') return;
    await homeOpened(deps, workspaceOf(context), event.user);
  });
}
