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
}

export interface StatsCounter {
  count(name: keyof CareClientStats): void;
  snapshot(): CareClientStats;
}

export function createStats(): StatsCounter {
  const counts: CareClientStats = { requests: 0, retries: 0, rateLimited: 0, failures: 0 };
  return {
    count: (name) => {
      counts[name] += 1;
    },
    snapshot: () => ({ ...counts }),
  };
}
