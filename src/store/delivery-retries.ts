/**
 * What the retry sweep works through, chosen in the query so nothing hides a
 * delivery worth another try: failed for a passing reason, or left pending by a
 * holder whose claim went stale, within their attempts. Those out of attempts
 * are first given up on (failed, with the reason), so none stays unfinished forever.
 */
import { type Ctx, str } from './db.js';
import { sharedNow } from './shared-clock.js';
import { COLUMNS, DEFAULT_MAX_ATTEMPTS, GAVE_UP_REASON, toDelivery } from './delivery-rows.js';
import { recipientTeamWhere } from './recipient-team.js';
import type { Delivery, UnfinishedQuery } from './types.js';

export async function unfinishedDeliveries(ctx: Ctx, kind: string, query: UnfinishedQuery): Promise<Delivery[]> {
  const now = sharedNow(ctx);
  const maxAttempts = query.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  const limit = Math.max(1, Math.min(query.limit ?? 200, 10_000));
  const unfinished = `((state = 'failed' AND retryable = ?) OR (state = 'pending' AND claimed_at <= ${now.sql} - ?))`;
  const team = query.teamId === undefined ? null : recipientTeamWhere(ctx.db.kind, query.teamId);
  const inTeam = team ? ` AND ${team.sql}` : '';
  const unfinishedParams = [true, now.value, query.staleAfterMs, ...(team?.params ?? [])];
  await ctx.db.run(
    `UPDATE deliveries SET state = 'failed', retryable = ?, last_error = ${GAVE_UP_REASON}, updated_at = ${now.sql}
     WHERE kind = ? AND attempts >= ? AND ${unfinished}${inTeam}`,
    [false, now.value, kind, maxAttempts, ...unfinishedParams],
  );
  const rows = await ctx.db.all(
    `SELECT ${COLUMNS} FROM deliveries WHERE kind = ? AND attempts < ? AND ${unfinished}${inTeam}
     ORDER BY updated_at, id LIMIT ?`,
    [kind, maxAttempts, ...unfinishedParams, limit],
  );
  return rows.map(toDelivery);
}

/**
 * Whether any delivery (of any kind; of one workspace with `teamId`) may be worth another try now or later:
 * pending, or failed for a passing reason. None: every retry sweep would find nothing (one query for them all).
 */
export async function anyUnfinishedDeliveries(ctx: Ctx, teamId?: string): Promise<boolean> {
  const team = teamId === undefined ? null : recipientTeamWhere(ctx.db.kind, teamId);
  // Written as the partial index deliveries_unfinished is (migration 014), so the query is answered from it.
  const retryable = ctx.db.kind === 'postgres' ? 'retryable' : 'retryable = 1';
  const row = await ctx.db.get(
    `SELECT 1 AS one FROM deliveries WHERE (state = 'pending' OR (state = 'failed' AND ${retryable}))${team ? ` AND ${team.sql}` : ''} LIMIT 1`,
    team?.params ?? [],
  );
  return row !== undefined;
}

/**
 * The workspaces with any delivery a retry sweep could work (as `anyUnfinishedDeliveries` asks of one): one
 * query for all of them, read once a poll tick by a deployment of many workspaces instead of once a workspace.
 * A workspace is the team in its rows' recipients (`<type>:<teamId>/<id>`, recipient-team.ts).
 */
export async function workspacesWithUnfinishedDeliveries(ctx: Ctx): Promise<Set<string>> {
  // The recipient's text after its first ':' (its team, a '/', the rest), and that text's first '/'.
  const at = ctx.db.kind === 'postgres' ? 'strpos' : 'instr';
  const rest = `substr(recipient, ${at}(recipient, ':') + 1)`;
  const slash = `${at}(${rest}, '/')`;
  // Written as the partial index deliveries_unfinished is (migration 014), so the query reads that index alone.
  const retryable = ctx.db.kind === 'postgres' ? 'retryable' : 'retryable = 1';
  const rows = await ctx.db.all(
    `SELECT DISTINCT substr(${rest}, 1, ${slash} - 1) AS team_id FROM deliveries
     WHERE (state = 'pending' OR (state = 'failed' AND ${retryable})) AND ${at}(recipient, ':') > 0 AND ${slash} > 1`,
  );
  return new Set(rows.map((r) => str(r.team_id)));
}
