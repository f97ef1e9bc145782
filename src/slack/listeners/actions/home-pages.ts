import type { App } from '@slack/bolt';
import { publishHome } from '../../home-publisher.js';
import { ActionIds } from '../../ids.js';
import { HOME_PAGE_SIZE } from '../../views/home-view.js';
import { buttonListener } from '../error-policy.js';
import { workspaceOf } from '../../workspace-on-context.js';

/** The Home tab's "Show more" / "Back to the top": publish the page that starts at the button's value. */
export function registerHomePageButtons(app: App): void {
  app.action(
    ActionIds.homeMore,
    buttonListener('home page', async ({ body, action, context }, deps) => {
      // The value is where the next page starts (0 = back to the top).
      const offset = Math.min(Math.max(Math.floor(Number(action.value)) || 0, 0), 10_000);
      await publishHome(deps, workspaceOf(context), body.user.id, HOME_PAGE_SIZE, offset);
    }),
  );
}
