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
}

type Counter = 'requests' | 'retries' | 'rateLimited' | 'failures';

export interface StatsCounter {
  count(name: Counter): void;
  /** An attempt's outcome as health sees it: `ok` = the API answered; otherwise the error's name. */
  outcome(at: number, result: { ok: true } | { ok: false; error: string }): void;
  snapshot(): CareClientStats;
}

export function createStats(): StatsCounter {
  const counts: CareClientStats = { requests: 0, retries: 0, rateLimited: 0, failures: 0, lastAnswerAt: null, lastTrouble: null };
  return {
    count: (name) => {
      counts[name] += 1;
    },
    outcome: (at, result) => {
      if (result.ok) counts.lastAnswerAt = at;
      else counts.lastTrouble = { at, error: result.error };
    },
    snapshot: () => ({ ...counts, lastTrouble: counts.lastTrouble ? { ...counts.lastTrouble } : null }),
  };
}
