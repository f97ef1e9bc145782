/**
 * Refuses a signed Slack request seen before (a replay) and one whose
 * timestamp is too far ahead. Bolt already refuses stale timestamps and bad
 * signatures; this decides, for a request whose signature verified, whether
 * it may run. What was seen is remembered in the store, so every instance on
 * one database refuses the replay; rows expire with the signature window.
 *
 * An Events API delivery is judged by its `event_id` instead (event-once.ts):
 * Slack's retries (X-Slack-Retry-Num, a header the signature does not cover)
 * and any captured copy run the event once. Slack retries nothing else, so on
 * a command or an interaction the header changes nothing.
 */
import { createHash } from 'node:crypto';
import type { Store } from '../store/index.js';
import { admitEventCopy, type EventVerdict } from './event-once.js';

/** Slack's signature window: Bolt refuses older timestamps; we refuse newer ones. */
export const SIGNATURE_WINDOW_MS = 5 * 60_000;
/** Extra time a seen request is remembered, for clocks of instances that differ a little. */
const CLOCK_MARGIN_MS = 60_000;
const PRUNE_EVERY_MS = 60_000;

export interface ReplayGuardDeps {
  store: Pick<Store, 'markRequestSeen' | 'pruneSeenRequests' | 'admitEvent' | 'settleEvent' | 'pruneSeenEvents'>;
  /** The clock signatures are judged by (Bolt's: the wall clock). Default Date.now. */
  now?: () => number;
}

/** What the guard needs of a request whose signature verified. */
export interface SignedRequest {
  /** X-Slack-Signature (hashed before it is stored; never logged). */
  signature: string;
  /** X-Slack-Request-Timestamp, Unix seconds. */
  timestampSec: number;
  /** An Events API delivery's `event_id` (judged by it, not by the signature). */
  eventId?: string | undefined;
}

export type ReplayVerdict = { ok: true } | EventVerdict | { ok: false; reason: 'future-timestamp' | 'replayed' };

export interface ReplayGuard {
  /** The clock the guard judges by (the receiver verifies signatures with it too). */
  readonly now: () => number;
  /** Decide, and remember the request when it may run. Rejects when the store fails. */
  admit(request: SignedRequest): Promise<ReplayVerdict>;
}

const requestKey = (request: SignedRequest): string => createHash('sha256').update(request.signature).digest('hex');

export function createReplayGuard(deps: ReplayGuardDeps): ReplayGuard {
  const now = deps.now ?? Date.now;
  let lastPrunedAt = Number.NEGATIVE_INFINITY;
  return {
    now,
    async admit(request) {
      const at = now();
      const signedAt = request.timestampSec * 1000;
      if (signedAt > at + SIGNATURE_WINDOW_MS) return { ok: false, reason: 'future-timestamp' };
      if (at - lastPrunedAt >= PRUNE_EVERY_MS) {
        lastPrunedAt = at;
        await deps.store.pruneSeenRequests(at);
        await deps.store.pruneSeenEvents(at);
      }
      if (request.eventId) return admitEventCopy(deps.store, request.eventId, { now: at, signedAt });
      const first = await deps.store.markRequestSeen(requestKey(request), { now: at, expiresAt: signedAt + SIGNATURE_WINDOW_MS + CLOCK_MARGIN_MS });
      return first ? { ok: true } : { ok: false, reason: 'replayed' };
    },
  };
}
