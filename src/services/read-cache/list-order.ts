/**
 * Whether a change to an action already in a list can alter the list's
 * membership or order: only through the fields the query filters or sorts
 * on. `placeOf` gives those fields' values as a string (`placeHash`, as a number); when it is the same
 * before and after a change, the list keeps its ids (the records hold the new
 * state) and nobody need read it again. `null` when the query depends on
 * something a change always moves or the app does not read (`modified`,
 * `parent_subject`, a filter not known here): then every change counts.
 */
import type { Action } from '../../care/index.js';
import type { ListQuery } from './action-filters.js';

/** The action's fields each known filter reads (`ids`: an Id never changes). */
const FILTER_FIELDS: Record<string, readonly (keyof Action & string)[]> = {
  ids: [],
  q: ['action_no', 'task'],
  assigned_to: ['assigned_to'],
  completed: ['completed'],
  urgent: ['urgent'],
  start_date: ['due'],
  end_date: ['due'],
};
/** Sort fields that never change (`created`) or that the app reads. */
const SORT_FIELDS: Record<string, readonly (keyof Action & string)[]> = { _id: [], created: [], completed: ['completed'], due: ['due'] };

/** The fields whose values place an action in `query`'s answer, or null when any change may move it. */
export function placingFields(query: ListQuery): string[] | null {
  const fields = new Set<string>();
  for (const [name, value] of Object.entries(query.filters ?? {})) {
    if (value === undefined) continue;
    const read = FILTER_FIELDS[name];
    if (!read) return null;
    for (const f of read) fields.add(f);
  }
  for (const raw of query.sort_by ?? []) {
    const read = SORT_FIELDS[String(raw).replace(/^-/, '')];
    if (!read) return null;
    for (const f of read) fields.add(f);
  }
  return [...fields].sort();
}

/** The values of `fields` in `action`, as one string (compare two to know whether the action moved). */
export function placeOf(fields: readonly string[], action: Action): string {
  const record = action as Record<string, unknown>;
  return JSON.stringify(fields.map((f) => record[f] ?? null));
}

/**
 * placeOf as a 53-bit number (cyrb53), so a list of a thousand holds a number per action, not a string: two
 * different places give the same number about once in 2^53 comparisons.
 */
export function placeHash(fields: readonly string[], action: Action): number {
  const text = placeOf(fields, action);
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}
