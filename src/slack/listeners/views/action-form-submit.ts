import type { App, types } from '@slack/bolt';
import { InvalidRequestError, type Action } from '../../../care/index.js';
import { UserFacingError } from '../../../services/errors.js';
import type { SlackDeps } from '../../deps.js';
import type { ActionFormValue } from '../../../services/action-model.js';
import { argErrorsToFields, FIELD_BLOCKS, onShownFields, parseActionForm } from '../../forms/action-form.js';
import { type ActionFormMeta, ActionFormMetaSchema } from '../../forms/action-form-meta.js';
import { checkDue } from '../../forms/due-check.js';
import { formStateOf } from '../../forms/form-state.js';
import { confirmSaved } from '../../forms/confirm-saved.js';
import { showEditedInPlace } from '../../forms/edited-in-place.js';
import { isSharedConversation } from '../../surface.js';
import { editedBy } from '../../forms/edit-changed-by.js';
import { editDigest, sharedEditChanges } from '../../forms/edit-question.js';
import { refreshHomes } from '../../home-publisher.js';
import { CallbackIds, FieldIds } from '../../ids.js';
import { failedModal } from '../modal-flow.js';
import { cutTaskError, isUntouchedCut } from '../../forms/task-limit.js';
import { actionModal } from '../../views/action-form-modal.js';
import { logFailure } from '../error-policy.js';
import { damagedFormModal, messageModal } from '../../views/simple-modals.js';
import { depsOf, workspaceOf } from '../../workspace-on-context.js';
import { cut } from '../../cut.js';

type Meta = ActionFormMeta;

/** How long a submission waits for the care API before answering Slack with a "Saving…" view. */
const ACK_BUDGET_MS = 2000;

/** Saved; refused with words for the form's fields; or failed otherwise (said in the modal by the error policy). */
type Outcome = { ok: true; action: Action; before?: Action } | { ok: false; errors: Record<string, string> } | { ok: false; failure: unknown };

async function save(deps: SlackDeps, actor: { teamId: string; userId: string }, meta: Meta, form: ActionFormValue): Promise<Outcome> {
  try {
    if (meta.mode === 'create') {
      const action = await deps.actions.create(actor, form);
      // More options' "Needs two staff": kept by the app (audited); the action is saved whatever becomes of the mark.
      if (form.twoStaff)
        await deps.answers.setTwoStaff(actor, action._id, true).catch((err) => logFailure(deps.logger, 'marking an action as needing two staff failed', err));
      return { ok: true, action };
    }
    // The card it was edited from is drawn there by this listener (every other post follows by itself).
    const at = meta.origin?.ts ? { channel: meta.origin.channel, ts: meta.origin.ts } : undefined;
    return { ok: true, ...(await deps.actions.update({ ...actor, at }, meta.actionId!, form)) };
  } catch (err) {
    if (err instanceof InvalidRequestError && Object.keys(err.argErrors).length) return { ok: false, errors: argErrorsToFields(err.argErrors) };
    if (err instanceof UserFacingError && err.field) return { ok: false, errors: { [FIELD_BLOCKS[err.field]]: cut(err.message, 150, { mrkdwn: false }) } };
    logFailure(deps.logger, 'saving an action failed', err, { mode: meta.mode });
    return { ok: false, failure: err };
  }
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
    const actor = { userId: body.user.id };
    // Only metadata we sealed for this person and this form, not yet expired, is acted on: it names
    // where the confirmation is posted, which action an edit changes and which card is updated.
    const issued = ActionFormMetaSchema.safeParse(
      deps.signedMetadata.decode(view.private_metadata, { teamId: workspaceOf(context), ...actor, form: CallbackIds.actionModal }),
    );
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
      const sealed = deps.signedMetadata.encode(asked, { teamId: workspaceOf(context), ...actor, form: CallbackIds.actionModal });
      return void (await ack({ response_action: 'update', view: actionModal(asked, sealed, { ...formStateOf(view), dueNotice: check.message }) }));
    }
    if (meta.mode === 'edit' && meta.shared) {
      // From a channel post: a new assignee, due time or urgency is asked about once, naming what changes.
      const state = formStateOf(view);
      const edits = sharedEditChanges(meta.shared, meta.dueWas, parsed.value, state.assignee?.label, meta.tz);
      const digest = editDigest(parsed.value);
      if (edits && meta.editOk !== digest) {
        const asked: Meta = { ...meta, editOk: digest };
        const sealed = deps.signedMetadata.encode(asked, { teamId: workspaceOf(context), ...actor, form: CallbackIds.actionModal });
        return void (await ack({ response_action: 'update', view: actionModal(asked, sealed, { ...state, editQuestion: edits }) }));
      }
    }
    // Wait briefly for the API so its arg_errors can show inline; past the budget, answer Slack and finish after.
    const saving = save(deps, { teamId: workspaceOf(context), ...actor }, meta, parsed.value);
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
      const [v] = await deps.actions.views([outcome.action]);
      // Saved from a channel post: the post says who edited it and what changed, with Undo (and never an older "Undone by").
      const onPost = outcome.before && meta.origin?.ts && isSharedConversation(meta.origin.channel);
      const changedBy = onPost ? await editedBy(deps, { teamId: workspaceOf(context), ...actor }, outcome.before!, outcome.action, meta.tz) : undefined;
      const inPlace = meta.origin
        ? await showEditedInPlace(deps, { teamId: workspaceOf(context), ...actor }, meta.origin, v!, meta.tz, changedBy).catch((err) => {
            deps.logger.warn('could not update the edited card in place', { error: err });
            return false;
          })
        : false;
      if (!inPlace) await confirmSaved(deps, { teamId: workspaceOf(context), ...actor }, meta, outcome.action);
      await refreshHomes(deps, workspaceOf(context), [actor.userId, v?.assignee?.slackUserId]);
    } catch (err) {
      deps.logger.warn('could not confirm a saved action', { error: err });
    }
  });
}
