import { ArgErrorBag } from './errors.js';
import { idList } from './list-filters.js';
import { keepTimeRange, keepWhere, type Narrow } from './list-narrow.js';
import type { ListSpec } from './list-spec.js';
import type { Params } from './params.js';
import type { WireRecord } from './resources/types.js';
import { parseDateTime, timeKey } from './wire-time.js';

export const DEFAULT_PER_PAGE = 10;
export const MAX_PER_PAGE = 100;

/** A parsed, validated list request. */
export interface ListQuery<T> {
  /** Attributes to return, `_id` first, no duplicates. */
  attributes: string[];
  page: number;
  perPage: number;
  /** Cache key of the sort order, e.g. `-due,_id`. */
  sortKey: string;
  compare: (a: T, b: T) => number;
  /** The filters, all of which a record must pass. */
  narrows: Narrow<T>[];
}

/** Case-insensitive search text of a record over some fields (cached by the caller). */
export type Haystack = (record: WireRecord, fields: readonly string[]) => string;

const modifiedOf = (r: WireRecord) => r.modified;

const COMMON_FILTERS = new Set(['filters-ids', 'filters-modified_after', 'filters-modified_before', 'filters-q']);

function positiveInt(value: string | undefined): number | null {
  if (value === undefined) return null;
  return /^\d{1,9}$/.test(value) ? Number(value) : NaN;
}

function compareValues(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === null || a === undefined) return -1; // nulls first when ascending (as MongoDB)
  if (b === null || b === undefined) return 1;
  return (a as string | number) < (b as string | number) ? -1 : 1;
}

function comparator<T>(keys: readonly { field: string; desc: boolean }[]): (a: T, b: T) => number {
  return (a, b) => {
    for (const { field, desc } of keys) {
      const c = compareValues((a as Record<string, unknown>)[field], (b as Record<string, unknown>)[field]);
      if (c !== 0) return desc ? -c : c;
    }
    return 0;
  };
}

/** Parse attributes, paging, sort and filters; throws a 400 ApiError with every arg_error found. */
export function parseListQuery<T extends WireRecord>(spec: ListSpec<T>, params: Params, haystack: Haystack): ListQuery<T> {
  const errors = new ArgErrorBag();

  const attributes = ['_id'];
  for (const a of params.get('attributes') ?? []) {
    if (a === '' || attributes.includes(a)) continue;
    if (spec.attributes.includes(a)) attributes.push(a);
    else errors.add('attributes', `Not a valid attribute: ${a}`);
  }

  const page = positiveInt(params.get('page')?.[0]) ?? 1;
  if (!Number.isInteger(page) || page < 1) errors.add('page', 'Must be a whole number of at least 1.');
  const perPage = positiveInt(params.get('per_page')?.[0]) ?? DEFAULT_PER_PAGE;
  if (!Number.isInteger(perPage) || perPage < 1 || perPage > MAX_PER_PAGE) {
    errors.add('per_page', `Must be a whole number from 1 to ${MAX_PER_PAGE}.`);
  }

  const sortKeys: { field: string; desc: boolean }[] = [];
  for (const raw of params.get('sort_by') ?? []) {
    if (raw === '') continue;
    const desc = raw.startsWith('-');
    const field = desc ? raw.slice(1) : raw;
    if (!spec.sortFields.includes(field)) errors.add('sort_by', `Not a valid sort field: ${field}`);
    else sortKeys.push({ field, desc });
  }
  if (!sortKeys.some((k) => k.field === '_id')) sortKeys.push({ field: '_id', desc: false });

  const narrows: Narrow<T>[] = [];
  const values = (name: string) => (params.get(name) ?? []).filter((v) => v !== '');

  const ids = idList<T>((r) => r._id).parse(values('filters-ids'));
  if (ids.errors) for (const e of ids.errors) errors.add('filters-ids', e);
  else if (ids.narrow) narrows.push(ids.narrow);

  for (const [name, after] of [
    ['filters-modified_after', true],
    ['filters-modified_before', false],
  ] as const) {
    const value = values(name)[0];
    if (value === undefined) continue;
    if (parseDateTime(value) === null) errors.add(name, 'Not a valid date/time (YYYY-MM-DD HH:MM:SS, UTC).');
    else {
      // Time keys are whole numbers: after X = from X + 1, before X = up to X - 1.
      const key = timeKey(value);
      narrows.push(
        after
          ? keepTimeRange<T>(modifiedOf, key + 1, Infinity, (v) => v !== null && v > value)
          : keepTimeRange<T>(modifiedOf, -Infinity, key - 1, (v) => v !== null && v < value),
      );
    }
  }

  for (const [name, def] of Object.entries(spec.filters)) {
    const outcome = def.parse(values(name));
    if (outcome.errors) for (const e of outcome.errors) errors.add(name, e);
    else if (outcome.narrow) narrows.push(outcome.narrow);
  }

  // Last: the search is the dearest test, so it only sees records the other filters kept.
  const q = values('filters-q')[0]?.toLowerCase();
  if (q !== undefined) narrows.push(keepWhere<T>((r) => haystack(r, spec.qFields).includes(q)));

  for (const name of params.keys()) {
    if (name.startsWith('filters-') && !COMMON_FILTERS.has(name) && !(name in spec.filters)) {
      errors.add(name, 'Unknown filter for this resource.');
    }
  }

  errors.throwIfAny();
  return {
    attributes,
    page,
    perPage,
    sortKey: sortKeys.map((k) => (k.desc ? '-' : '') + k.field).join(','),
    compare: comparator<T>(sortKeys),
    narrows,
  };
}
