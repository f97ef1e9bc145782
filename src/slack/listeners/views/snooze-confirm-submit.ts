import type { App } from '@slack/bolt';
import { z } from 'zod';
import { isValidTimeZone } from '../../../time/zones.js';
import { EditOriginSchema } from '../../forms/action-form-meta.js';
import { CARE_ID, CallbackIds } from '../../ids.js';
import { damagedFormModal, messageModal } from '../../views/simple-modals.js';
import { SNOOZE_TITLE } from '../../views/snooze-modal.js';
import { finishSnooze } from './snooze-finish.js';
import { depsOf, workspaceOf } from '../../workspace-on-context.js';

const MetaSchema = z.object({
  actionId: z.string().regex(CARE_ID),
  tz: z.string().refine(isValidTimeZone),
  due: z.string().datetime(),
  origin: EditOriginSchema.optional(),
});

/**
 * "Snooze action #297 … to Mon 30 Nov 09:00?" (asked before a quick snooze on
 * a channel post) answered Snooze: the form closes, the action is snoozed to
 * the time it named, and the post says so (finishSnooze). A time that passed
 * while the question was open is not used: the person is asked to pick again.
 */
export function registerSnoozeConfirmSubmit(app: App): void {
  app.view(CallbackIds.snoozeConfirm, async ({ ack, body, view, context }) => {
    const deps = depsOf(context);
    const actor = { userId: body.user.id };
    const issued = MetaSchema.safeParse(
      deps.signedMetadata.decode(view.private_metadata, { teamId: workspaceOf(context), ...actor, form: CallbackIds.snoozeConfirm }),
    );
    if (!issued.success) {
      deps.logger.warn('refused a form whose private_metadata did not verify (forged, another person’s, or expired)', {
        form: CallbackIds.snoozeConfirm,
        userId: body.user.id,
      });
      await ack({ response_action: 'update', view: damagedFormModal(SNOOZE_TITLE) });
      return;
    }
    const meta = issued.data;
    const due = new Date(meta.due);
    if (due.getTime() <= deps.now().getTime()) {
      await ack({
        response_action: 'update',
        view: messageModal(SNOOZE_TITLE, 'That time passed while this was open, so nothing was changed. Pick Snooze on the post again.'),
      });
      return;
    }
    await ack();
    await finishSnooze(deps, { teamId: workspaceOf(context), ...actor }, { actionId: meta.actionId, due, tz: meta.tz, origin: meta.origin });
  });
}
