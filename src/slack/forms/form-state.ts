/**
 * What the person has entered in the action form so far, as the form's
 * starting values, so the form can be drawn again (More options, a reminder's
 * "when", a due date to check) without losing a word. Pure.
 */
import { FIELD_ACTION_ID, FieldIds as F, reminderFieldIds } from '../ids.js';
import type { ActionFormInitial, ReminderForm } from '../views/action-form-modal.js';
import type { ViewElementState, ViewStateValues } from './action-form.js';

type Obj = Record<string, unknown>;
type Option = { value: string; text?: { text?: string } };

/** The state of an element nobody touched: its initial value (Slack may leave it out of `state.values`). */
function initialState(element: Obj): ViewElementState {
  return {
    value: (element.initial_value as string | undefined) ?? null,
    selected_date: (element.initial_date as string | undefined) ?? null,
    selected_time: (element.initial_time as string | undefined) ?? null,
    selected_user: (element.initial_user as string | undefined) ?? null,
    selected_option: (element.initial_option as Option | undefined) ?? null,
    selected_options: (element.initial_options as Option[] | undefined) ?? [],
  };
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

function reminderOf(state: (block: string) => ViewElementState | undefined, i: 0 | 1): ReminderForm | undefined {
  const ids = reminderFieldIds(i);
  const method = str(state(ids.method)?.selected_option?.value);
  const when = str(state(ids.when)?.selected_option?.value);
  const time = str(state(ids.time)?.selected_time);
  if (!method && !when) return undefined;
  const delta = when ? /^delta:(\d{1,3})$/.exec(when) : null;
  return {
    ...(method ? { method } : {}),
    offset: delta ? 'delta' : when === 'time' ? 'time' : 'none',
    ...(delta ? { minutes: Number(delta[1]) } : {}),
    ...(time ? { time } : {}),
  };
}

/** The form's values from a view payload (`view.blocks` and `view.state.values`). */
export function formStateOf(view: { blocks?: readonly unknown[]; state?: { values?: unknown } }): ActionFormInitial {
  const values = (view.state?.values ?? {}) as ViewStateValues;
  const elements = new Map<string, Obj>();
  for (const block of (view.blocks ?? []) as Obj[]) {
    if (block?.type === 'input' && typeof block.block_id === 'string' && block.element) elements.set(block.block_id, block.element as Obj);
  }
  const state = (block: string): ViewElementState | undefined => {
    const element = elements.get(block);
    if (!element) return undefined;
    return values[block]?.[FIELD_ACTION_ID] ?? initialState(element);
  };
  const pin = state(F.pin)?.selected_option?.value;
  const reminders = ([0, 1] as const).map((i) => reminderOf(state, i));
  const subjectType = str(state(F.subjectType)?.selected_option?.value);
  const subjectId = str(state(F.subject)?.value);
  const task = str(state(F.task)?.value);
  const dueDate = str(state(F.dueDate)?.selected_date);
  const dueTime = str(state(F.dueTime)?.selected_time);
  const picked = state(F.assignee)?.selected_option;
  const assignee = str(picked?.value);
  return {
    ...(task ? { task } : {}),
    ...(dueDate ? { dueDate } : {}),
    ...(dueTime ? { dueTime } : {}),
    ...(assignee ? { assignee: { careUserId: assignee, label: str((picked as Option | undefined)?.text?.text) ?? assignee } } : {}),
    urgent: (state(F.urgent)?.selected_options ?? []).some((o) => o.value === 'urgent'),
    pin: pin === 'location' || pin === 'user' ? pin : null,
    notify: (state(F.notify)?.selected_options ?? []).map((o) => ({ id: o.value, name: str((o as Option).text?.text) ?? o.value })),
    // A reminder left empty keeps its place: reminder 2 stays reminder 2.
    reminders: reminders[1] ? [reminders[0] ?? { offset: 'none' }, reminders[1]] : reminders[0] ? [reminders[0]] : [],
    ...(subjectType || subjectId ? { subject: { ...(subjectType ? { type: subjectType } : {}), ...(subjectId ? { id: subjectId } : {}) } } : {}),
    more: elements.has(F.pin),
    ...((state(F.twoStaff)?.selected_options ?? []).some((o) => o.value === 'two-staff') ? { twoStaff: true } : {}),
  };
}
