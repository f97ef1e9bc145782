import type { App } from '@slack/bolt';
import { ActionIds } from '../../ids.js';

/**
 * "Open in care system" is a link: the person's browser opens the page. Slack
 * still tells the app about the click; it is acknowledged and nothing else.
 */
export function registerOpenInCare(app: App): void {
  app.action(ActionIds.openInCare, async ({ ack }) => {
    await ack();
  });
}
