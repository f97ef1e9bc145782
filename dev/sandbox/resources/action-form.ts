import { ArgErrorBag } from '../errors.js';
import { isObjectId } from '../object-id.js';
import type { Params } from '../params.js';
import type { Store } from '../store.js';
import { isTime, parseDateTime } from '../wire-time.js';
import { OFFSET_DELTAS, OFFSET_TYPES, PIN_TO_CALENDAR, REMINDER_METHODS, type Action, type Reminder } from './types.js';

export const REQUIRED = 'This field is required.';
export const MAX_REMINDERS = 2;

/** The validated fields of an action create/update form. */
export interface ActionInput {
  due: string;
  task: string;
  assigned_to: string | null;
  notify_on_complete: string[];
  pin_to_calendar: Action['pin_to_calendar'];
  urgent: boolean;
  user_tags: string[];
  reminders: Reminder[];
  /** Create only. */
  care_enquiry: string | null;
  service_user: string | null;
}

const REMINDER_KEY = /^reminders_(\d+)-(method|offset_type|offset_delta|offset_time_str)$/;

function choices(list: readonly (string | number)[]): string {
  return `Not a valid choice (${list.join(', ')}).`;
}

/** Non-empty values of a key (an empty form field counts as not sent). */
function given(params: Params, key: string): string[] {
  return (params.get(key) ?? []).filter((v) => v !== '');
}

function parseReminders(params: Params, errors: ArgErrorBag): Reminder[] {
  const byIndex = new Map<number, Map<string, string>>();
  for (const key of params.keys()) {
    const m = REMINDER_KEY.exec(key);
    const value = given(params, key)[0];
    if (!m || value === undefined) continue;
    const index = Number(m[1]);
    if (index >= MAX_REMINDERS) {
      errors.add('reminders', `At most ${MAX_REMINDERS} reminders may be set (reminders_0 and reminders_1).`);
      continue;
    }
    if (!byIndex.has(index)) byIndex.set(index, new Map());
    byIndex.get(index)?.set(m[2] as string, value);
  }
  const reminders: Reminder[] = [];
  for (const index of [...byIndex.keys()].sort()) {
    const fields = byIndex.get(index) as Map<string, string>;
    const p = `reminders_${index}-`;
    const method = fields.get('method');
    const offsetType = fields.get('offset_type') ?? 'none';
    let ok = true;
    if (method === undefined) {
      ok = false;
      errors.add(`${p}method`, REQUIRED);
    } else if (!(REMINDER_METHODS as readonly string[]).includes(method)) {
      ok = false;
      errors.add(`${p}method`, choices(REMINDER_METHODS));
    }
    if (!(OFFSET_TYPES as readonly string[]).includes(offsetType)) {
      ok = false;
      errors.add(`${p}offset_type`, choices(OFFSET_TYPES));
    }
    let delta: number | null = null;
    let time: string | undefined;
    if (offsetType === 'delta') {
      const raw = fields.get('offset_delta');
      if (raw === undefined) {
        ok = false;
        errors.add(`${p}offset_delta`, REQUIRED);
      } else if (!/^\d+$/.test(raw) || !(OFFSET_DELTAS as readonly number[]).includes(Number(raw))) {
        ok = false;
        errors.add(`${p}offset_delta`, choices(OFFSET_DELTAS));
      } else delta = Number(raw);
    } else if (offsetType === 'time') {
      time = fields.get('offset_time_str');
      if (time === undefined) {
        ok = false;
        errors.add(`${p}offset_time_str`, REQUIRED);
      } else if (!isTime(time)) {
        ok = false;
        errors.add(`${p}offset_time_str`, 'Not a valid time (HH:MM).');
      }
    }
    if (!ok) continue;
    const reminder: Reminder = { method: method as Reminder['method'], offset_type: offsetType as Reminder['offset_type'], offset_delta: delta };
    if (time !== undefined) reminder.offset_time_str = time;
    reminders.push(reminder);
  }
  return reminders;
}

function idField(params: Params, key: string, errors: ArgErrorBag): string | null {
  const value = given(params, key)[0];
  if (value === undefined) return null;
  if (!isObjectId(value)) {
    errors.add(key, 'Not a valid Id.');
    return null;
  }
  return value;
}

function idListField(params: Params, key: string, errors: ArgErrorBag, exists?: (id: string) => boolean, what?: string): string[] {
  const out: string[] = [];
  for (const value of given(params, key)) {
    if (!isObjectId(value)) errors.add(key, `Not a valid Id: ${value}`);
    else if (exists && !exists(value)) errors.add(key, `No ${what} with Id ${value}.`);
    else if (!out.includes(value)) out.push(value);
  }
  return out;
}

/**
 * Validate the form of `PUT /v1/actions` (create) or `PATCH /v1/actions/<id>`
 * (update). Booleans are true when the key is present with any value. Throws
 * a 400 ApiError listing every problem in arg_errors.
 */
export function parseActionForm(store: Store, params: Params, mode: 'create' | 'update'): ActionInput {
  const errors = new ArgErrorBag();

  const due = given(params, 'due')[0];
  if (due === undefined) errors.add('due', REQUIRED);
  else if (parseDateTime(due) === null) errors.add('due', 'Not a valid date/time (YYYY-MM-DD HH:MM:SS, UTC).');

  const task = params.get('task')?.[0];
  if (task === undefined || task.trim() === '') errors.add('task', REQUIRED);

  const assignedTo = idField(params, 'assigned_to', errors);
  if (assignedTo !== null && !store.users.get(assignedTo)) errors.add('assigned_to', 'No user with this Id.');

  const notify = idListField(params, 'notify_on_complete', errors, (id) => store.notificationGroups.get(id) !== undefined, 'notification group');
  const userTags = idListField(params, 'user_tags', errors);

  const pin = given(params, 'pin_to_calendar')[0] ?? null;
  if (pin !== null && !(PIN_TO_CALENDAR as readonly string[]).includes(pin)) errors.add('pin_to_calendar', choices(PIN_TO_CALENDAR));

  const reminders = parseReminders(params, errors);

  let careEnquiry: string | null = null;
  let serviceUser: string | null = null;
  if (mode === 'create') {
    careEnquiry = idField(params, 'care_enquiry', errors);
    serviceUser = idField(params, 'service_user', errors);
    if (careEnquiry !== null && serviceUser !== null) errors.add('service_user', 'Give either care_enquiry or service_user, not both.');
  }

  errors.throwIfAny();
  return {
    due: due as string,
    task: task as string,
    assigned_to: assignedTo,
    notify_on_complete: notify,
    pin_to_calendar: pin as Action['pin_to_calendar'],
    urgent: params.has('urgent'),
    user_tags: userTags,
    reminders,
    care_enquiry: careEnquiry,
    service_user: serviceUser,
  };
}
