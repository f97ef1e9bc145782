import type { App } from '@slack/bolt';
import { z } from 'zod';
import { isHhMm, isIsoDate, isValidTimeZone, zonedToUtc } from '../../../time/zones.js';
import { EditOriginSchema } from '../../forms/action-form-meta.js';
import { CARE_ID, CallbackIds, FIELD_ACTION_ID, FieldIds } from '../../ids.js';
import { damagedFormModal } from '../../views/simple-modals.js';
import { SNOOZE_TITLE } from '../../views/snooze-modal.js';
import { finishSnooze } from './snooze-finish.js';
import { depsOf, workspaceOf } from '../../workspace-on-context.js';

const MetaSchema = z.object({
  actionId: z.string().regex(CARE_ID),
  tz: z.string().refine(isValidTimeZone),
  origin: EditOriginSchema.optional(),
});

type Values = Record<string, Record<string, { selected_date?: string | null; selected_time?: string | null }>>;

/** The picked date and time on the person's wall clock, or the inline errors. A snooze goes forward: the past is refused. */
export function parseSnoozeForm(values: Values, tz: string, now: Date): { ok: true; due: Date } | { ok: false; errors: Record<string, string> } {
  const date = values[FieldIds.dueDate]?.[FIELD_ACTION_ID]?.selected_date ?? '';
  const time = values[FieldIds.dueTime]?.[FIELD_ACTION_ID]?.selected_time ?? '';
  const errors: Record<string, string> = {};
  if (!isIsoDate(date)) errors[FieldIds.dueDate] = 'Pick the day it should be due.';
  if (!isHhMm(time)) errors[FieldIds.dueTime] = 'Pick the time it should be due.';
  if (Object.keys(errors).length) return { ok: false, errors };
  const due = zonedToUtc(date, time, tz);
  if (due.getTime() <= now.getTime()) return { ok: false, errors: { [FieldIds.dueTime]: 'That time has passed: pick a later one.' } };
  return { ok: true, due };
}

/** The snooze form: closes at once when the date and time are sound, then snoozes and updates the card it came from (finishSnooze). */
export function registerSnoozeSubmit(app: App): void {
  app.view(CallbackIds.snoozeModal, async ({ ack, body, view, context }) => {
    const deps = depsOf(context);
    const actor = { userId: body.user.id };
    const issued = MetaSchema.safeParse(
      deps.signedMetadata.decode(view.private_metadata, { teamId: workspaceOf(context), ...actor, form: CallbackIds.snoozeModal }),
    );
    if (!issued.success) {
      deps.logger.warn('refused a form whose private_metadata did not verify (forged, another person’s, or expired)', {
        form: CallbackIds.snoozeModal,
        userId: body.user.id,
      });
      await ack({ response_action: 'update', view: damagedFormModal(SNOOZE_TITLE) });
      return;
    }
    const meta = issued.data;
    const parsed = parseSnoozeForm(view.state.values as Values, meta.tz, deps.now());
    if (!parsed.ok) {
      await ack({ response_action: 'errors', errors: parsed.errors });
      return;
    }
    await ack();
    await finishSnooze(deps, { teamId: workspaceOf(context), ...actor }, { actionId: meta.actionId, due: parsed.due, tz: meta.tz, origin: meta.origin });
  });
}
