/**
 * Job leases: only one holder runs a job at a time; a dead holder's lease
 * expires. Each operation is one statement, so racing instances cannot both win.
 */
import type { Ctx, Row } from './db.js';
import { num, str } from './db.js';
import { sharedNow } from './shared-clock.js';
import type { Lease } from './types.js';

function toLease(row: Row): Lease {
  return { name: str(row.name), holder: str(row.holder), acquiredAt: num(row.acquired_at), expiresAt: num(row.expires_at) };
}

/**
 * Take the lease if it is free, expired, or already ours (then it is extended
 * to now + ttlMs). Resolves to true when we hold it afterwards. Times are the
 * shared clock's (the database's), so instances whose clocks differ agree on expiry.
 */
export async function acquireLease(ctx: Ctx, name: string, holder: string, ttlMs: number): Promise<boolean> {
  const now = sharedNow(ctx);
  const row = await ctx.db.get(
    `INSERT INTO job_leases (name, holder, acquired_at, expires_at) VALUES (?, ?, ${now.sql}, ${now.sql} + ?)
     ON CONFLICT (name) DO UPDATE SET
       holder = excluded.holder,
       expires_at = excluded.expires_at,
       acquired_at = CASE WHEN job_leases.holder = excluded.holder THEN job_leases.acquired_at ELSE excluded.acquired_at END
     WHERE job_leases.holder = excluded.holder OR job_leases.expires_at <= ${now.sql}
     RETURNING holder`,
    [name, holder, now.value, now.value, ttlMs, now.value],
  );
  return row !== undefined && str(row.holder) === holder;
}

/** Extend our lease to now + ttlMs. False if someone else holds it (we lost it). */
export async function renewLease(ctx: Ctx, name: string, holder: string, ttlMs: number): Promise<boolean> {
  const now = sharedNow(ctx);
  return (await ctx.db.run(`UPDATE job_leases SET expires_at = ${now.sql} + ? WHERE name = ? AND holder = ?`, [now.value, ttlMs, name, holder])) > 0;
}

/** Give the lease up (only if ours). */
export async function releaseLease(ctx: Ctx, name: string, holder: string): Promise<boolean> {
  return (await ctx.db.run('DELETE FROM job_leases WHERE name = ? AND holder = ?', [name, holder])) > 0;
}

/** Who holds it and until when (an expired lease is still returned). */
export async function getLease(ctx: Ctx, name: string): Promise<Lease | null> {
  const row = await ctx.db.get('SELECT name, holder, acquired_at, expires_at FROM job_leases WHERE name = ?', [name]);
  return row ? toLease(row) : null;
}

/** The names starting with `prefix` of the leases another holder has now (not run out): one query for a whole tick. */
export async function leasesHeldElsewhere(ctx: Ctx, prefix: string, holder: string): Promise<Set<string>> {
  const now = sharedNow(ctx);
  const rows = await ctx.db.all(`SELECT name FROM job_leases WHERE substr(name, 1, ?) = ? AND holder <> ? AND expires_at > ${now.sql}`, [
    Array.from(prefix).length,
    prefix,
    holder,
    now.value,
  ]);
  return new Set(rows.map((r) => str(r.name)));
}

/** Extend every lease `holder` has (to now + ttlMs) in one statement; resolves to their names (a lost one is not among them). */
export async function renewLeasesOf(ctx: Ctx, holder: string, ttlMs: number): Promise<Set<string>> {
  const now = sharedNow(ctx);
  const rows = await ctx.db.all(`UPDATE job_leases SET expires_at = ${now.sql} + ? WHERE holder = ? RETURNING name`, [now.value, ttlMs, holder]);
  return new Set(rows.map((r) => str(r.name)));
}
