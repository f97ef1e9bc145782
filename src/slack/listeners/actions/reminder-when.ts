import type { App, BlockAction, BlockElementAction } from '@slack/bolt';
import { FIELD_ACTION_ID, REMINDER_WHEN_BLOCK } from '../../ids.js';
import { type FormViewPayload, redrawActionForm } from '../../forms/redraw-action-form.js';
import { buttonListener } from '../error-policy.js';
import { workspaceOf } from '../../workspace-on-context.js';

/** A reminder's "when" changed in the action form: drawn again, with a time picker for "at a time of day". */
export function registerReminderWhen(app: App): void {
  app.action<BlockAction>(
    { type: 'block_actions', block_id: REMINDER_WHEN_BLOCK, action_id: FIELD_ACTION_ID },
    buttonListener<BlockElementAction>('reminder when', async ({ body, context }, deps) => {
      if (!body.view) return;
      await redrawActionForm(deps, { teamId: workspaceOf(context), userId: body.user.id }, body.view as FormViewPayload);
    }),
  );
}
