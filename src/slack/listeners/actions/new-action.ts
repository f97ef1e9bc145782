import type { App } from '@slack/bolt';
import { ActionIds } from '../../ids.js';
import { openCreateForm } from '../../forms/open-action-form.js';
import { buttonListener, tellClicker } from '../error-policy.js';
import { workspaceOf } from '../../workspace-on-context.js';

/** "New action" (help, Home tab): the create form, for people with a linked care account. */
export function registerNewActionButton(app: App): void {
  app.action(
    ActionIds.newAction,
    buttonListener('new action', async ({ body, respond, context }, deps) => {
      const actor = { userId: body.user.id };
      if (!(await deps.identity.getLink(actor))) {
        await tellClicker(deps, body, respond, 'Link your care account first: type `/care link`.');
        return;
      }
      await openCreateForm(deps, body.trigger_id, { teamId: workspaceOf(context), ...actor }, { channelId: body.channel?.id });
    }),
  );
}
