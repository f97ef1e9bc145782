import { keepFlag, keepTimeRange, keepWhere } from './list-narrow.js';
import type { FilterDef, FilterOutcome } from './list-spec.js';
import { isObjectId } from './object-id.js';
import { isDate, timeKey } from './wire-time.js';

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
      return { narrow: keepFlag(test, value === 'yes') };
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
        narrow: keepWhere((r) => {
          const v = get(r);
          if (v === null) return false;
          if (typeof v === 'string') return wanted.has(v);
          return v.some((x) => wanted.has(x));
        }),
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
      return { narrow: keepWhere((r) => get(r).some((x) => wanted.has(x))) };
    },
  };
}

/**
 * A `YYYY-MM-DD` bound on a date/time field, compared with the field's UTC
 * date (inclusive). In time keys, day D spans D000000 to D999999 (its last
 * six digits are the time).
 */
export function dateBound<T>(bound: 'from' | 'to', get: (record: T) => string | null): FilterDef<T> {
  return {
    parse(values): FilterOutcome<T> {
      const value = single(values);
      if (value === undefined) return {};
      if (!isDate(value)) return { errors: ['Not a valid date (YYYY-MM-DD).'] };
      const day = timeKey(`${value} 00:00:00`);
      return {
        narrow:
          bound === 'from'
            ? keepTimeRange(get, day, Infinity, (v) => v !== null && v.slice(0, 10) >= value)
            : keepTimeRange(get, -Infinity, day + 999_999, (v) => v !== null && v.slice(0, 10) <= value),
      };
    },
  };
}
