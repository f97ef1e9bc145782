/** How long to wait after failures in a row: doubling from `baseMs`, at most `maxMs`. */
export interface BackoffPolicy {
  baseMs: number;
  maxMs: number;
}

export const DEFAULT_BACKOFF: BackoffPolicy = { baseMs: 60_000, maxMs: 30 * 60_000 };

/** The wait after `failures` failures in a row (1 → base, 2 → 2 × base, …, capped at max); 0 for none. */
export function backoffDelay(failures: number, policy: BackoffPolicy = DEFAULT_BACKOFF): number {
  if (failures < 1) return 0;
  // 2^(n-1) overflows to Infinity for huge n; Math.min keeps it at max.
  return Math.min(policy.baseMs * 2 ** (failures - 1), policy.maxMs);
}
