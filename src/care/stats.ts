/** Cheap per-client counters, for benchmarks, tests and health pages. */
export interface CareClientStats {
  /** HTTP attempts sent (retries included). */
  requests: number;
  /** Attempts that were retries. */
  retries: number;
  /** 429 responses received. */
  rateLimited: number;
  /** Calls that ended in an error. */
  failures: number;
  /** When the API last answered like a working API (2xx, or a 4xx about the request), ms since the epoch. */
  lastAnswerAt: number | null;
  /** The last sign of trouble with the API itself (no connection, timeout, 5xx, credentials refused): when, and what. */
  lastTrouble: { at: number; error: string } | null;
  /** This key's rate-limit headroom as the last response's headers told it (`resetAt` and `at` in ms since the epoch). */
  lastRateLimit: { limit: number; remaining: number; resetAt: number | null; at: number } | null;
}

type Counter = 'requests' | 'retries' | 'rateLimited' | 'failures';

export interface StatsCounter {
  count(name: Counter): void;
  /** An attempt's outcome as health sees it: `ok` = the API answered; otherwise the error's name. */
  outcome(at: number, result: { ok: true } | { ok: false; error: string }): void;
  /** The rate-limit headers of a response (ignored when it carried none). */
  rateLimit(at: number, headers: { limit?: number | undefined; remaining?: number | undefined; resetAt?: number | undefined }): void;
  snapshot(): CareClientStats;
}

export function createStats(): StatsCounter {
  const counts: CareClientStats = { requests: 0, retries: 0, rateLimited: 0, failures: 0, lastAnswerAt: null, lastTrouble: null, lastRateLimit: null };
  return {
    count: (name) => {
      counts[name] += 1;
    },
    outcome: (at, result) => {
      if (result.ok) counts.lastAnswerAt = at;
      else counts.lastTrouble = { at, error: result.error };
    },
    rateLimit: (at, h) => {
      if (h.limit === undefined || h.remaining === undefined) return;
      counts.lastRateLimit = { limit: h.limit, remaining: h.remaining, resetAt: h.resetAt ?? null, at };
    },
    snapshot: () => ({
      ...counts,
      lastTrouble: counts.lastTrouble ? { ...counts.lastTrouble } : null,
      lastRateLimit: counts.lastRateLimit ? { ...counts.lastRateLimit } : null,
    }),
  };
}
