/**
 * When a kind found by what is due (job.ts `byDue`) is next due for a workspace, from what its run resolved
 * to: `nextDueAt` (ms) when it says, at most `atMostMs` from now; null (nothing known to come) waits that
 * longest; a run that says nothing is due again at its next tick.
 */
export function nextDueOf(result: unknown, now: number, atMostMs: number): number {
  const said = result !== null && typeof result === 'object' && 'nextDueAt' in result ? (result as { nextDueAt: unknown }).nextDueAt : undefined;
  if (said === null) return now + atMostMs;
  if (typeof said !== 'number' || !Number.isFinite(said)) return now;
  return Math.min(said, now + atMostMs);
}
