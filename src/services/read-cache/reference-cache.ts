/**
 * Reference data that changes rarely (locations, notification groups,
 * literature, care users): kept in memory and answered from there. Fresh for
 * `freshMs`; after that the stale value is still answered at once while one
 * background read refreshes it (stale-while-revalidate), so nobody waits for
 * a refresh. Only a first-ever read, or one of a value older than
 * `maxStaleMs`, waits for the API (shared with anyone asking the same at the
 * same time). A failed background refresh keeps the old value and is tried
 * again by the next read; it is logged without the data.
 */
import type { Logger } from '../../logging/logger.js';
import { createInFlight } from './in-flight.js';
import { createLru } from './lru.js';

export interface ReferenceCacheOptions {
  now: () => number;
  logger: Logger;
  /** Default 5 minutes. */
  freshMs?: number;
  /** Default 1 hour: an older value is not answered; the read waits for the API. */
  maxStaleMs?: number;
  /** Default 500 values, 16 MB (estimated). */
  maxEntries?: number;
  maxBytes?: number;
}

export interface ReferenceCache {
  /** The value for `key`, read with `load` when there is none (or it is too old); refreshed in the background when stale. */
  get<V>(key: string, load: () => Promise<V>): Promise<V>;
  /** Forget one value (e.g. after a change made through the app). */
  forget(key: string): void;
  /** Resolves once no read of it is in flight (e.g. a background refresh). */
  idle(): Promise<void>;
  stats(): { entries: number; bytes: number; hits: number; staleHits: number; misses: number; refreshes: number; evictions: number };
}

interface Held {
  value: unknown;
  at: number;
}

/** Rough size in memory of a JSON-like value (UTF-16 strings plus some overhead). */
export function estimateBytes(value: unknown): number {
  try {
    return 2 * (JSON.stringify(value)?.length ?? 0) + 64;
  } catch {
    return 1024;
  }
}

export function createReferenceCache(options: ReferenceCacheOptions): ReferenceCache {
  const { now, logger } = options;
  const freshMs = options.freshMs ?? 5 * 60_000;
  const maxStaleMs = options.maxStaleMs ?? 60 * 60_000;
  const held = createLru<Held>({
    maxEntries: options.maxEntries ?? 500,
    maxBytes: options.maxBytes ?? 16 * 1024 * 1024,
    sizeOf: (h) => estimateBytes(h.value),
  });
  const inFlight = createInFlight<unknown>();
  const counts = { hits: 0, staleHits: 0, misses: 0, refreshes: 0 };
  // A value read before a forget() must not be kept: each key's reads carry the generation they started in.
  const generations = new Map<string, number>();
  const generation = (key: string) => generations.get(key) ?? 0;

  function read<V>(key: string, load: () => Promise<V>): Promise<V> {
    return inFlight.run(key, async () => {
      const started = generation(key);
      const at = now();
      const value = await load();
      if (generation(key) === started) held.set(key, { value, at });
      return value;
    }) as Promise<V>;
  }

  return {
    async get<V>(key: string, load: () => Promise<V>): Promise<V> {
      const hit = held.get(key);
      const age = hit ? now() - hit.at : Infinity;
      if (hit && age < freshMs) {
        counts.hits++;
        return hit.value as V;
      }
      if (hit && age < maxStaleMs) {
        counts.staleHits++;
        if (!inFlight.has(key)) {
          counts.refreshes++;
          read(key, load).catch((err) => logger.warn('could not refresh reference data; the old value is kept', { kind: key.split(':')[0], error: err }));
        }
        return hit.value as V;
      }
      counts.misses++;
      return read(key, load);
    },
    forget(key) {
      generations.set(key, generation(key) + 1);
      held.delete(key);
      inFlight.detach(key);
    },
    idle: () => inFlight.settled(),
    stats: () => ({ entries: held.size, bytes: held.bytes, ...counts, evictions: held.evictions }),
  };
}
