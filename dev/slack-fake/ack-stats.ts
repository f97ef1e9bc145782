import type { AckRecord } from './types.js';

export interface AckStats {
  count: number;
  /** Requests the app did not ack in time (or answered with an HTTP error). */
  failures: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

/** Nearest-rank percentile of sorted numbers (0 for none). */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] ?? 0;
}

export function ackStats(acks: readonly AckRecord[]): AckStats {
  const latencies = acks.map((a) => a.latencyMs).sort((a, b) => a - b);
  return {
    count: acks.length,
    failures: acks.filter((a) => !a.acked).length,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    maxMs: latencies[latencies.length - 1] ?? 0,
  };
}
