import type { WireRecord } from './resources/types.js';
import { SortedView } from './sorted-view.js';

/**
 * The records of one resource, by id, with a cache of sorted orders (and
 * their filter columns) that is dropped whenever a record changes (lists
 * reuse it between writes).
 * Records are replaced, never mutated in place, so per-record caches keyed by
 * object identity stay correct.
 */
export class Collection<T extends WireRecord> {
  private readonly byId = new Map<string, T>();
  private readonly sortCache = new Map<string, SortedView<T>>();
  private version = 0;

  constructor(private readonly onChange: () => void) {}

  get size(): number {
    return this.byId.size;
  }

  /** Bumped by every change (lets callers cache derived data). */
  get changeCount(): number {
    return this.version;
  }

  get(id: string): T | undefined {
    return this.byId.get(id);
  }

  values(): T[] {
    return [...this.byId.values()];
  }

  put(record: T): void {
    this.byId.set(record._id, record);
    this.changed();
  }

  replaceAll(records: readonly T[]): void {
    this.byId.clear();
    for (const r of records) this.byId.set(r._id, r);
    this.changed();
  }

  /** Records in the order of `compare`, cached under `key` until the next change. */
  sorted(key: string, compare: (a: T, b: T) => number): SortedView<T> {
    let view = this.sortCache.get(key);
    if (!view) {
      view = new SortedView([...this.byId.values()].sort(compare));
      this.sortCache.set(key, view);
    }
    return view;
  }

  private changed(): void {
    this.version++;
    this.sortCache.clear();
    this.onChange();
  }
}
