import type { SlackDeps } from '../deps.js';
import { ActionFormMetaSchema } from './action-form-meta.js';
import { formStateOf } from './form-state.js';
import { CallbackIds } from '../ids.js';
import { actionModal } from '../views/action-form-modal.js';
import { damagedFormModal } from '../views/simple-modals.js';

/** The part of a block_actions payload's `view` the form is drawn again from. */
export interface FormViewPayload {
  id: string;
  hash?: string;
  callback_id?: string;
  private_metadata?: string;
  blocks?: readonly unknown[];
  state?: { values?: unknown };
}

/**
 * Draw the open action form again (views.update with the view's id and hash):
 * what the person entered is kept (read from the view's state) and so is the
 * sealed private_metadata, which must verify for this person first.
 * `more` shows pin, reminders and "relates to".
 */
export async function redrawActionForm(deps: SlackDeps, actor: { teamId: string; userId: string }, view: FormViewPayload, more = false): Promise<void> {
  if (view.callback_id !== CallbackIds.actionModal) return;
  const meta = ActionFormMetaSchema.safeParse(deps.signedMetadata.decode(view.private_metadata, { ...actor, form: CallbackIds.actionModal }));
  if (!meta.success) {
    deps.logger.warn('refused to redraw a form whose private_metadata did not verify', { form: CallbackIds.actionModal, userId: actor.userId });
    await deps.slack.views.update({ view_id: view.id, view: damagedFormModal('Care action') });
    return;
  }
  const state = formStateOf(view);
  const drawn = actionModal(meta.data, view.private_metadata ?? '', { ...state, more: more || state.more === true });
  try {
    await deps.slack.views.update({ view_id: view.id, ...(view.hash ? { hash: view.hash } : {}), view: drawn });
  } catch (err) {
    if ((err as { data?: { error?: string } }).data?.error !== 'hash_conflict') throw err;
    // An earlier change redrew the form after this one was made (two quick choices): this state is the newer,
    // and Slack keeps what was entered in every input that is still there.
    deps.logger.info('the form was redrawn meanwhile; drawing it again with the newer choices', {});
    await deps.slack.views.update({ view_id: view.id, view: drawn });
  }
}
