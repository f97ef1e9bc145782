import type { App } from '@slack/bolt';
import { z } from 'zod';
import { publishHome } from '../../home-publisher.js';
import { CallbackIds, FIELD_ACTION_ID, FieldIds } from '../../ids.js';
import { damagedFormModal } from '../../views/simple-modals.js';
import { CLOCK_TIME } from '../../views/summary-setting.js';
import { fieldError } from '../error-policy.js';
import { depsOf, workspaceOf } from '../../workspace-on-context.js';

const MetaSchema = z.object({ from: z.literal('home') });
const FormSchema = z.object({
  time: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/),
  days: z.enum(['weekdays', 'daily']),
  /** "clock": the time field; "shift" or "shift:<name>": that shift start (time/start-time.ts). */
  when: z
    .string()
    .regex(/^(clock|shift(:.{1,24})?)$/u)
    .optional(),
});

/** The morning summary form: save the time and days (turning it on), then refresh the Home tab. */
export function registerSummaryModal(app: App): void {
  app.view(CallbackIds.summaryModal, async ({ ack, body, view, context }) => {
    const deps = depsOf(context);
    const actor = { userId: body.user.id };
    const issued = MetaSchema.safeParse(
      deps.signedMetadata.decode(view.private_metadata, { teamId: workspaceOf(context), ...actor, form: CallbackIds.summaryModal }),
    );
    if (!issued.success) {
      deps.logger.warn('refused a form whose private_metadata did not verify (forged, another person’s, or expired)', {
        form: CallbackIds.summaryModal,
        userId: body.user.id,
      });
      await ack({ response_action: 'update', view: damagedFormModal('Morning summary') });
      return;
    }
    const values = view.state.values;
    const form = FormSchema.safeParse({
      time: values[FieldIds.summaryTime]?.[FIELD_ACTION_ID]?.selected_time,
      days: values[FieldIds.summaryDays]?.[FIELD_ACTION_ID]?.selected_option?.value,
      when: values[FieldIds.summaryWhen]?.[FIELD_ACTION_ID]?.selected_option?.value,
    });
    if (!form.success) {
      const bad = new Set(form.error.issues.map((i) => i.path[0]));
      await ack({
        response_action: 'errors',
        errors: bad.has('time') ? { [FieldIds.summaryTime]: 'Pick a time.' } : { [FieldIds.summaryDays]: 'Pick weekdays or every day.' },
      });
      return;
    }
    try {
      const { when, days } = form.data;
      await deps.summaries.set(actor, { time: when && when !== CLOCK_TIME ? when : form.data.time, days });
      await ack();
    } catch (err) {
      await ack({ response_action: 'errors', errors: { [FieldIds.summaryTime]: fieldError(deps.logger, 'saving a morning summary failed', err) } });
      return;
    }
    await publishHome(deps, workspaceOf(context), actor.userId);
  });
}
