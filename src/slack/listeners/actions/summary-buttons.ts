import type { App } from '@slack/bolt';
import { describeError } from '../../../services/errors.js';
import { SUMMARY_DEFAULTS } from '../../../services/summary-settings.js';
import type { SlackDeps } from '../../deps.js';
import { publishHome } from '../../home-publisher.js';
import { ActionIds, CallbackIds } from '../../ids.js';
import { loadingModal, messageModal } from '../../views/simple-modals.js';
import { summaryModal } from '../../views/summary-setting.js';
import { buttonListener, logFailure } from '../error-policy.js';

const TITLE = 'Morning summary';

/** The Home tab's morning summary row: Change / Turn on (a small form) and Turn off. */
export function registerSummaryButtons(app: App, deps: SlackDeps): void {
  app.action(
    ActionIds.summaryChange,
    buttonListener(deps, 'summary change', async ({ body }) => {
      const actor = { teamId: body.team?.id ?? '', userId: body.user.id };
      // The trigger lives 3 s: open first, then read the setting and the person's zone (a Slack call).
      const opened = await deps.slack.views.open({ trigger_id: body.trigger_id, view: loadingModal(TITLE) });
      const viewId = opened.view?.id;
      if (!viewId) return;
      try {
        const status = await deps.summaries.status(actor);
        const sealed = deps.signedMetadata.encode({ from: 'home' }, { ...actor, form: CallbackIds.summaryModal });
        await deps.slack.views.update({ view_id: viewId, view: summaryModal(CallbackIds.summaryModal, sealed, status, SUMMARY_DEFAULTS) });
      } catch (err) {
        logFailure(deps.logger, 'could not fill the summary form', err);
        await deps.slack.views.update({ view_id: viewId, view: messageModal(TITLE, `:warning: ${describeError(err)}`) }).catch(() => undefined);
      }
    }),
  );

  app.action(
    ActionIds.summaryOff,
    buttonListener(deps, 'summary off', async ({ body }) => {
      const actor = { teamId: body.team?.id ?? '', userId: body.user.id };
      await deps.summaries.turnOff(actor);
      await publishHome(deps, actor.teamId, actor.userId);
    }),
  );
}
