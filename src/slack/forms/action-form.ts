import { z } from 'zod';
import { isHhMm, isIsoDate, zonedToUtc } from '../../time/zones.js';
import type { ActionField, ActionFormValue, ReminderValue } from '../../services/action-model.js';
import { FIELD_ACTION_ID, FieldIds as F, isCareId, reminderFieldIds } from '../ids.js';
import { clean } from '../text.js';
import { TASK_MAX, tooLongTaskError } from './task-limit.js';
import { NO_REMINDER, REMINDER_MINUTES, REMINDER_METHODS } from '../views/action-form-modal.js';
import { cut } from '../cut.js';

/** Slack's view.state.values: block_id -> action_id -> element state. */
export type ViewStateValues = Record<string, Record<string, ViewElementState>>;
export interface ViewElementState {
  type?: string;
  value?: string | null;
  selected_date?: string | null;
  selected_time?: string | null;
  selected_user?: string | null;
  selected_option?: { value: string } | null;
  selected_options?: { value: string }[];
}

export type FormResult = { ok: true; value: ActionFormValue } | { ok: false; errors: Record<string, string> };

const get = (values: ViewStateValues, block: string): ViewElementState | undefined => values[block]?.[FIELD_ACTION_ID];
const METHODS = new Set<string>(REMINDER_METHODS.map(([v]) => v));

// Shape check first: whatever arrives (a hostile client, a Slack change), only strings get through.
const ElementSchema = z.looseObject({
  value: z.string().nullish(),
  selected_date: z.string().nullish(),
  selected_time: z.string().nullish(),
  selected_user: z.string().nullish(),
  selected_option: z.looseObject({ value: z.string() }).nullish(),
  selected_options: z.array(z.looseObject({ value: z.string() })).optional(),
});
const ValuesSchema = z.record(z.string(), z.record(z.string(), ElementSchema));

/**
 * Validate a submitted action form; errors are keyed by input block_id for Slack's inline display.
 * `shown` is the input blocks the form showed (values of any other block are ignored: a
 * field the person never saw is unset, and an error can only go under a field that is there).
 */
