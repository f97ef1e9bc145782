import type { App, BlockAction, StaticSelectAction } from '@slack/bolt';
import { describeError } from '../../../services/errors.js';
import { parseApiDateTime } from '../../../time/slack-date.js';
import { EVENING_TIME, isSnoozeChoice, snoozeDue } from '../../../time/snooze.js';
import { localParts } from '../../../time/zones.js';
import type { SlackDeps } from '../../deps.js';
import { clickOrigin } from '../../edited-in-place.js';
import { ActionIds, CallbackIds, parseSnoozeOption } from '../../ids.js';
import { actionLabel } from '../../views/action-card.js';
import { loadingModal, messageModal } from '../../views/simple-modals.js';
import { SNOOZE_TITLE, type SnoozeMeta, snoozeModal } from '../../views/snooze-modal.js';
import { buttonListener, tellClicker } from '../error-policy.js';
import { refreshHomesAfterClick, showWhereClicked } from './complete-reopen.js';

const NOT_LINKED = 'Only people with a linked care account can snooze actions. Type `/care link` to link yours.';
const ALREADY_COMPLETE = 'That action is already complete, so it was not snoozed; the card now shows its current state.';

/** "Pick a date and time…": a "Loading…" modal at once (the trigger lives 3 s), then the form, filled from the action. */
async function openSnoozeForm(deps: SlackDeps, body: BlockAction<StaticSelectAction>, actionId: string, blockId: string): Promise<void> {
  const actor = { teamId: body.team?.id ?? '', userId: body.user.id };
  const opened = await deps.slack.views.open({ trigger_id: body.trigger_id, view: loadingModal(SNOOZE_TITLE) });
  const viewId = opened.view?.id;
  if (!viewId) return;
  try {
    const [tz, current] = await Promise.all([deps.profiles.tz(actor.userId), deps.actions.resolve({ type: 'id', id: actionId })]);
    if (current.completed) {
      await deps.slack.views.update({ view_id: viewId, view: messageModal(SNOOZE_TITLE, 'That action is already complete, so there is nothing to snooze.') });
      return;
    }
    const [view] = await deps.actions.views([current], actor.teamId);
    // Start from its due time when that is still ahead, else from tomorrow at the same time.
    const now = deps.now();
    const due = parseApiDateTime(current.due);
    const start = localParts(due && due > now ? due : snoozeDue('tomorrow', { now, due, tz }), tz);
    const origin = clickOrigin(body, blockId);
    const meta: SnoozeMeta = { actionId: current._id, tz, ...(origin ? { origin } : {}) };
    const sealed = deps.signedMetadata.encode(meta, { ...actor, form: CallbackIds.snoozeModal });
    await deps.slack.views.update({ view_id: viewId, view: snoozeModal(sealed, { label: actionLabel(view!), date: start.date, time: start.time, tz }) });
  } catch (err) {
    deps.logger.warn('could not open the snooze form', { error: err });
    await deps.slack.views.update({ view_id: viewId, view: messageModal(SNOOZE_TITLE, `:warning: ${describeError(err)}`) }).catch(() => undefined);
  }
}

/** The Snooze menu on every open card: a quick reschedule at once, or the date and time form. */
export function registerSnooze(app: App, deps: SlackDeps): void {
  app.action(
    ActionIds.snooze,
    buttonListener<StaticSelectAction>(deps, 'snooze', async ({ body, action, respond }) => {
      const picked = parseSnoozeOption(action.selected_option?.value);
      if (!picked) throw new Error('the Snooze menu sent an option it does not have');
      const actor = { teamId: body.team?.id ?? '', userId: body.user.id };
      if (!(await deps.identity.getLink(actor))) {
        await tellClicker(deps, body, respond, NOT_LINKED);
        return;
      }
      if (picked.choice === 'pick') {
        await openSnoozeForm(deps, body, picked.actionId, action.block_id);
        return;
      }
      const choice = picked.choice;
      if (!isSnoozeChoice(choice)) throw new Error('the Snooze menu sent an option it does not have');
      const [tz, now] = [await deps.profiles.tz(actor.userId), deps.now()];
      const result = await deps.actions.snooze(actor, picked.actionId, (due) => snoozeDue(choice, { now, due, tz }));
      const [view] = await deps.actions.views([result.action], actor.teamId);
      const note = !result.changed
        ? ALREADY_COMPLETE
        : choice === 'evening' && localParts(now, tz).time >= EVENING_TIME
          ? `It was already past ${EVENING_TIME}, so it is now due tomorrow at ${EVENING_TIME}.`
          : undefined;
      await showWhereClicked(deps, body, respond, view!, note);
      if (result.changed) await refreshHomesAfterClick(deps, body, view!);
    }),
  );
}
