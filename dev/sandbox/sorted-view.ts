import { timeKey } from './wire-time.js';

/**
 * The records of a collection in one sort order, with columns derived from
 * them (aligned with `records`) so list filters scan typed arrays instead of
 * calling a predicate and comparing strings for every record. Built lazily,
 * cached per derivation function, and dropped with the view when the
 * collection changes, so columns are always in step with the data.
 */
export class SortedView<T> {
  // Keyed by the derivation function (typed loosely to keep views covariant in T).
  private readonly timeColumns = new Map<object, Float64Array>();
  private readonly flagColumns = new Map<object, Uint8Array>();

  constructor(readonly records: readonly T[]) {}

  get length(): number {
    return this.records.length;
  }

  /** `timeKey(get(record))` for every record: NaN where the value is null or not a wire date/time. */
  timeKeys(get: (record: T) => string | null): Float64Array {
    let column = this.timeColumns.get(get);
    if (!column) {
      column = new Float64Array(this.records.length);
      for (let i = 0; i < column.length; i++) column[i] = timeKey(get(this.records[i] as T));
      this.timeColumns.set(get, column);
    }
    return column;
  }

  /** 1 where `test(record)` is truthy, else 0. */
  flags(test: (record: T) => boolean): Uint8Array {
    let column = this.flagColumns.get(test);
    if (!column) {
      column = new Uint8Array(this.records.length);
      for (let i = 0; i < column.length; i++) column[i] = test(this.records[i] as T) ? 1 : 0;
      this.flagColumns.set(test, column);
    }
    return column;
  }
}
