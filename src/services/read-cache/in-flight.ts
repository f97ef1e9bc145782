/**
 * Identical reads in flight at the same time share one request: the first
 * caller starts it, later callers with the same key get the same promise until
 * it settles. `detach` lets a key's next caller start afresh (the one in flight
 * may answer from before a change) while those already waiting keep theirs.
 */
export interface InFlight<V> {
  run(key: string, load: () => Promise<V>): Promise<V>;
  /** Whether a read with this key is in flight (and may still be joined). */
  has(key: string): boolean;
  detach(key: string): void;
  keys(): IterableIterator<string>;
  /** Resolves once no read (joinable or detached) is in flight. */
  settled(): Promise<void>;
}

export function createInFlight<V>(): InFlight<V> {
  const running = new Map<string, Promise<V>>();
  const all = new Set<Promise<V>>();
  return {
    run(key, load) {
      const current = running.get(key);
      if (current) return current;
      const started = (async () => load())().finally(() => {
        if (running.get(key) === started) running.delete(key);
        all.delete(started);
      });
      running.set(key, started);
      all.add(started);
      return started;
    },
    async settled() {
      while (all.size) await Promise.allSettled([...all]);
    },
    has: (key) => running.has(key),
    detach: (key) => void running.delete(key),
    keys: () => running.keys(),
  };
}
