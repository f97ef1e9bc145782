import type { App } from '@slack/bolt';
import type { SlackDeps } from '../../deps.js';
import { publishHome } from '../../home-publisher.js';

/** app_home_opened: publish the Home tab (idempotent, so Slack's redeliveries are harmless). */
export function registerAppHomeOpened(app: App, deps: SlackDeps): void {
  app.event('app_home_opened', async ({ event, body }) => {
    if (event.tab !== 'home') return;
    await publishHome(deps, body.team_id ?? '', event.user);
  });
}
