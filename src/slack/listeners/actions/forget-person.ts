import type { App } from '@slack/bolt';
import { ActionIds } from '../../ids.js';
import { safeRespond } from '../../respond.js';
import { FORGET_CANCELLED, forgottenText } from '../../views/person-data.js';
import { buttonListener } from '../error-policy.js';

/** "Forget <name>" and "Cancel" under `/care forget @person`'s question: the answer replaces the question. */
export function registerForgetPersonButtons(app: App): void {
  app.action(
    ActionIds.forgetPerson,
    buttonListener('forget person', async ({ body, action, respond }, deps) => {
      const admin = { userId: body.user.id };
      const target = action.value ?? '';
      const counts = await deps.personData.erase(admin, target);
      await safeRespond(respond, { response_type: 'ephemeral', replace_original: true, text: forgottenText(target, counts) }, deps.logger);
    }),
  );
  app.action(
    ActionIds.forgetCancel,
    buttonListener('forget cancelled', async ({ respond }, deps) => {
      await safeRespond(respond, { response_type: 'ephemeral', replace_original: true, text: FORGET_CANCELLED }, deps.logger);
    }),
  );
}
