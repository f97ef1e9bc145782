/**
 * What the action cache needs to know about a list query and an action,
 * without asking the API: a stable key per query, the record as the app reads
 * it (ACTION_ATTRIBUTES), and whether a query could include an action. The
 * last one is conservative: it says "no" only when an exact filter (ids,
 * assignee, completed, due dates) rules the action out; anything it cannot
 * judge (a keyword search) is a "could".
 */
import type { Action, ActionListParams } from '../../care/index.js';
import { ACTION_ATTRIBUTES } from '../action-model.js';

export type ListQuery = ActionListParams & { limit: number };

function normalise(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(normalise);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[k];
      if (v !== undefined) out[k] = normalise(v);
    }
    return out;
  }
  return value;
}

/** The same query always gives the same key, whatever the order of its keys. */
export function listKey(query: ListQuery): string {
  return JSON.stringify(normalise(query));
}

/** The action as the app reads it everywhere: ACTION_ATTRIBUTES only. */
export function project(action: Action): Action {
  const out: Record<string, unknown> = {};
  for (const k of ACTION_ATTRIBUTES) if (k in action) out[k] = (action as Record<string, unknown>)[k];
  return out as Action;
}

/** A string that differs whenever what the app shows of an action differs. */
export function contentOf(action: Action): string {
  return JSON.stringify(normalise(project(action)));
}

const asList = (v: unknown): string[] | null => (v === undefined || v === null ? null : (Array.isArray(v) ? v : [v]).map(String));
const day = (v: unknown): string | null => {
  if (v instanceof Date) return v.toISOString().slice(0, 10);
  return typeof v === 'string' && /^\d{4}-\d{2}-\d{2}/.test(v) ? v.slice(0, 10) : null;
};

/**
 * Whether `action` (as it is now) could be in the answer to `query`. False
 * only when an exact filter excludes it; a query it was already in is judged
 * by the caller (its ids).
 */
export function couldInclude(query: ListQuery, action: Action): boolean {
  const f = query.filters ?? {};
  const ids = asList(f.ids);
  if (ids && !ids.includes(action._id)) return false;
  const assignees = asList(f.assigned_to);
  if (assignees && !assignees.includes(action.assigned_to ?? '')) return false;
  if (f.completed === 'no' && action.completed) return false;
  if (f.completed === 'yes' && !action.completed) return false;
  const due = typeof action.due === 'string' ? action.due.slice(0, 10) : null;
  const end = day(f.end_date);
  const start = day(f.start_date);
  if (due !== null && end !== null && due > end) return false;
  if (due !== null && start !== null && due < start) return false;
  return true;
}
