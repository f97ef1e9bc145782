/**
 * A least-recently-used map bounded by entries and by (estimated) bytes: when
 * either bound is passed, the least recently used entries go first. Reading
 * with `get` counts as a use; `peek` does not.
 */
export interface LruOptions<V> {
  maxEntries: number;
  maxBytes: number;
  /** Estimated size of a value in bytes. */
  sizeOf: (value: V) => number;
  /** Told about every value that leaves (evicted, replaced or deleted). */
  onRemove?: (key: string, value: V) => void;
}

export interface Lru<V> {
  get(key: string): V | undefined;
  peek(key: string): V | undefined;
  set(key: string, value: V): void;
  delete(key: string): boolean;
  clear(): void;
  /** Oldest (least recently used) first. */
  entries(): IterableIterator<[string, V]>;
  readonly size: number;
  readonly bytes: number;
  /** Entries evicted to keep within the bounds, since creation. */
  readonly evictions: number;
}

export function createLru<V>(options: LruOptions<V>): Lru<V> {
  if (!(options.maxEntries >= 1) || !(options.maxBytes >= 1)) throw new RangeError('createLru: maxEntries and maxBytes must be >= 1');
  const map = new Map<string, { value: V; bytes: number }>();
  let bytes = 0;
  let evictions = 0;

  const remove = (key: string): boolean => {
    const hit = map.get(key);
    if (!hit) return false;
    map.delete(key);
    bytes -= hit.bytes;
    options.onRemove?.(key, hit.value);
    return true;
  };

  return {
    get(key) {
      const hit = map.get(key);
      if (!hit) return undefined;
      map.delete(key);
      map.set(key, hit);
      return hit.value;
    },
    peek: (key) => map.get(key)?.value,
    set(key, value) {
      remove(key);
      const size = Math.max(1, options.sizeOf(value));
      if (size > options.maxBytes) return; // never held: it alone would pass the bound
      map.set(key, { value, bytes: size });
      bytes += size;
      while (map.size > options.maxEntries || bytes > options.maxBytes) {
        const oldest = map.keys().next().value as string;
        remove(oldest);
        evictions++;
      }
    },
    delete: remove,
    clear() {
      for (const key of [...map.keys()]) remove(key);
    },
    *entries() {
      for (const [key, { value }] of map) yield [key, value] as [string, V];
    },
    get size() {
      return map.size;
    },
    get bytes() {
      return bytes;
    },
    get evictions() {
      return evictions;
    },
  };
}
