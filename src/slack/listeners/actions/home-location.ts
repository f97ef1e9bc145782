import type { App, BlockAction, StaticSelectAction } from '@slack/bolt';
import { publishHome } from '../../home-publisher.js';
import { ActionIds, isCareId } from '../../ids.js';
import { workspaceOf } from '../../workspace-on-context.js';
import { buttonListener } from '../error-policy.js';

/**
 * The Home tab's location menu: the person's list shows that location's
 * actions only ("All locations": everything), remembered for their later
 * Home tabs; the tab is published again at once.
 */
export function registerHomeLocationMenu(app: App): void {
  app.action<BlockAction<StaticSelectAction>>(
    ActionIds.homeLocation,
    buttonListener<StaticSelectAction>('home location', async ({ body, action, context }, deps) => {
      const actor = { userId: body.user.id };
      const value = action.selected_option?.value ?? 'all';
      if (value === 'all' || !isCareId(value)) await deps.homeFilters.set(actor, null);
      else {
        const known = (await deps.directory.locations('')).find((l) => l.id === value);
        await deps.homeFilters.set(actor, { type: 'location', id: value, name: known?.name ?? action.selected_option?.text.text ?? 'this location' });
      }
      await publishHome(deps, workspaceOf(context), actor.userId);
    }),
  );
}
