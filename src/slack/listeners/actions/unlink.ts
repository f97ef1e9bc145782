import type { App } from '@slack/bolt';
import { publishHome } from '../../home-publisher.js';
import { ActionIds } from '../../ids.js';
import { safeRespond } from '../../respond.js';
import { buttonListener } from '../error-policy.js';
import { workspaceOf } from '../../workspace-on-context.js';

/** "Unlink" beside a row of `/care links` (admins). */
export function registerUnlinkButton(app: App): void {
  app.action(
    ActionIds.unlink,
    buttonListener('unlink', async ({ body, action, respond, context }, deps) => {
      const actor = { userId: body.user.id };
      const target = action.value ?? '';
      const removed = await deps.identity.unlink(actor, target);
      await safeRespond(
        respond,
        { response_type: 'ephemeral', replace_original: false, text: removed ? `<@${target}> is unlinked.` : 'That link was already gone.' },
        deps.logger,
      );
      if (removed) await publishHome(deps, workspaceOf(context), target);
    }),
  );
}
