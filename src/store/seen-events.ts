/**
 * Events API deliveries already admitted, by `event_id` (migration 005): one
 * statement decides which of several copies racing on any instance gets an
 * event. Times come from the caller (the receiver's clock, as for the replay
 * memory in seen-requests.ts).
 */
import type { Ctx } from './db.js';
import type { EventAdmission } from './types.js';

/**
 * Admit a copy of an event: 'admitted' when this copy may run. It may when the
 * event was never admitted, when its row expired, or when the copy that had it
 * was never answered and its admission is older than `staleBefore`. Otherwise
 * it is refused: 'acked' (the event already went to the app) or 'in-flight'
 * (a copy admitted since `staleBefore` is still being answered).
 */
export async function admitEvent(ctx: Ctx, eventId: string, at: EventAdmission): Promise<'admitted' | 'acked' | 'in-flight'> {
  const row = await ctx.db.get(
    `INSERT INTO seen_events (event_id, state, claim, admitted_at, expires_at) VALUES (?, 'admitted', ?, ?, ?)
     ON CONFLICT (event_id) DO UPDATE SET state = 'admitted', claim = excluded.claim, admitted_at = excluded.admitted_at, expires_at = excluded.expires_at
     WHERE seen_events.expires_at <= ? OR (seen_events.state = 'admitted' AND seen_events.admitted_at < ?)
     RETURNING event_id`,
    [eventId, at.claim, at.now, at.expiresAt, at.now, at.staleBefore],
  );
  if (row) return 'admitted';
  // Refused: which answer fits is read after (a row settled meanwhile is read as it is now).
  const held = await ctx.db.get('SELECT state FROM seen_events WHERE event_id = ?', [eventId]);
  return held?.state === 'acked' ? 'acked' : 'in-flight';
}

/**
 * How the admitted copy was answered: 'acked' (2xx: the event went to the app's listeners) keeps it
 * for good; 'failed' (any other answer: nothing ran) lets the next copy in at once. Only the claim
 * that holds the row changes it; resolves to whether it did.
 */
export async function settleEvent(ctx: Ctx, eventId: string, claim: string, outcome: 'acked' | 'failed'): Promise<boolean> {
  const changed =
    outcome === 'acked'
      ? await ctx.db.run(`UPDATE seen_events SET state = 'acked' WHERE event_id = ? AND claim = ? AND state = 'admitted'`, [eventId, claim])
      : await ctx.db.run(`DELETE FROM seen_events WHERE event_id = ? AND claim = ? AND state = 'admitted'`, [eventId, claim]);
  return changed > 0;
}

/** Forget every event expired at `now`; resolves to how many were forgotten. */
export async function pruneSeenEvents(ctx: Ctx, now: number): Promise<number> {
  return ctx.db.run('DELETE FROM seen_events WHERE expires_at <= ?', [now]);
}
