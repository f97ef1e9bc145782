import type { App, types } from '@slack/bolt';
import { InvalidRequestError, type Action } from '../../../care/index.js';
import { UserFacingError } from '../../../services/errors.js';
import type { SlackDeps } from '../../deps.js';
import type { ActionFormValue } from '../../../services/action-model.js';
import { argErrorsToFields, FIELD_BLOCKS, onShownFields, parseActionForm } from '../../forms/action-form.js';
import { type ActionFormMeta, ActionFormMetaSchema } from '../../forms/action-form-meta.js';
import { checkDue } from '../../forms/due-check.js';
import { formStateOf } from '../../forms/form-state.js';
import { showEditedInPlace } from '../../edited-in-place.js';
import { isSharedConversation } from '../../surface.js';
import { refreshHomes } from '../../home-publisher.js';
import { CallbackIds, FieldIds } from '../../ids.js';
import { failedModal } from '../../modal-flow.js';
import { cutTaskError, isUntouchedCut } from '../../forms/task-limit.js';
import { actionCard, actionFallback } from '../../views/action-card.js';
import { actionModal } from '../../views/action-form-modal.js';
import { section } from '../../views/blocks.js';
import { escapeMrkdwn } from '../../text.js';
import { logFailure } from '../error-policy.js';
import { damagedFormModal, messageModal } from '../../views/simple-modals.js';
import { depsOf, workspaceOf } from '../../workspace-on-context.js';

type Meta = ActionFormMeta;

/** How long a submission waits for the care API before answering Slack with a "Saving…" view. */
const ACK_BUDGET_MS = 2000;

/** Saved; refused with words for the form's fields; or failed otherwise (said in the modal by the error policy). */
type Outcome = { ok: true; action: Action } | { ok: false; errors: Record<string, string> } | { ok: false; failure: unknown };

async function save(deps: SlackDeps, actor: { teamId: string; userId: string }, meta: Meta, form: ActionFormValue): Promise<Outcome> {
  try {
    const action = meta.mode === 'create' ? await deps.actions.create(actor, form) : await deps.actions.update(actor, meta.actionId!, form);
    return { ok: true, action };
  } catch (err) {
    if (err instanceof InvalidRequestError && Object.keys(err.argErrors).length) return { ok: false, errors: argErrorsToFields(err.argErrors) };
    if (err instanceof UserFacingError && err.field) return { ok: false, errors: { [FIELD_BLOCKS[err.field]]: err.message.slice(0, 150) } };
    logFailure(deps.logger, 'saving an action failed', err, { mode: meta.mode });
    return { ok: false, failure: err };
  }
}

/**
 * Tell the person it is done: in the thread it came from, else where they typed, else in a DM.
 *
 * Why posting in `meta.channelId` is allowed: the channel and thread were recorded from the
 * person's own interaction (the command they typed there, the message they ran the shortcut on,
 * the card they clicked Edit on), which Slack only sends from a conversation the person is in,
 * and the seal on the metadata proves the app recorded them for this person within the last
 * day. Slack offers no cheap "is this user a member" call (conversations.members pages through
 * the whole channel), so the seal is the check.
 */
async function confirm(deps: SlackDeps, actor: { teamId: string; userId: string }, meta: Meta, action: Action): Promise<void> {
  const [view] = await deps.actions.views([action], actor.teamId);
  const verb = meta.mode === 'create' ? 'Created' : 'Updated';
  const tz = meta.tz;
  // Assigned to someone on the rota who is not in Slack: no DM reaches them, and the person is told where they see it.
  const offSlack =
    view?.assignee && !view.assignee.slackUserId
      ? ` ${escapeMrkdwn(view.assignee.name ?? 'The assignee')} is not in Slack: they will see it in the care system.`
      : '';
  const channel = meta.channelId;
  if (channel && meta.threadTs) {
    const showTask = await deps.channels.showTasksIn(actor.teamId, channel);
    // A thread reply in a channel is a shared post: Complete asks first, and hidden text gets View.
    const ctx = { now: deps.now(), timezone: tz, showTask, shared: isSharedConversation(channel) };
    try {
      await deps.slack.chat.postMessage({
        channel,
        thread_ts: meta.threadTs,
        text: `${verb} by <@${actor.userId}>: ${actionFallback(view!, ctx)}`,
        blocks: [section(`:white_check_mark: ${verb} by <@${actor.userId}>${offSlack ? `.${offSlack}` : ''}`), ...actionCard(view!, ctx)],
      });
      return;
    } catch (err) {
      deps.logger.warn('could not confirm in the thread; sending a DM instead', { error: err });
    }
  }
  const ctx = { now: deps.now(), timezone: tz, showTask: true };
  const blocks = [section(`:white_check_mark: ${verb}.${offSlack}`), ...actionCard(view!, ctx)];
  if (channel && !channel.startsWith('D')) {
    try {
      await deps.slack.chat.postEphemeral({ channel, user: actor.userId, text: `${verb}: ${actionFallback(view!, ctx)}`, blocks });
      return;
    } catch {
      // not in that channel: fall through to a DM
    }
  }
  await deps.slack.chat.postMessage({ channel: actor.userId, text: `${verb}: ${actionFallback(view!, ctx)}`, blocks });
}

