import type { App } from '@slack/bolt';
import { ActionIds } from '../../ids.js';
import { safeRespond } from '../../respond.js';
import { showTasksAnswer } from '../../views/show-tasks.js';
import { buttonListener } from '../error-policy.js';

/** The button under `/care digest here … --show-tasks` in a public channel: an admin's second, explicit step. */
export function registerShowTasksButton(app: App): void {
  app.action(
    ActionIds.showTasksConfirm,
    buttonListener('show task text', async ({ body, action, respond }, deps) => {
      const actor = { userId: body.user.id };
      const channelId = body.channel?.id ?? body.container?.channel_id ?? '';
      const result = await deps.channelSetup.confirmShowTasks(actor, channelId, Number(action.value));
      await safeRespond(respond, { response_type: 'ephemeral', replace_original: true, text: showTasksAnswer(channelId, result) }, deps.logger);
    }),
  );
}
