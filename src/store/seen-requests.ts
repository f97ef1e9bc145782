/**
 * Requests already seen, by a key the caller derives (a hash of a signature):
 * one statement decides which of several racing instances saw a key first.
 * Times come from the caller, whose clock judges the signatures (the wall
 * clock), not the store's.
 */
import type { Ctx } from './db.js';

/**
 * Remember `key` until `expiresAt`. True when it was not remembered (never
 * seen, or only by a row that had expired at `now`), false when it was.
 */
export async function markRequestSeen(ctx: Ctx, key: string, at: { now: number; expiresAt: number }): Promise<boolean> {
  const row = await ctx.db.get(
    `INSERT INTO seen_requests (request_key, expires_at) VALUES (?, ?)
     ON CONFLICT (request_key) DO UPDATE SET expires_at = excluded.expires_at
     WHERE seen_requests.expires_at <= ?
     RETURNING request_key`,
    [key, at.expiresAt, at.now],
  );
  return row !== undefined;
}

/** Forget every key expired at `now`; resolves to how many were forgotten. */
export async function pruneSeenRequests(ctx: Ctx, now: number): Promise<number> {
  return ctx.db.run('DELETE FROM seen_requests WHERE expires_at <= ?', [now]);
}

/** The key /healthz writes: not a hash, so never a request's; already expired, so pruned with the rest. */
const WRITE_PROBE_KEY = 'healthz:write-probe';

/** One real write (an upsert of an expired row): resolves when the database accepts writes. */
export async function probeWrite(ctx: Ctx): Promise<void> {
  await ctx.db.run(
    `INSERT INTO seen_requests (request_key, expires_at) VALUES (?, 0)
     ON CONFLICT (request_key) DO UPDATE SET expires_at = excluded.expires_at`,
    [WRITE_PROBE_KEY],
  );
}

/** Forget one key now (a one-time claim given back because what it guarded did not happen); true when it was remembered. */
export async function forgetRequestSeen(ctx: Ctx, key: string): Promise<boolean> {
  return (await ctx.db.run('DELETE FROM seen_requests WHERE request_key = ?', [key])) > 0;
}
