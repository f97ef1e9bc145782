import type { Action, ActionUpdateInput, ReminderInput } from '../../care/index.js';
import { parseApiDateTime } from '../../time/slack-date.js';

const REMINDER_METHODS: readonly string[] = ['email', 'sms_or_whatsapp', 'voice', 'user_pref'];
const OFFSET_TYPES: readonly string[] = ['none', 'delta', 'time'];

function reminder(r: NonNullable<Action['reminders']>[number]): ReminderInput | null {
  if (!r.method || !REMINDER_METHODS.includes(r.method)) return null;
  const type = r.offset_type && OFFSET_TYPES.includes(r.offset_type) ? (r.offset_type as ReminderInput['offset_type']) : undefined;
  return {
    method: r.method as ReminderInput['method'],
    ...(type ? { offset_type: type } : {}),
    ...(type === 'delta' && r.offset_delta ? { offset_delta: r.offset_delta as ReminderInput['offset_delta'] } : {}),
    ...(type === 'time' && r.offset_time_str ? { offset_time_str: r.offset_time_str } : {}),
  };
}

/**
 * The update that changes an action's due time and nothing else. The care API
 * clears every editable field an update leaves out, so the action as it is
 * (read whole, just before) goes back with only `due` replaced: task, assignee,
 * urgency, pin, notification groups, tags and reminders as they were.
 */
export function sameActionDueAt(current: Action, due: Date): ActionUpdateInput {
  const pin = current.pin_to_calendar === 'location' || current.pin_to_calendar === 'user' ? current.pin_to_calendar : null;
  return {
    task: current.task ?? '',
    due,
    assigned_to: current.assigned_to ?? null,
    urgent: Boolean(current.urgent),
    pin_to_calendar: pin,
    notify_on_complete: current.notify_on_complete ?? [],
    user_tags: current.user_tags ?? [],
    reminders: (current.reminders ?? []).map(reminder).filter((r): r is ReminderInput => r !== null),
  };
}

/**
 * The update that changes an action's assignee and nothing else (Take it): the
 * action as it is, with only `assigned_to` replaced (null: nobody, a hand-back) and its due time sent back
 * as read. Null when the action has no due time (the API needs one on update).
 */
export function sameActionAssignedTo(current: Action, careUserId: string | null): ActionUpdateInput | null {
  const due = parseApiDateTime(current.due);
  return due ? { ...sameActionDueAt(current, due), assigned_to: careUserId } : null;
}
