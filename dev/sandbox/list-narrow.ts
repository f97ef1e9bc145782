import type { SortedView } from './sorted-view.js';

/**
 * A parsed filter applied to a sorted view: it clears `keep[i]` for every
 * position `i` of the view whose record it rejects (and never sets one).
 * Filters combine by AND, each in its own tight loop.
 */
export type Narrow<T> = (view: SortedView<T>, keep: Uint8Array) => void;

/** Keep only records passing `test` (called only for positions still kept). */
export function keepWhere<T>(test: (record: T) => boolean): Narrow<T> {
  return (view, keep) => {
    const { records } = view;
    for (let i = 0; i < keep.length; i++) if (keep[i] !== 0 && !test(records[i] as T)) keep[i] = 0;
  };
}

/** Keep only records where `test` (as a `view.flags` column) is `wanted`. */
export function keepFlag<T>(test: (record: T) => boolean, wanted: boolean): Narrow<T> {
  const want = wanted ? 1 : 0;
  return (view, keep) => {
    const column = view.flags(test);
    for (let i = 0; i < keep.length; i++) if (column[i] !== want) keep[i] = 0;
  };
}

/**
 * Keep only records whose time key (`view.timeKeys(get)`) lies in
 * [min, max]. A record without a key (null or not a wire date/time) is
 * decided by `exact`, the string comparison the keys stand in for.
 */
export function keepTimeRange<T>(get: (record: T) => string | null, min: number, max: number, exact: (value: string | null) => boolean): Narrow<T> {
  return (view, keep) => {
    const column = view.timeKeys(get);
    const { records } = view;
    for (let i = 0; i < keep.length; i++) {
      const key = column[i] as number;
      if (key >= min && key <= max) continue;
      if (Number.isNaN(key) && exact(get(records[i] as T))) continue;
      keep[i] = 0;
    }
  };
}
