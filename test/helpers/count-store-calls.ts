/** Counting a store's calls by method, for tests that say how much work an idle tick does. */
import type { Store } from '../../src/store/index.js';

/** Every store call by method while `counting` is on (the workspaces' stores and the scheduler call through this one). */
export function countCalls(store: Store): { calls: Map<string, number>; on(): void; off(): void } {
  const calls = new Map<string, number>();
  let counting = false;
  const target = store as unknown as Record<string, unknown>;
  for (const [name, fn] of Object.entries(target)) {
    if (typeof fn !== 'function') continue;
    target[name] = (...args: unknown[]) => {
      if (counting) calls.set(name, (calls.get(name) ?? 0) + 1);
      return (fn as (...a: unknown[]) => unknown).apply(store, args);
    };
  }
  return {
    calls,
    on() {
      calls.clear();
      counting = true;
    },
    off() {
      counting = false;
    },
  };
}
