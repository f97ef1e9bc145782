import type { FilterDef, FilterOutcome } from './list-spec.js';
import { isObjectId } from './object-id.js';
import { isDate } from './wire-time.js';

export type TriState = 'yes' | 'no' | 'unset';
const TRI_STATES: readonly string[] = ['yes', 'no', 'unset'];

function single(values: readonly string[]): string | undefined {
  return values[0];
}

/** `yes` / `no` / `unset` filter over a boolean property of the record. */
export function triState<T>(defaultValue: TriState, test: (record: T) => boolean): FilterDef<T> {
  return {
    parse(values): FilterOutcome<T> {
      const value = single(values) ?? defaultValue;
      if (!TRI_STATES.includes(value)) return { errors: ['Not a valid choice (yes, no, unset).'] };
      if (value === 'unset') return {};
      return value === 'yes' ? { predicate: test } : { predicate: (r) => !test(r) };
    },
  };
}

/** A list of Ids matched against a single Id or a list of Ids on the record (any match). */
export function idList<T>(get: (record: T) => string | null | readonly string[]): FilterDef<T> {
  return {
    parse(values): FilterOutcome<T> {
      if (values.length === 0) return {};
      const bad = values.filter((v) => !isObjectId(v));
      if (bad.length > 0) return { errors: bad.map((v) => `Not a valid Id: ${v}`) };
      const wanted = new Set(values);
      return {
        predicate: (r) => {
          const v = get(r);
          if (v === null) return false;
          if (typeof v === 'string') return wanted.has(v);
          return v.some((x) => wanted.has(x));
        },
      };
    },
  };
}

/** A list of allowed values matched against a list on the record (any match). */
export function choiceList<T>(allowed: readonly string[], get: (record: T) => readonly string[]): FilterDef<T> {
  return {
    parse(values): FilterOutcome<T> {
      if (values.length === 0) return {};
      const bad = values.filter((v) => !allowed.includes(v));
      if (bad.length > 0) return { errors: bad.map((v) => `Not a valid choice: ${v}`) };
      const wanted = new Set(values);
      return { predicate: (r) => get(r).some((x) => wanted.has(x)) };
    },
  };
}

/** A `YYYY-MM-DD` bound on a date/time field, compared with the field's UTC date. */
export function dateBound<T>(bound: 'from' | 'to', get: (record: T) => string | null): FilterDef<T> {
  return {
    parse(values): FilterOutcome<T> {
      const value = single(values);
      if (value === undefined) return {};
      if (!isDate(value)) return { errors: ['Not a valid date (YYYY-MM-DD).'] };
      return {
        predicate:
          bound === 'from'
            ? (r) => {
                const v = get(r);
                return v !== null && v.slice(0, 10) >= value;
              }
            : (r) => {
                const v = get(r);
                return v !== null && v.slice(0, 10) <= value;
              },
      };
    },
  };
}
