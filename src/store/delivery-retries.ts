/**
 * What the retry sweep works through, chosen in the query so nothing hides a
 * delivery worth another try: failed for a passing reason, or left pending by a
 * holder whose claim went stale, within their attempts. Those out of attempts
 * are first given up on (failed, with the reason), so none stays unfinished forever.
 */
import type { Ctx } from './db.js';
import { COLUMNS, DEFAULT_MAX_ATTEMPTS, GAVE_UP_REASON, toDelivery } from './delivery-rows.js';
import type { Delivery, UnfinishedQuery } from './types.js';

const UNFINISHED = `((state = 'failed' AND retryable = ?) OR (state = 'pending' AND claimed_at <= ?))`;

export async function unfinishedDeliveries(ctx: Ctx, kind: string, query: UnfinishedQuery): Promise<Delivery[]> {
  const now = ctx.now();
  const maxAttempts = query.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  const limit = Math.max(1, Math.min(query.limit ?? 200, 10_000));
  const staleBefore = now - query.staleAfterMs;
  await ctx.db.run(
    `UPDATE deliveries SET state = 'failed', retryable = ?, last_error = ${GAVE_UP_REASON}, updated_at = ?
     WHERE kind = ? AND attempts >= ? AND ${UNFINISHED}`,
    [false, now, kind, maxAttempts, true, staleBefore],
  );
  const rows = await ctx.db.all(
    `SELECT ${COLUMNS} FROM deliveries WHERE kind = ? AND attempts < ? AND ${UNFINISHED}
     ORDER BY updated_at, id LIMIT ?`,
    [kind, maxAttempts, true, staleBefore, limit],
  );
  return rows.map(toDelivery);
}
