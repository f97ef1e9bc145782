/**
 * "Now" for claims and leases: one clock for every instance, so an instance
 * whose own clock is off can neither take over a fresh claim nor a live lease.
 * It is the database's clock, read inside the statement that uses it:
 * PostgreSQL's statement_timestamp() (one value per statement), and on SQLite
 * the clock of the one machine that holds the file (SQLite's 'now', one value
 * per statement; the same clock every process on that machine reads). The
 * app's clock is not used, since it may be moved (the demo) or be wrong.
 * Tests may pass a clock they move instead (StoreConfig.sharedClock).
 */
import type { Ctx, Dialect } from './db.js';

const DATABASE_NOW_MS: Record<Dialect, string> = {
  postgres: 'FLOOR(EXTRACT(EPOCH FROM statement_timestamp()) * 1000)::BIGINT',
  sqlite: "CAST(ROUND(unixepoch('subsec') * 1000) AS INTEGER)",
};

export interface SharedNow {
  /** SQL for now in epoch ms, with exactly one `?`: bind `value` to it at each use. */
  readonly sql: string;
  /** The test clock's time, or null for the database's. */
  readonly value: number | null;
}

export function sharedNow(ctx: Ctx): SharedNow {
  return { sql: `COALESCE(?, ${DATABASE_NOW_MS[ctx.db.kind]})`, value: ctx.sharedClock ? ctx.sharedClock() : null };
}
