import type { App } from '@slack/bolt';
import type { SlackDeps } from '../../deps.js';
import { ActionIds } from '../../ids.js';
import { openCreateForm } from '../../open-action-form.js';
import { buttonListener, tellClicker } from '../error-policy.js';

/** "New action" (help, Home tab): the create form, for people with a linked care account. */
export function registerNewActionButton(app: App, deps: SlackDeps): void {
  app.action(
    ActionIds.newAction,
    buttonListener(deps, 'new action', async ({ body, respond }) => {
      if (!(await deps.identity.getLink({ teamId: body.team?.id ?? '', userId: body.user.id }))) {
        await tellClicker(deps, body, respond, 'Link your care account first: type `/care link`.');
        return;
      }
      await openCreateForm(deps, body.trigger_id, body.user.id, { channelId: body.channel?.id });
    }),
  );
}