export function parseActionForm(raw: unknown, timezone: string, mode: 'create' | 'edit', shown?: ReadonlySet<string>): FormResult {
  const parsed = ValuesSchema.safeParse(raw);
  if (!parsed.success) return { ok: false, errors: { [F.task]: 'The form arrived damaged; please close it and try again.' } };
  const all = parsed.data as ViewStateValues;
  const values: ViewStateValues = shown ? Object.fromEntries(Object.entries(all).filter(([block]) => shown.has(block))) : all;
  const isShown = (block: string) => !shown || shown.has(block);
  const errors: Record<string, string> = {};

  const task = clean(get(values, F.task)?.value ?? '').trim();
  if (!task) errors[F.task] = 'Say what needs doing.';
  else if (task.length > TASK_MAX) errors[F.task] = tooLongTaskError(task.length);

  const date = get(values, F.dueDate)?.selected_date ?? '';
  const time = get(values, F.dueTime)?.selected_time ?? '';
  if (!isIsoDate(date)) errors[F.dueDate] = 'Pick the day it is due.';
  if (!isHhMm(time)) errors[F.dueTime] = 'Pick the time it is due.';

  const picked = get(values, F.assignee)?.selected_option?.value ?? null;
  const assignee = picked && isCareId(picked) ? picked : null;
  if (picked && !assignee) errors[F.assignee] = 'Choose someone from the list.';
  const urgent = (get(values, F.urgent)?.selected_options ?? []).some((o) => o.value === 'urgent');
  const pinValue = get(values, F.pin)?.selected_option?.value ?? 'none';
  const pin = pinValue === 'location' || pinValue === 'user' ? pinValue : null;
  const notify = (get(values, F.notify)?.selected_options ?? []).map((o) => o.value).filter(isCareId);

  const reminders: ReminderValue[] = [];
  for (const i of [0, 1] as const) {
    const ids = reminderFieldIds(i);
    const method = get(values, ids.method)?.selected_option?.value;
    const when = get(values, ids.when)?.selected_option?.value ?? 'none';
    const at = get(values, ids.time)?.selected_time ?? undefined;
    if (method === NO_REMINDER) continue;
    if (!method) {
      if (when !== 'none') errors[ids.method] = 'Choose how to remind, or "No reminder".';
      continue;
    }
    if (!METHODS.has(method)) errors[ids.method] = 'Choose one of the listed ways.';
    const delta = /^delta:(\d{1,3})$/.exec(when);
    if (delta) {
      const minutes = Number(delta[1]);
      if (!(REMINDER_MINUTES as readonly number[]).includes(minutes)) errors[ids.when] = 'Choose one of the listed times.';
      else reminders.push({ method, offset_type: 'delta', offset_delta: minutes });
    } else if (when === 'time') {
      if (!at || !isHhMm(at)) errors[isShown(ids.time) ? ids.time : ids.when] = 'Choose the time of day.';
      else reminders.push({ method, offset_type: 'time', offset_time_str: at });
    } else if (when === 'none') reminders.push({ method, offset_type: 'none' });
    else errors[ids.when] = 'Choose one of the listed times.';
  }

  let subject: ActionFormValue['subject'] = null;
  const twoStaff = mode === 'create' && (get(values, F.twoStaff)?.selected_options ?? []).some((o) => o.value === 'two-staff');
  if (mode === 'create') {
    const type = get(values, F.subjectType)?.selected_option?.value ?? 'none';
    const id = (get(values, F.subject)?.value ?? '').trim().toLowerCase();
    if (id && !isCareId(id)) errors[F.subject] = 'An Id is 24 letters (a–f) and digits.';
    else if (id && type !== 'care_enquiry' && type !== 'service_user') errors[F.subjectType] = 'Say whether the Id is a care enquiry or a service user.';
    else if (!id && (type === 'care_enquiry' || type === 'service_user'))
      errors[isShown(F.subject) ? F.subject : F.subjectType] = 'Give the Id, or choose "Nothing in particular".';
    else if (id) subject = { type: type as 'care_enquiry' | 'service_user', id };
  }

  if (Object.keys(errors).length) return { ok: false, errors };
  return {
    ok: true,
    value: {
      task,
      due: zonedToUtc(date, time, timezone),
      assigneeCareUserId: assignee,
      urgent,
      pin,
      notify,
      reminders,
      subject,
      ...(twoStaff ? { twoStaff } : {}),
    },
  };
}

/** Map the API's arg_errors (parameter names) onto the modal's input blocks. */
export function argErrorsToFields(argErrors: Record<string, string[]>): Record<string, string> {
  const map: Record<string, string> = {
    task: F.task,
    due: F.dueDate,
    assigned_to: F.assignee,
    urgent: F.urgent,
    pin_to_calendar: F.pin,
    notify_on_complete: F.notify,
    care_enquiry: F.subject,
    service_user: F.subject,
  };
  const reminderPart = { method: 'method', offset_type: 'when', offset_delta: 'when', offset_time_str: 'time' } as const;
  const out: Record<string, string> = {};
  for (const [param, messages] of Object.entries(argErrors)) {
    const m = /^reminders_([01])-(method|offset_type|offset_delta|offset_time_str)$/.exec(param);
    const block = m ? reminderFieldIds(Number(m[1]) as 0 | 1)[reminderPart[m[2] as keyof typeof reminderPart]] : (map[param] ?? F.task);
    const text = cut(messages.join(' '), 150, { mrkdwn: false }) || 'The care system did not accept this.';
    out[block] = out[block] ? cut(`${out[block]} ${text}`, 150, { mrkdwn: false }) : text;
  }
  return out;
}

/** Errors moved onto fields the form shows (an error under a block that is not there would be refused by Slack). */
export function onShownFields(errors: Record<string, string>, shown: ReadonlySet<string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [block, message] of Object.entries(errors)) {
    const at = shown.has(block) ? block : F.task;
    out[at] = out[at] ? cut(`${out[at]} ${message}`, 150, { mrkdwn: false }) : message;
  }
  return out;
}

/** The input block that shows a refusal about one of the form's fields. */
export const FIELD_BLOCKS: Record<ActionField, string> = {
  task: F.task,
  due: F.dueDate,
  assignee: F.assignee,
  urgent: F.urgent,
  pin: F.pin,
  notify: F.notify,
  subject: F.subject,
};
