/**
 * The form data of an action create/update: typed input -> flat wire params.
 * Reminders become `reminders_<i>-<field>`, booleans follow the presence rule,
 * `due` is a UTC date/time.
 */
import type { WireValue } from '../signing.js';
import { encodeBoolean, formatDateTime, type DateTimeInput } from '../params.js';

export type ReminderMethod = 'email' | 'sms_or_whatsapp' | 'voice' | 'user_pref';
export type ReminderOffsetType = 'none' | 'delta' | 'time';
export type ReminderOffsetDelta = 5 | 10 | 15 | 30 | 45 | 60;

export interface ReminderInput {
  method: ReminderMethod;
  /** `none` (the API default), `delta` (minutes before due) or `time` (a time on the due day). */
  offset_type?: ReminderOffsetType | undefined;
  offset_delta?: ReminderOffsetDelta | undefined;
  /** `HH:MM`. */
  offset_time_str?: string | undefined;
}

export interface ActionUpdateInput {
  due: DateTimeInput;
  task: string;
  assigned_to?: string | null | undefined;
  notify_on_complete?: readonly string[] | undefined;
  pin_to_calendar?: 'location' | 'user' | null | undefined;
  urgent?: boolean | undefined;
  user_tags?: readonly string[] | undefined;
  /** At most 2. */
  reminders?: readonly ReminderInput[] | undefined;
}

export interface ActionInput extends ActionUpdateInput {
  care_enquiry?: string | null | undefined;
  service_user?: string | null | undefined;
}

export const MAX_REMINDERS = 2;
const OFFSET_DELTAS: readonly number[] = [5, 10, 15, 30, 45, 60];
const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;

/** `reminders_0-method` etc.; throws RangeError for more than 2 reminders or malformed values. */
export function flattenReminders(reminders: readonly ReminderInput[] | undefined): Record<string, WireValue> {
  const out: Record<string, WireValue> = {};
  if (!reminders) return out;
  if (reminders.length > MAX_REMINDERS) throw new RangeError(`reminders: at most ${MAX_REMINDERS} allowed, got ${reminders.length}`);
  reminders.forEach((reminder, i) => {
    const prefix = `reminders_${i}-`;
    out[`${prefix}method`] = reminder.method;
    if (reminder.offset_type !== undefined) out[`${prefix}offset_type`] = reminder.offset_type;
    if (reminder.offset_delta !== undefined) {
      if (!OFFSET_DELTAS.includes(reminder.offset_delta)) {
        throw new RangeError(`reminders[${i}].offset_delta: expected one of ${OFFSET_DELTAS.join(', ')}`);
      }
      out[`${prefix}offset_delta`] = String(reminder.offset_delta);
    }
    if (reminder.offset_time_str !== undefined) {
      if (!TIME.test(reminder.offset_time_str)) throw new RangeError(`reminders[${i}].offset_time_str: expected HH:MM`);
      out[`${prefix}offset_time_str`] = reminder.offset_time_str;
    }
  });
  return out;
}

function list(value: readonly string[] | undefined): string[] | undefined {
  return value && value.length > 0 ? [...value] : undefined;
}

/**
 * Form data of a create or an update (update never sends care_enquiry/service_user).
 * Empty lists and null/undefined values are left out: form data cannot say
 * "empty list", and the API's handling of omitted fields on update is unknown.
 */
export function flattenActionInput(input: ActionInput | ActionUpdateInput, kind: 'create' | 'update'): Record<string, WireValue> {
  if (typeof input.task !== 'string') throw new TypeError('task: expected a string');
  const out: Record<string, WireValue> = {
    due: formatDateTime(input.due, 'due'),
    task: input.task,
    assigned_to: input.assigned_to ?? undefined,
    notify_on_complete: list(input.notify_on_complete),
    pin_to_calendar: input.pin_to_calendar ?? undefined,
    urgent: encodeBoolean(input.urgent),
    user_tags: list(input.user_tags),
    ...flattenReminders(input.reminders),
  };
  if (kind === 'create' && 'care_enquiry' in input) out.care_enquiry = input.care_enquiry ?? undefined;
  if (kind === 'create' && 'service_user' in input) out.service_user = input.service_user ?? undefined;
  const compact: Record<string, WireValue> = {};
  for (const [key, value] of Object.entries(out)) if (value !== undefined && value !== null) compact[key] = value;
  return compact;
}
