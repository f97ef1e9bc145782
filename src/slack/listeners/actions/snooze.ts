import type { App, BlockAction, StaticSelectAction, types } from '@slack/bolt';
import { parseApiDateTime, slackDate } from '../../../time/slack-date.js';
import { EVENING_TIME, isSnoozeChoice, movesEarlier, type SnoozeChoice, snoozeDue } from '../../../time/snooze.js';
import { localParts } from '../../../time/zones.js';
import type { SlackDeps } from '../../deps.js';
import { clickOrigin } from '../../forms/edited-in-place.js';
import { ActionIds, CallbackIds, parseSnoozeOption } from '../../ids.js';
import { clickedOnSharedPost, clickedPostOf } from '../../surface.js';
import { actionLabel, assigneeText } from '../../views/action-card.js';
import { openThenFill } from '../modal-flow.js';
import { messageModal } from '../../views/simple-modals.js';
import { SNOOZE_TITLE, type SnoozeConfirmMeta, type SnoozeMeta, snoozeConfirmModal, snoozeModal } from '../../views/snooze-modal.js';
import type { Responder } from '../../respond.js';
import { buttonListener, tellClicker } from '../error-policy.js';
import { refreshHomesAfterClick, showWhereClicked } from '../after-click.js';
import { workspaceOf } from '../../workspace-on-context.js';

const NOT_LINKED = 'Only people with a linked care account can snooze actions. Type `/care link` to link yours.';
const ALREADY_COMPLETE = 'That action is already complete, so it was not snoozed; the card now shows its current state.';

type SnoozeClick = BlockAction<StaticSelectAction>;

type CareAction = Awaited<ReturnType<SlackDeps['actions']['resolve']>>;

/**
 * The form for one action (openThenFill: "Loading…" at once, the trigger lives 3 s), from what `fill`
 * makes of the action (read whole) in the clicker's zone; a complete action is said in the modal and
 * shown where it was clicked.
 */
async function openForAction(
  deps: SlackDeps,
  teamId: string,
  body: SnoozeClick,
  respond: Responder,
  actionId: string,
  fill: (ctx: { tz: string; current: CareAction }) => Promise<types.ModalView>,
): Promise<void> {
  const found: { complete?: CareAction } = {};
  const shown = await openThenFill(deps, { triggerId: body.trigger_id, title: SNOOZE_TITLE, log: 'could not open the snooze form' }, async () => {
    const [tz, current] = await Promise.all([deps.profiles.tz(body.user.id), deps.actions.resolve({ type: 'id', id: actionId })]);
    if (!current.completed) return fill({ tz, current });
    found.complete = current;
    return messageModal(SNOOZE_TITLE, 'That action is already complete, so there is nothing to snooze.');
  });
  if (shown && found.complete) {
    const [view] = await deps.actions.views([found.complete]);
    await showWhereClicked(deps, teamId, body, respond, view!);
  }
}

/**
 * "Pick a date and time…": the form, starting at the action's due time when that is still ahead,
 * else tomorrow at the same time. From a channel post it names the assignee and says everyone sees it.
 */
async function openSnoozeForm(deps: SlackDeps, teamId: string, body: SnoozeClick, respond: Responder, actionId: string, blockId: string): Promise<void> {
  const actor = { userId: body.user.id };
  await openForAction(deps, teamId, body, respond, actionId, async ({ tz, current }) => {
    const [view] = await deps.actions.views([current]);
    const now = deps.now();
    const due = parseApiDateTime(current.due);
    const start = localParts(due && due > now ? due : snoozeDue('tomorrow', { now, due, tz }), tz);
    const origin = clickOrigin(body, blockId);
    const meta: SnoozeMeta = { actionId: current._id, tz, ...(origin ? { origin } : {}) };
    const sealed = deps.signedMetadata.encode(meta, { teamId, ...actor, form: CallbackIds.snoozeModal });
    const shared = clickedOnSharedPost(body) ? { shared: { assignee: view!.assignee ? assigneeText(view!) : null } } : {};
    return snoozeModal(sealed, { label: actionLabel(view!), date: start.date, time: start.time, tz, ...shared });
  });
}

/**
 * A quick snooze on a channel post asks first, naming the action, its assignee and the new due time
 * (worked out now, in the clicker's zone); Snooze there snoozes it (snooze-confirm-submit.ts).
 */
async function askBeforeSnooze(
  deps: SlackDeps,
  teamId: string,
  body: SnoozeClick,
  respond: Responder,
  actionId: string,
  choice: SnoozeChoice,
  blockId: string,
): Promise<void> {
  const actor = { userId: body.user.id };
  await openForAction(deps, teamId, body, respond, actionId, async ({ tz, current }) => {
    const [view] = await deps.actions.views([current]);
    const dueNow = parseApiDateTime(current.due);
    const due = snoozeDue(choice, { now: deps.now(), due: dueNow, tz });
    const origin = clickOrigin(body, blockId);
    const meta: SnoozeConfirmMeta = { actionId: current._id, tz, due: due.toISOString(), ...(origin ? { origin } : {}) };
    const sealed = deps.signedMetadata.encode(meta, { teamId, ...actor, form: CallbackIds.snoozeConfirm });
    const earlierThan = movesEarlier(dueNow, due) ? dueNow! : undefined;
    return snoozeConfirmModal(sealed, { label: actionLabel(view!), assignee: view!.assignee ? assigneeText(view!) : null, due, tz, earlierThan });
  });
}

/**
 * The Snooze menu on every open card. On the person's own cards (ephemeral answers, DMs, the Home tab) a
 * quick reschedule happens at once; on a channel post it asks first (askBeforeSnooze). "Pick a date and
 * time…" opens the form.
 */
export function registerSnooze(app: App): void {
  app.action(
    ActionIds.snooze,
    buttonListener<StaticSelectAction>('snooze', async ({ body, action, respond, context }, deps) => {
      const picked = parseSnoozeOption(action.selected_option?.value);
      if (!picked) throw new Error('the Snooze menu sent an option it does not have');
      const actor = { userId: body.user.id };
      if (!(await deps.identity.getLink(actor))) {
        await tellClicker(deps, body, respond, NOT_LINKED);
        return;
      }
      if (picked.choice === 'pick') {
        await openSnoozeForm(deps, workspaceOf(context), body, respond, picked.actionId, action.block_id);
        return;
      }
      const choice = picked.choice;
      if (!isSnoozeChoice(choice)) throw new Error('the Snooze menu sent an option it does not have');
      if (clickedOnSharedPost(body)) {
        await askBeforeSnooze(deps, workspaceOf(context), body, respond, picked.actionId, choice, action.block_id);
        return;
      }
      const [tz, now] = [await deps.profiles.tz(actor.userId), deps.now()];
      const result = await deps.actions.snooze({ ...actor, at: clickedPostOf(body) }, picked.actionId, (due) => snoozeDue(choice, { now, due, tz }));
      const [view] = await deps.actions.views([result.action]);
      const note = !result.changed
        ? ALREADY_COMPLETE
        : result.earlier && view!.due
          ? `That brings it forward: due moved earlier to ${slackDate(view!.due, tz)}.`
          : choice === 'evening' && localParts(now, tz).time >= EVENING_TIME
            ? `It was already past ${EVENING_TIME}, so it is now due tomorrow at ${EVENING_TIME}.`
            : undefined;
      await showWhereClicked(deps, workspaceOf(context), body, respond, view!, note);
      if (result.changed) await refreshHomesAfterClick(deps, workspaceOf(context), body, view!);
    }),
  );
}
