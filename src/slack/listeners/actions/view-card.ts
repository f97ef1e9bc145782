import type { App } from '@slack/bolt';
import { ActionIds, isCareId } from '../../ids.js';
import { safeRespond } from '../../respond.js';
import { actionCard, actionLabel } from '../../views/action-card.js';
import { context } from '../../views/blocks.js';
import { buttonListener } from '../error-policy.js';

/**
 * View (value: the action Id), on posts where task text is hidden: the full
 * card to the clicker alone (an ephemeral answer; the post is not touched), with
 * Complete, Snooze and Edit working as on their own cards. Linked people only;
 * anyone else is told how to link.
 */
export function registerViewButton(app: App): void {
  app.action(
    ActionIds.view,
    buttonListener('view', async ({ body, action, respond }, deps) => {
      const actor = { userId: body.user.id };
      await deps.identity.requireLink(actor);
      const id = action.value ?? '';
      if (!isCareId(id)) throw new Error('the View button carried no action Id');
      const [view] = await deps.actions.views([await deps.actions.resolve({ type: 'id', id })]);
      const ctx = { now: deps.now(), timezone: await deps.profiles.tz(actor.userId), showTask: true };
      await safeRespond(
        respond,
        {
          response_type: 'ephemeral',
          replace_original: false,
          text: `Action ${actionLabel(view!)}`,
          blocks: [...actionCard(view!, ctx), context('Only you can see this card.')],
        },
        deps.logger,
      );
    }),
  );
}
