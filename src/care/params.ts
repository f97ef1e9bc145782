/**
 * From typed parameters to the API's flat wire parameters (and back to a
 * URL-encoded string). Lists stay lists (repeated keys on the wire), nested
 * values become dash keys (`filters-q`, `reminders_0-method`), booleans follow
 * the presence rule, dates and date/times are formatted in UTC.
 */
import type { WireParams, WireValue } from './signing.js';

/** A `Date`, or a string already in the API's `YYYY-MM-DD HH:MM:SS` (UTC) format. */
export type DateTimeInput = Date | string;
/** A `Date` (its UTC calendar day is used), or a string `YYYY-MM-DD`. */
export type DateInput = Date | string;
export type OneOrMany<T> = T | readonly T[];
/** Tri-state list filter. */
export type TriState = 'yes' | 'no' | 'unset';
/** A sort field, ascending, or with a leading `-` for descending. */
export type SortSpec<Field extends string> = Field | `-${Field}`;

const API_DATE_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
const API_DATE = /^\d{4}-\d{2}-\d{2}$/;

function validDate(value: Date, what: string): Date {
  if (Number.isNaN(value.getTime())) throw new RangeError(`${what}: invalid Date`);
  return value;
}

/** `YYYY-MM-DD HH:MM:SS` in UTC. */
export function formatDateTime(value: DateTimeInput, what = 'date/time'): string {
  if (value instanceof Date) return validDate(value, what).toISOString().slice(0, 19).replace('T', ' ');
  if (typeof value === 'string' && API_DATE_TIME.test(value)) return value;
  throw new RangeError(`${what}: expected a Date or a 'YYYY-MM-DD HH:MM:SS' UTC string`);
}

/** `YYYY-MM-DD`; a Date gives its UTC calendar day (pass a string for a local day). */
export function formatDate(value: DateInput, what = 'date'): string {
  if (value instanceof Date) return validDate(value, what).toISOString().slice(0, 10);
  if (typeof value === 'string' && API_DATE.test(value)) return value;
  throw new RangeError(`${what}: expected a Date or a 'YYYY-MM-DD' string`);
}

/** The presence rule: true is sent as `true`, false (or nothing) is left out. */
export function encodeBoolean(value: boolean | null | undefined): 'true' | undefined {
  return value === true ? 'true' : undefined;
}

function toList(value: OneOrMany<string | number>): string[] {
  return (Array.isArray(value) ? value : [value]).map(String);
}

/** Filters whose values are date/times, and those that are plain dates (API-wide names). */
const DATE_TIME_FILTERS = new Set(['modified_after', 'modified_before']);
const DATE_FILTERS = new Set(['start_date', 'end_date']);

type FilterValue = string | number | Date | readonly (string | number)[] | null | undefined;

/** `{completed: 'yes', assigned_to: [a, b]}` -> `{'filters-completed': 'yes', 'filters-assigned_to': [a, b]}`. */
export function flattenFilters(filters: object | undefined): Record<string, WireValue> {
  const out: Record<string, WireValue> = {};
  for (const [name, raw] of Object.entries(filters ?? {}) as [string, FilterValue][]) {
    if (raw === undefined || raw === null) continue;
    const key = `filters-${name}`;
    if (raw instanceof Date || DATE_TIME_FILTERS.has(name) || DATE_FILTERS.has(name)) {
      if (Array.isArray(raw)) throw new RangeError(`filters.${name}: expected a single date`);
      const single = raw as Date | string;
      out[key] = DATE_FILTERS.has(name) ? formatDate(single, `filters.${name}`) : formatDateTime(single, `filters.${name}`);
    } else if (Array.isArray(raw)) {
      if (raw.length > 0) out[key] = toList(raw);
    } else {
      out[key] = String(raw);
    }
  }
  return out;
}

/** The list parameters every list operation shares. */
export interface ListParamsBase {
  attributes?: readonly string[] | undefined;
  page?: number | undefined;
  per_page?: number | undefined;
  sort_by?: OneOrMany<string> | undefined;
  filters?: object | undefined;
}

function positiveInt(value: number | undefined, what: string): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isInteger(value) || value < 1) throw new RangeError(`${what}: expected a positive integer`);
  return value;
}

/** Wire parameters of a list request. Nothing is sent for what is not given (API defaults apply). */
export function flattenListParams(params: ListParamsBase = {}): Record<string, WireValue> {
  const out: Record<string, WireValue> = {};
  if (params.attributes && params.attributes.length > 0) out.attributes = toList(params.attributes);
  const page = positiveInt(params.page, 'page');
  if (page !== undefined) out.page = String(page);
  const perPage = positiveInt(params.per_page, 'per_page');
  if (perPage !== undefined) out.per_page = String(perPage);
  if (params.sort_by !== undefined) {
    const sort = toList(params.sort_by);
    if (sort.length > 0) out.sort_by = sort;
  }
  return { ...out, ...flattenFilters(params.filters) };
}

/** Wire parameters of a retrieve request. */
export function flattenRetrieveParams(options: { attributes?: readonly string[] | undefined } = {}): Record<string, WireValue> {
  return options.attributes && options.attributes.length > 0 ? { attributes: toList(options.attributes) } : {};
}

/** URL-encoded form of wire parameters: lists as repeated keys, null/undefined dropped. */
export function encodeParams(params: WireParams): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === null || value === undefined) continue;
    const values = Array.isArray(value) ? value : [value];
    for (const v of values) search.append(key, String(v));
  }
  return search.toString();
}

/** Drop null/undefined entries (what is signed must be exactly what is sent). */
export function compactParams(params: Record<string, WireValue>): Record<string, WireValue> {
  const out: Record<string, WireValue> = {};
  for (const [key, value] of Object.entries(params)) if (value !== null && value !== undefined) out[key] = value;
  return out;
}
