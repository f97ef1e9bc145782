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
 *
 * The store is not a hard dependency of every request: when it cannot answer
 * within `storeWaitMs` (locked, down, slow), the guard lets a request through
 * and remembers it in this instance's memory until its signature window ends
 * (replay-memory.ts), so a copy is still refused here; another instance would
 * not know it. Each such request is counted (`onFailOpen`: the metric
 * care_slack_replay_guard_fail_open_total).
 */
import { createHash } from 'node:crypto';
import type { Logger } from '../../logging/logger.js';
import type { Store } from '../../store/index.js';
import { admitEventCopy, EVENT_MEMORY_MS, type EventVerdict } from './event-once.js';
import { ReplayMemory } from './replay-memory.js';

/** Slack's signature window: Bolt refuses older timestamps; we refuse newer ones. */
export const SIGNATURE_WINDOW_MS = 5 * 60_000;
/** Extra time a seen request is remembered, for clocks of instances that differ a little. */
const CLOCK_MARGIN_MS = 60_000;
const PRUNE_EVERY_MS = 60_000;
/** How long the store may take to decide before a request is let through on this instance's memory alone. */
export const STORE_WAIT_MS = 500;
const WARN_EVERY_MS = 60_000;

export interface ReplayGuardDeps {
  store: Pick<Store, 'markRequestSeen' | 'pruneSeenRequests' | 'admitEvent' | 'settleEvent' | 'pruneSeenEvents'>;
  /** The clock signatures are judged by (Bolt's: the wall clock). Default Date.now. */
  now?: () => number;
  /** How long the store may take to answer (default STORE_WAIT_MS). */
  storeWaitMs?: number;
  /** Told each time a request is let through without the store's answer (metrics). */
  onFailOpen?: () => void;
  /** Told (at most once a minute) that the guard is running on memory alone. */
  logger?: Logger;
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
  /** Decide, and remember the request when it may run (in the store; in memory when the store cannot answer in time). */
  admit(request: SignedRequest): Promise<ReplayVerdict>;
}

const requestKey = (request: SignedRequest): string => createHash('sha256').update(request.signature).digest('hex');

export function createReplayGuard(deps: ReplayGuardDeps): ReplayGuard {
  const now = deps.now ?? Date.now;
  const storeWaitMs = deps.storeWaitMs ?? STORE_WAIT_MS;
  const memory = new ReplayMemory();
  let lastPrunedAt = Number.NEGATIVE_INFINITY;
  let lastWarnedAt = Number.NEGATIVE_INFINITY;

  /** The store's verdict, or undefined when it failed or did not answer within storeWaitMs. */
  async function askStore<T>(at: number, decide: () => Promise<T>): Promise<T | undefined> {
    const decided = (async () => {
      if (at - lastPrunedAt >= PRUNE_EVERY_MS) {
        lastPrunedAt = at;
        await deps.store.pruneSeenRequests(at);
        await deps.store.pruneSeenEvents(at);
      }
      return decide();
    })().catch(() => undefined);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), storeWaitMs);
    });
    return Promise.race([decided, late]).finally(() => clearTimeout(timer));
  }

  return {
    now,
    async admit(request) {
      const at = now();
      const signedAt = request.timestampSec * 1000;
      if (signedAt > at + SIGNATURE_WINDOW_MS) return { ok: false, reason: 'future-timestamp' };
      const eventId = request.eventId;
      const key = eventId ? `event:${eventId}` : requestKey(request);
      if (memory.has(key, at)) return eventId ? { ok: false, reason: 'duplicate-event' } : { ok: false, reason: 'replayed' };
      const expiresAt = eventId ? Math.max(at, signedAt) + EVENT_MEMORY_MS : signedAt + SIGNATURE_WINDOW_MS + CLOCK_MARGIN_MS;
      const verdict = await askStore<ReplayVerdict>(at, async () => {
        if (eventId) return admitEventCopy(deps.store, eventId, { now: at, signedAt });
        return (await deps.store.markRequestSeen(key, { now: at, expiresAt })) ? { ok: true } : { ok: false, reason: 'replayed' };
      });
      if (verdict !== undefined) return verdict;
      memory.remember(key, expiresAt, at);
      deps.onFailOpen?.();
      if (at - lastWarnedAt >= WARN_EVERY_MS) {
        lastWarnedAt = at;
        deps.logger?.warn('the replay guard let a request through on this instance’s memory alone: the database did not answer in time', {
          waitedMs: storeWaitMs,
        });
      }
      return { ok: true };
    },
  };
}
