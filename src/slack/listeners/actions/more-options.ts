import type { App } from '@slack/bolt';
import { ActionIds } from '../../ids.js';
import { type FormViewPayload, redrawActionForm } from '../../forms/redraw-action-form.js';
import { buttonListener } from '../error-policy.js';
import { workspaceOf } from '../../workspace-on-context.js';

/** "More options" in the create/edit form: the same form with pin, reminders and "relates to", nothing typed lost. */
export function registerMoreOptionsButton(app: App): void {
  app.action(
    ActionIds.moreOptions,
    buttonListener('more options', async ({ body, context }, deps) => {
      if (!body.view) return;
      await redrawActionForm(deps, { teamId: workspaceOf(context), userId: body.user.id }, body.view as FormViewPayload, true);
    }),
  );
}
