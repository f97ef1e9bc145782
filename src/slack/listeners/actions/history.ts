import type { App } from '@slack/bolt';
import { ActionIds, isCareId } from '../../ids.js';
import { openThenFill } from '../modal-flow.js';
import { historyModal } from '../../views/action-history.js';
import { buttonListener, tellClicker } from '../error-policy.js';

/**
 * History (value: the action Id), on every card: the action's life as the app
 * knows it, in a modal only the clicker sees (a "Loading…" modal at once, the
 * trigger lives 3 s), with times in their own zone. Linked people only, as for View.
 */
export function registerHistoryButton(app: App): void {
  app.action(
    ActionIds.history,
    buttonListener('history', async ({ body, action, respond }, deps) => {
      const actor = { userId: body.user.id };
      if (!(await deps.identity.getLink(actor))) {
        await tellClicker(deps, body, respond, 'Only people with a linked care account can see an action’s history. Type `/care link`.');
        return;
      }
      const id = action.value ?? '';
      if (!isCareId(id)) throw new Error('the History button carried no action Id');
      await openThenFill(deps, { triggerId: body.trigger_id, title: 'History', log: 'could not show an action’s history' }, async () => {
        const [tz, history] = await Promise.all([deps.profiles.tz(actor.userId), deps.history.of(actor, id)]);
        return historyModal(history.action, history, tz);
      });
    }),
  );
}
