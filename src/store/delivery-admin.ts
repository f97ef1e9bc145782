/**
 * The delivery ledger as an admin sees it: what happened in the last hours,
 * and a failed delivery put back in line for another try. Times are the
 * store's shared clock (see shared-clock.ts), like every ledger time.
 */
import type { Ctx } from './db.js';
import { num, str } from './db.js';
import { COLUMNS, toDelivery } from './delivery-rows.js';
import { idWhere, recipientTeamWhere } from './recipient-team.js';
import { sharedNow } from './shared-clock.js';
import type { Delivery, RecentDeliveries, RecentDeliveriesQuery } from './types.js';

export async function recentDeliveries(ctx: Ctx, query: RecentDeliveriesQuery): Promise<RecentDeliveries> {
  const now = sharedNow(ctx);
  const team = query.teamId === undefined ? null : recipientTeamWhere(ctx.db.kind, query.teamId);
  const since = `updated_at >= ${now.sql} - ?${team ? ` AND ${team.sql}` : ''}`;
  const window = [now.value, Math.max(0, query.windowMs), ...(team?.params ?? [])];
  const counts = await ctx.db.all(`SELECT state, COUNT(*) AS n FROM deliveries WHERE ${since} GROUP BY state`, window);
  const out: RecentDeliveries = { sent: 0, pending: 0, failed: 0, failedRows: [] };
  for (const row of counts) {
    const state = str(row.state);
    if (state === 'sent' || state === 'pending' || state === 'failed') out[state] = num(row.n);
  }
  const limit = Math.max(0, Math.min(query.failedLimit ?? 10, 1000));
  if (limit > 0 && out.failed > 0) {
    const rows = await ctx.db.all(`SELECT ${COLUMNS} FROM deliveries WHERE state = 'failed' AND ${since} ORDER BY updated_at DESC, id DESC LIMIT ?`, [
      ...window,
      limit,
    ]);
    out.failedRows = rows.map(toDelivery);
  }
  return out;
}

/**
 * A failed delivery may be claimed again, with its attempts counted afresh
 * (an admin's Retry). The reason stays until the next attempt replaces it.
 * Null unless the row is failed now: a pending or sent one is left alone, so
 * the claim still decides who sends, and only once.
 */
export async function reopenDelivery(ctx: Ctx, id: number, teamId?: string): Promise<Delivery | null> {
  const now = sharedNow(ctx);
  const where = idWhere(ctx.db.kind, id, teamId);
  const row = await ctx.db.get(
    `UPDATE deliveries SET retryable = ?, attempts = 0, updated_at = ${now.sql} WHERE ${where.sql} AND state = 'failed' RETURNING ${COLUMNS}`,
    [true, now.value, ...where.params],
  );
  return row ? toDelivery(row) : null;
}
