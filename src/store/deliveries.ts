/**
 * The delivery ledger: one row per (kind, action, occurrence, recipient).
 * The unique key makes a second claim of the same delivery lose; every state
 * change is one conditional statement (compare-and-set on state + attempts),
 * so concurrent instances never both win.
 */
import type { Ctx, Dialect, Param } from './db.js';
import { bool, num } from './db.js';
import { COLUMNS, DEFAULT_MAX_ATTEMPTS, GAVE_UP_REASON, toDelivery } from './delivery-rows.js';
import { idWhere, recipientTeamWhere } from './recipient-team.js';
import { sharedNow } from './shared-clock.js';
import type { ClaimOptions, ClaimOutcome, Delivery, DeliveryFilter, DeliveryKey, FailOptions } from './types.js';

export { DEFAULT_MAX_ATTEMPTS } from './delivery-rows.js';

const KEY_WHERE = 'kind = ? AND action_id = ? AND occurrence = ? AND recipient = ?';
const MAX_ERROR_CHARS = 2000;

const keyParams = (key: DeliveryKey): Param[] => [key.kind, key.actionId, key.occurrence, key.recipient];

/**
 * Try to become the one who sends this delivery. See ClaimOutcome for what
 * each outcome asks of the caller.
 */
export async function claimDelivery(ctx: Ctx, key: DeliveryKey, options: ClaimOptions): Promise<ClaimOutcome> {
  const maxAttempts = options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  const { holder, staleAfterMs } = options;
  const now = sharedNow(ctx);
  const NOW = now.sql;

  const inserted = await ctx.db.get(
    `INSERT INTO deliveries (kind, action_id, occurrence, recipient, state, attempts, claimed_by, claimed_at, retryable, created_at, updated_at)
     VALUES (?, ?, ?, ?, 'pending', 1, ?, ${NOW}, ?, ${NOW}, ${NOW})
     ON CONFLICT (kind, action_id, occurrence, recipient) DO NOTHING
     RETURNING ${COLUMNS}`,
    [...keyParams(key), holder, now.value, false, now.value, now.value],
  );
  if (inserted) return { outcome: 'claimed', delivery: toDelivery(inserted) };

  // The row exists. Decide from what it holds; every change below only
  // applies if the row is still exactly as read (state and attempts), else re-read.
  for (let round = 0; round < 5; round++) {
    const row = await ctx.db.get(`SELECT ${COLUMNS}, CASE WHEN claimed_at <= ${NOW} - ? THEN 1 ELSE 0 END AS stale FROM deliveries WHERE ${KEY_WHERE}`, [
      now.value,
      staleAfterMs,
      ...keyParams(key),
    ]);
    if (!row) throw new Error('claimDelivery: the delivery row vanished');
    const seen = toDelivery(row);
    if (seen.state === 'sent') return { outcome: 'sent', delivery: seen, channel: seen.slackChannel, ts: seen.slackTs };

    if (seen.state === 'pending') {
      if (!bool(row.stale)) return { outcome: 'busy', delivery: seen };
      if (seen.attempts >= maxAttempts) {
        const gaveUp = await giveUp(ctx, seen);
        if (gaveUp) return { outcome: 'failed', delivery: gaveUp };
        continue;
      }
      const reclaimed = await ctx.db.get(
        `UPDATE deliveries SET claimed_by = ?, claimed_at = ${NOW}, attempts = attempts + 1, updated_at = ${NOW}
         WHERE id = ? AND state = 'pending' AND attempts = ? AND claimed_at <= ${NOW} - ? RETURNING ${COLUMNS}`,
        [holder, now.value, now.value, seen.id, seen.attempts, now.value, staleAfterMs],
      );
      if (reclaimed) return { outcome: 'reclaimed', delivery: toDelivery(reclaimed), previousHolder: seen.claimedBy };
      continue;
    }

    // failed
    if (!seen.retryable) return { outcome: 'failed', delivery: seen };
    if (seen.attempts >= maxAttempts) {
      const gaveUp = await giveUp(ctx, seen);
      if (gaveUp) return { outcome: 'failed', delivery: gaveUp };
      continue;
    }
    const retry = await ctx.db.get(
      `UPDATE deliveries SET state = 'pending', claimed_by = ?, claimed_at = ${NOW}, attempts = attempts + 1, updated_at = ${NOW}
       WHERE id = ? AND state = 'failed' AND attempts = ? RETURNING ${COLUMNS}`,
      [holder, now.value, now.value, seen.id, seen.attempts],
    );
    if (retry) return { outcome: 'failed-retry', delivery: toDelivery(retry) };
  }
  // Others kept changing the row under us: report it as someone else's.
  const latest = await getDelivery(ctx, key);
  return { outcome: 'busy', delivery: latest! };
}

/** Out of attempts: failed for good, with the reason kept. Null if the row changed meanwhile. */
async function giveUp(ctx: Ctx, seen: Delivery): Promise<Delivery | null> {
  const now = sharedNow(ctx);
  const row = await ctx.db.get(
    `UPDATE deliveries SET state = 'failed', retryable = ?, last_error = ${GAVE_UP_REASON}, updated_at = ${now.sql}
     WHERE id = ? AND state = ? AND attempts = ? RETURNING ${COLUMNS}`,
    [false, now.value, seen.id, seen.state, seen.attempts],
  );
  return row ? toDelivery(row) : null;
}

