/**
 * Each Events API event runs once, by Slack's `event_id`, on every instance.
 *
 * Why not by signature: Slack's retry of an event carries `X-Slack-Retry-Num`,
 * a header the signature does not cover, so a captured request sent again with
 * Retry-Num 1, 2 and 3 looked like three new retries.
 *
 * The rule (the simplest that is correct): an event is recorded when a copy
 * of it is admitted, and the copy's answer settles it.
 * - Answered 2xx: "acked". Bolt acknowledges an event before any listener
 *   runs, so an acked event went to the app. Every later copy is refused:
 *   answered 200 with `X-Slack-No-Retry: 1` (Slack need not try again), and
 *   nothing runs.
 * - Answered anything else: nothing ran, so the row is let go and Slack's next
 *   retry runs the event.
 * - Never answered (the instance died, or is still working on it): a copy
 *   arriving within 30 s of the admission is refused with 503, so Slack tries
 *   again later (its retries come about 1 and 5 minutes later); after that,
 *   the admitting copy counts as abandoned and the next retry runs the event.
 *   A copy still unanswered after 30 s is abandoned: Slack itself gives up
 *   on an answer after 3 s.
 * Rows live as long as any copy could still pass the signature check: Slack's
 * retries come within about 5 minutes of the first, each valid 5 minutes.
 */
import { randomBytes } from 'node:crypto';
import type { Store } from '../../store/index.js';

/** An admitting copy never answered within this is abandoned: the next copy may run the event. */
export const EVENT_ABANDONED_AFTER_MS = 30_000;
/** How long an event is remembered after its first copy was signed: Slack's retries (~5 min) plus the signature window of the last, and a margin. */
export const EVENT_MEMORY_MS = 15 * 60_000;

export type EventVerdict =
  | { ok: true /** Tell the store how this copy was answered (2xx or not). */; settle(acked: boolean): Promise<void> }
  | { ok: false; reason: 'duplicate-event' | 'event-in-flight' };

export async function admitEventCopy(
  store: Pick<Store, 'admitEvent' | 'settleEvent'>,
  eventId: string,
  at: { now: number; signedAt: number },
): Promise<EventVerdict> {
  const claim = randomBytes(9).toString('base64url');
  const verdict = await store.admitEvent(eventId, {
    claim,
    now: at.now,
    staleBefore: at.now - EVENT_ABANDONED_AFTER_MS,
    expiresAt: Math.max(at.now, at.signedAt) + EVENT_MEMORY_MS,
  });
  if (verdict === 'acked') return { ok: false, reason: 'duplicate-event' };
  if (verdict === 'in-flight') return { ok: false, reason: 'event-in-flight' };
  return {
    ok: true,
    settle: async (acked) => {
      await store.settleEvent(eventId, claim, acked ? 'acked' : 'failed');
    },
  };
}
