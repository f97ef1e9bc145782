import type { App } from '@slack/bolt';
import { SUMMARY_DEFAULTS } from '../../../services/shift-work/summary-settings.js';
import { publishHome } from '../../home-publisher.js';
import { ActionIds, CallbackIds } from '../../ids.js';
import { openThenFill } from '../modal-flow.js';
import { summaryModal } from '../../views/summary-setting.js';
import { buttonListener } from '../error-policy.js';
import { workspaceOf } from '../../workspace-on-context.js';

const TITLE = 'Morning summary';

/** The Home tab's morning summary row: Change / Turn on (a small form) and Turn off. */
export function registerSummaryButtons(app: App): void {
  app.action(
    ActionIds.summaryChange,
    buttonListener('summary change', async ({ body, context }, deps) => {
      const actor = { userId: body.user.id };
      // The trigger lives 3 s: open first, then read the setting and the person's zone (a Slack call).
      await openThenFill(deps, { triggerId: body.trigger_id, title: TITLE, log: 'could not fill the summary form' }, async () => {
        const status = await deps.summaries.status(actor);
        const sealed = deps.signedMetadata.encode({ from: 'home' }, { teamId: workspaceOf(context), ...actor, form: CallbackIds.summaryModal });
        return summaryModal(CallbackIds.summaryModal, sealed, status, SUMMARY_DEFAULTS);
      });
    }),
  );

  app.action(
    ActionIds.summaryOff,
    buttonListener('summary off', async ({ body, context }, deps) => {
      const actor = { userId: body.user.id };
      await deps.summaries.turnOff(actor);
      await publishHome(deps, workspaceOf(context), actor.userId);
    }),
  );
}
