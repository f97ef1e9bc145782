import type { App, types } from '@slack/bolt';
import { z } from 'zod';
import { CallbackIds, FIELD_ACTION_ID, FieldIds, isCareId } from '../../ids.js';
import { ConfirmMetaSchema, confirmationView, progressStart, REASSIGN_TITLE, RotaPersonSchema, runReassign } from '../../reassign-flow.js';
import { failedModal } from '../modal-flow.js';
import { logFailure } from '../error-policy.js';
import { damagedFormModal, messageModal } from '../../views/simple-modals.js';
import { depsOf, workspaceOf } from '../../workspace-on-context.js';

const PickMetaSchema = z.object({ from: RotaPersonSchema });
type Values = Record<string, Record<string, { selected_option?: { value?: string } | null }>>;

/**
 * Reassign work's two submissions. The pick (who gets it, which of it): the
 * modal turns to "Counting…" at once, then to the confirmation. The
 * confirmation: the modal turns to "Moving…" at once, then shows how far it
 * has got and the exact result (reassign-flow.ts).
 */
export function registerReassignSubmit(app: App): void {
  app.view(CallbackIds.reassignPick, async ({ ack, body, view, context }) => {
    const deps = depsOf(context);
    const admin = { userId: body.user.id };
    const issued = PickMetaSchema.safeParse(
      deps.signedMetadata.decode(view.private_metadata, { teamId: workspaceOf(context), ...admin, form: CallbackIds.reassignPick }),
    );
    if (!issued.success) return void (await ack({ response_action: 'update', view: damagedFormModal(REASSIGN_TITLE) }));
    const values = view.state.values as Values;
    const toId = values[FieldIds.assignee]?.[FIELD_ACTION_ID]?.selected_option?.value ?? '';
    const scope = values[FieldIds.reassignScope]?.[FIELD_ACTION_ID]?.selected_option?.value ?? 'all';
    if (!isCareId(toId)) return void (await ack({ response_action: 'errors', errors: { [FieldIds.assignee]: 'Choose who gets the work from the list.' } }));
    if (scope !== 'all' && scope !== 'today' && scope !== 'overdue')
      return void (await ack({ response_action: 'errors', errors: { [FieldIds.reassignScope]: 'Choose which of the work moves.' } }));
    await ack({ response_action: 'update', view: messageModal(REASSIGN_TITLE, ':hourglass_flowing_sand: Counting what moves…') });
    let next: types.ModalView;
    try {
      const to = await deps.reassign.person({ type: 'care', id: toId });
      next = await confirmationView(deps, workspaceOf(context), admin, issued.data.from, to, scope);
    } catch (err) {
      logFailure(deps.logger, 'could not count a reassignment', err);
      next = failedModal(REASSIGN_TITLE, err);
    }
    await deps.slack.views.update({ view_id: view.id, view: next }).catch((err) => deps.logger.info('the reassignment modal was closed', { error: err }));
  });

  app.view(CallbackIds.reassignConfirm, async ({ ack, body, view, context }) => {
    const deps = depsOf(context);
    const admin = { userId: body.user.id };
    const issued = ConfirmMetaSchema.safeParse(
      deps.signedMetadata.decode(view.private_metadata, { teamId: workspaceOf(context), ...admin, form: CallbackIds.reassignConfirm }),
    );
    if (!issued.success) {
      deps.logger.warn('refused a form whose private_metadata did not verify (forged, another person’s, or expired)', {
        form: CallbackIds.reassignConfirm,
        userId: admin.userId,
      });
      return void (await ack({ response_action: 'update', view: damagedFormModal(REASSIGN_TITLE) }));
    }
    await ack({ response_action: 'update', view: progressStart(issued.data) });
    await runReassign(deps, workspaceOf(context), admin, issued.data, view.id);
  });
}
