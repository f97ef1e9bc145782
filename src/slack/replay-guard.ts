/**
 * Refuses a signed Slack request seen before (a replay) and one whose
 * timestamp is too far ahead. Bolt already refuses stale timestamps and bad
 * signatures; this decides, for a request whose signature verified, whether
 * it may run. What was seen is remembered in the store, so every instance on
 * one database refuses the replay; rows expire with the signature window.
 *
 * Slack's own retries of an Events API delivery (X-Slack-Retry-Num 1-3) are
 * remembered under their own key, so they reach Bolt as before even if Slack
 * signed them with the same timestamp. Slack retries nothing else, so on a
 * command or an interaction the header changes nothing.
 *
 * The store is not a hard dependency of every request: when it cannot answer
 * within `storeWaitMs` (locked, down, slow), the guard lets a request through
 * and remembers it in this instance's memory until its signature window ends
 * (replay-memory.ts), so a copy is still refused here; another instance would
 * not know it. Each such request is counted (`onFailOpen`: the metric
 * care_slack_replay_guard_fail_open_total).
 */
import { createHash } from 'node:crypto';
import type { Logger } from '../logging/logger.js';
import type { Store } from '../store/index.js';
import { ReplayMemory } from './replay-memory.js';

/** Slack's signature window: Bolt refuses older timestamps; we refuse newer ones. */
export const SIGNATURE_WINDOW_MS = 5 * 60_000;
/** Extra time a seen request is remembered, for clocks of instances that differ a little. */
const CLOCK_MARGIN_MS = 60_000;
const PRUNE_EVERY_MS = 60_000;
const MAX_SLACK_RETRIES = 3;
/** How long the store may take to decide before a request is let through on this instance's memory alone. */
export const STORE_WAIT_MS = 500;
const WARN_EVERY_MS = 60_000;

export interface ReplayGuardDeps {
  store: Pick<Store, 'markRequestSeen' | 'pruneSeenRequests'>;
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
  /** X-Slack-Retry-Num, when present. */
  retryNum?: number | undefined;
  /** True for an Events API delivery (a JSON body), the only kind Slack retries. */
  eventsApi: boolean;
}

export type ReplayVerdict = { ok: true } | { ok: false; reason: 'future-timestamp' | 'replayed' };

export interface ReplayGuard {
  /** The clock the guard judges by (the receiver verifies signatures with it too). */
  readonly now: () => number;
  /** Decide, and remember the request when it may run (in the store; in memory when the store cannot answer in time). */
  admit(request: SignedRequest): Promise<ReplayVerdict>;
}

function requestKey(request: SignedRequest): string {
  const hash = createHash('sha256').update(request.signature).digest('hex');
  const retry = request.retryNum;
  const slackRetry = request.eventsApi && retry !== undefined && Number.isInteger(retry) && retry >= 1 && retry <= MAX_SLACK_RETRIES;
  return slackRetry ? `${hash}:retry-${retry}` : hash;
}

export function createReplayGuard(deps: ReplayGuardDeps): ReplayGuard {
  const now = deps.now ?? Date.now;
  const storeWaitMs = deps.storeWaitMs ?? STORE_WAIT_MS;
  const memory = new ReplayMemory();
  let lastPrunedAt = Number.NEGATIVE_INFINITY;
  let lastWarnedAt = Number.NEGATIVE_INFINITY;

  /** The store's verdict: true = first sight; undefined = it failed or did not answer within storeWaitMs. */
  async function askStore(key: string, at: number, expiresAt: number): Promise<boolean | undefined> {
    const decided = (async () => {
      if (at - lastPrunedAt >= PRUNE_EVERY_MS) {
        lastPrunedAt = at;
        await deps.store.pruneSeenRequests(at);
      }
      return deps.store.markRequestSeen(key, { now: at, expiresAt });
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
      const key = requestKey(request);
      if (memory.has(key, at)) return { ok: false, reason: 'replayed' };
      const expiresAt = signedAt + SIGNATURE_WINDOW_MS + CLOCK_MARGIN_MS;
      const first = await askStore(key, at, expiresAt);
      if (first === undefined) {
        memory.remember(key, expiresAt, at);
        deps.onFailOpen?.();
        if (at - lastWarnedAt >= WARN_EVERY_MS) {
          lastWarnedAt = at;
          deps.logger?.warn('the replay guard let a request through on this instance’s memory alone: the database did not answer in time', {
            waitedMs: storeWaitMs,
          });
        }
        return { ok: true };
      }
      return first ? { ok: true } : { ok: false, reason: 'replayed' };
    },
  };
}
