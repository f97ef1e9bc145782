/**
 * Lists to read again after changes, read once a burst of changes is over:
 * each change (re)starts a quiet period, and what waits is read when the
 * period passes with no further change, or at the latest `maxWaitMs` after
 * the first change waited (a steady stream of changes still gets its lists
 * read). A list added twice is read once. Timers are passed in (tests drive
 * them); the default ones do not keep the process alive.
 */
import type { ListQuery } from './action-filters.js';

export interface PendingRefresh {
  query: ListQuery;
  /** When a person last read the list (carried to the list read again, so a refresh never makes its own list "used"). */
  usedAt: number;
}

export interface RefreshTimers {
  set(run: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

export interface RefreshQueue {
  add(key: string, refresh: PendingRefresh): void;
  /** Read now what waits (tests and `idle()`). */
  flush(): void;
  /** Drop what waits. */
  clear(): void;
  size(): number;
}

const realTimers: RefreshTimers = {
  set: (run, ms) => {
    const t = setTimeout(run, ms);
    t.unref?.();
    return t;
  },
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export function createRefreshQueue(o: {
  quietMs: number;
  maxWaitMs: number;
  timers?: RefreshTimers | undefined;
  /** Told what waited, once the burst is over. */
  run: (batch: Map<string, PendingRefresh>) => void;
}): RefreshQueue {
  const timers = o.timers ?? realTimers;
  let pending = new Map<string, PendingRefresh>();
  let quiet: unknown;
  let latest: unknown;

  const stop = () => {
    if (quiet !== undefined) timers.clear(quiet);
    if (latest !== undefined) timers.clear(latest);
    quiet = latest = undefined;
  };
  const fire = () => {
    stop();
    if (!pending.size) return;
    const batch = pending;
    pending = new Map();
    o.run(batch);
  };

  return {
    add(key, refresh) {
      const held = pending.get(key);
      pending.set(key, held ? { query: refresh.query, usedAt: Math.max(held.usedAt, refresh.usedAt) } : refresh);
      if (quiet !== undefined) timers.clear(quiet);
      quiet = timers.set(fire, o.quietMs);
      latest ??= timers.set(fire, o.maxWaitMs);
    },
    flush: fire,
    clear() {
      stop();
      pending = new Map();
    },
    size: () => pending.size,
  };
}