/**
 * Record that the message went out. Resolves to false only if the delivery was
 * already marked sent (the first record is kept) or does not exist.
 */
export async function markSent(ctx: Ctx, id: number, sent: { channel: string; ts: string }, teamId?: string): Promise<boolean> {
  const now = sharedNow(ctx);
  const row = idWhere(ctx.db.kind, id, teamId);
  const changed = await ctx.db.run(
    `UPDATE deliveries SET state = 'sent', slack_channel = ?, slack_ts = ?, sent_at = ${now.sql}, updated_at = ${now.sql}, retryable = ?
     WHERE ${row.sql} AND state <> 'sent'`,
    [sent.channel, sent.ts, now.value, now.value, false, ...row.params],
  );
  return changed > 0;
}

/**
 * Record a failed attempt on a pending delivery. With `holder`, only if that
 * holder still has the claim. Keep secrets out of `error`. Resolves to false
 * when nothing changed (not pending, or claimed by someone else since).
 */
export async function markFailed(ctx: Ctx, id: number, error: string, options: FailOptions, teamId?: string): Promise<boolean> {
  const now = sharedNow(ctx);
  const row = idWhere(ctx.db.kind, id, teamId);
  const doubt = options.inDoubtAt !== undefined ? ', in_doubt_at = ?' : '';
  const uncounted = options.countAttempt === false ? ', attempts = attempts - 1' : '';
  const params: Param[] = [
    error.slice(0, MAX_ERROR_CHARS),
    options.retryable,
    now.value,
    ...(options.inDoubtAt !== undefined ? [options.inDoubtAt] : []),
    ...row.params,
  ];
  let sql = `UPDATE deliveries SET state = 'failed', last_error = ?, retryable = ?, updated_at = ${now.sql}${doubt}${uncounted} WHERE ${row.sql} AND state = 'pending'`;
  if (options.holder !== undefined) {
    sql += ' AND claimed_by = ?';
    params.push(options.holder);
  }
  return (await ctx.db.run(sql, params)) > 0;
}

/**
 * A post whose outcome is unknown (Slack did not answer in time and may still
 * post it): the claim stays pending and the holder's, so nobody posts again
 * before it goes stale, and the next claimer is told to check Slack first
 * ('reclaimed'). Notes the error, and `at`: when that post began, on the app's
 * clock (the one Slack's message times follow; the database's may differ).
 * False if the holder no longer has the claim.
 */
export async function markInDoubt(ctx: Ctx, id: number, error: string, options: { holder: string; at: number }, teamId?: string): Promise<boolean> {
  const now = sharedNow(ctx);
  const row = idWhere(ctx.db.kind, id, teamId);
  return (
    (await ctx.db.run(
      `UPDATE deliveries SET last_error = ?, retryable = ?, updated_at = ${now.sql}, in_doubt_at = ? WHERE ${row.sql} AND state = 'pending' AND claimed_by = ?`,
      [error.slice(0, MAX_ERROR_CHARS), true, now.value, options.at, ...row.params, options.holder],
    )) > 0
  );
}

export async function getDelivery(ctx: Ctx, key: DeliveryKey): Promise<Delivery | null> {
  const row = await ctx.db.get(`SELECT ${COLUMNS} FROM deliveries WHERE ${KEY_WHERE}`, keyParams(key));
  return row ? toDelivery(row) : null;
}

export async function getDeliveryById(ctx: Ctx, id: number, teamId?: string): Promise<Delivery | null> {
  const where = idWhere(ctx.db.kind, id, teamId);
  const row = await ctx.db.get(`SELECT ${COLUMNS} FROM deliveries WHERE ${where.sql}`, where.params);
  return row ? toDelivery(row) : null;
}

function where(dialect: Dialect, filter: DeliveryFilter): { sql: string; params: Param[] } {
  const parts: string[] = [];
  const params: Param[] = [];
  const add = (column: string, value: string | undefined) => {
    if (value !== undefined) {
      parts.push(`${column} = ?`);
      params.push(value);
    }
  };
  add('kind', filter.kind);
  add('action_id', filter.actionId);
  add('recipient', filter.recipient);
  add('state', filter.state);
  if (filter.teamId !== undefined) {
    const team = recipientTeamWhere(dialect, filter.teamId);
    parts.push(team.sql);
    params.push(...team.params);
  }
  return { sql: parts.length ? `WHERE ${parts.join(' AND ')}` : '', params };
}

export async function listDeliveries(ctx: Ctx, filter: DeliveryFilter = {}): Promise<Delivery[]> {
  const { sql, params } = where(ctx.db.kind, filter);
  const limit = Math.max(1, Math.min(filter.limit ?? 1000, 10_000));
  const rows = await ctx.db.all(`SELECT ${COLUMNS} FROM deliveries ${sql} ORDER BY id ${filter.order === 'desc' ? 'DESC' : 'ASC'} LIMIT ?`, [...params, limit]);
  return rows.map(toDelivery);
}

export async function countDeliveries(ctx: Ctx, filter: Omit<DeliveryFilter, 'order' | 'limit'> = {}): Promise<number> {
  const { sql, params } = where(ctx.db.kind, filter);
  const row = await ctx.db.get(`SELECT COUNT(*) AS n FROM deliveries ${sql}`, params);
  return row ? num(row.n) : 0;
}