function resultView(outcome: Outcome, mode: 'create' | 'edit'): types.ModalView {
  const title = mode === 'create' ? 'New care action' : 'Edit care action';
  if (outcome.ok) return messageModal(title, ':white_check_mark: Saved.');
  if ('errors' in outcome)
    return messageModal(title, `:warning: The care system did not accept it: ${Object.values(outcome.errors).join(' ')} Please try again.`);
  return failedModal(title, outcome.failure);
}

export function registerActionFormSubmit(app: App): void {
  app.view(CallbackIds.actionModal, async ({ ack, body, view, context }) => {
    const deps = depsOf(context);
    const actor = { teamId: workspaceOf(context), userId: body.user.id };
    // Only metadata we sealed for this person and this form, not yet expired, is acted on: it names
    // where the confirmation is posted, which action an edit changes and which card is updated.
    const issued = ActionFormMetaSchema.safeParse(deps.signedMetadata.decode(view.private_metadata, { ...actor, form: CallbackIds.actionModal }));
    if (!issued.success || (issued.data.mode === 'edit' && !issued.data.actionId)) {
      deps.logger.warn('refused a form whose private_metadata did not verify (forged, another person’s, or expired)', {
        form: CallbackIds.actionModal,
        userId: body.user.id,
      });
      await ack({ response_action: 'update', view: damagedFormModal('Care action') });
      return;
    }
    const meta: Meta = issued.data;
    const shown = new Set(view.blocks.flatMap((b) => (b.type === 'input' && b.block_id ? [b.block_id] : [])));
    const parsed = parseActionForm(view.state.values, meta.tz, meta.mode, shown);
    if (parsed.ok && isUntouchedCut(parsed.value.task, meta.taskCut)) {
      await ack({ response_action: 'errors', errors: { [FieldIds.task]: cutTaskError(meta.taskCut!) } });
      return;
    }
    if (!parsed.ok) {
      await ack({ response_action: 'errors', errors: onShownFields(parsed.errors, shown) });
      return;
    }
    const check = checkDue(parsed.value.due, deps.now(), meta.tz, meta);
    if (check.kind === 'refuse') return void (await ack({ response_action: 'errors', errors: { [check.block]: check.message } }));
    if (check.kind === 'ask') {
      // Asked once: the form again, as entered, with the question under the due time; this due time is now sealed as checked.
      const asked: Meta = { ...meta, farAheadOk: parsed.value.due.toISOString() };
      const sealed = deps.signedMetadata.encode(asked, { ...actor, form: CallbackIds.actionModal });
      return void (await ack({ response_action: 'update', view: actionModal(asked, sealed, { ...formStateOf(view), dueNotice: check.message }) }));
    }
    // Wait briefly for the API so its arg_errors can show inline; past the budget, answer Slack and finish after.
    const saving = save(deps, actor, meta, parsed.value);
    const timer = new Promise<'late'>((r) => setTimeout(() => r('late'), ACK_BUDGET_MS).unref());
    const first = await Promise.race([saving, timer]);
    if (first !== 'late') {
      if (!first.ok && 'errors' in first) return void (await ack({ response_action: 'errors', errors: onShownFields(first.errors, shown) }));
      if (!first.ok) return void (await ack({ response_action: 'update', view: resultView(first, meta.mode) }));
      await ack();
    } else {
      await ack({
        response_action: 'update',
        view: messageModal(meta.mode === 'create' ? 'New care action' : 'Edit care action', ':hourglass_flowing_sand: Saving…'),
      });
    }
    const outcome = first === 'late' ? await saving : first;
    if (first === 'late') {
      await deps.slack.views
        .update({ view_id: view.id, view: resultView(outcome, meta.mode) })
        .catch((err) => deps.logger.warn('could not update the modal', { error: err }));
    }
    if (!outcome.ok) return;
    try {
      const [v] = await deps.actions.views([outcome.action], actor.teamId);
      const inPlace = meta.origin
        ? await showEditedInPlace(deps, actor, meta.origin, v!, meta.tz).catch((err) => {
            deps.logger.warn('could not update the edited card in place', { error: err });
            return false;
          })
        : false;
      if (!inPlace) await confirm(deps, actor, meta, outcome.action);
      await refreshHomes(deps, actor.teamId, [actor.userId, v?.assignee?.slackUserId]);
    } catch (err) {
      deps.logger.warn('could not confirm a saved action', { error: err });
    }
  });
}
