import { ApiError } from '../errors.js';
import type { Params } from '../params.js';
import type { Store } from '../store.js';
import { formatDateTime } from '../wire-time.js';
import { parseActionForm } from './action-form.js';
import type { Action } from './types.js';

/**
 * The write operations on actions, shared by the API and the controls'
 * web-app edits so both change data identically (modified bumped etc.).
 */

export function getAction(store: Store, id: string): Action {
  const action = store.actions.get(id);
  if (!action) throw new ApiError(404, `No action with Id ${id}.`);
  return action;
}

export function createAction(store: Store, params: Params): Action {
  const input = parseActionForm(store, params, 'create');
  const nowMs = store.nowMs();
  const now = formatDateTime(nowMs);
  const subjectId = input.care_enquiry ?? input.service_user;
  const subjectType = input.care_enquiry ? 'care_enquiry' : input.service_user ? 'service_user' : null;
  const action: Action = {
    _id: store.newId(nowMs),
    action_no: store.takeActionNo(),
    assessment: null,
    assigned_to: input.assigned_to,
    call: null,
    care_enquiry: input.care_enquiry,
    comment: null,
    completed: null,
    created: now,
    due: input.due,
    home_visit: null,
    location: subjectId ? (store.subjects.get(subjectId)?.location ?? null) : null,
    modified: now,
    notify_on_complete: input.notify_on_complete,
    parent_subject: subjectId,
    parent_subject_type: subjectType,
    pin_to_calendar: input.pin_to_calendar,
    reminders: input.reminders,
    service_users: input.service_user,
    subject_type: subjectType,
    tag: null,
    task: input.task,
    urgent: input.urgent,
    user_tags: input.user_tags,
  };
  store.actions.put(action);
  return action;
}

/**
 * Update replaces every editable field, as a form post does: an optional
 * parameter that is omitted is cleared (assigned_to null, urgent false, lists
 * and reminders emptied, pin_to_calendar null). The subject cannot change.
 */
export function updateAction(store: Store, id: string, params: Params): Action {
  const existing = getAction(store, id);
  const input = parseActionForm(store, params, 'update');
  const updated: Action = {
    ...existing,
    assigned_to: input.assigned_to,
    due: input.due,
    modified: store.nowWire(),
    notify_on_complete: input.notify_on_complete,
    pin_to_calendar: input.pin_to_calendar,
    reminders: input.reminders,
    task: input.task,
    urgent: input.urgent,
    user_tags: input.user_tags,
  };
  store.actions.put(updated);
  return updated;
}

/** Completing a complete action is an idempotent no-op: 200, unchanged (original completed and modified). */
export function completeAction(store: Store, id: string): Action {
  const existing = getAction(store, id);
  if (existing.completed !== null) return existing;
  const now = store.nowWire();
  const completed: Action = { ...existing, completed: now, modified: now };
  store.actions.put(completed);
  return completed;
}

/** Reopening an open action is an idempotent no-op: 200, unchanged. */
export function reopenAction(store: Store, id: string): Action {
  const existing = getAction(store, id);
  if (existing.completed === null) return existing;
  const reopened: Action = { ...existing, completed: null, modified: store.nowWire() };
  store.actions.put(reopened);
  return reopened;
}
