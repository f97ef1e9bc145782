/**
 * Client-side pacing: a token bucket (rate per second, burst = capacity)
 * shared by every call of one client, and never more than `rate` requests in
 * any one-second span (a bucket alone sends a full burst and then its refill
 * inside the same second: twice its rate in the server's window, which is how
 * a client set to its share of a key still pushed its neighbour into 429s).
 * It believes the server whenever the server knows better (another program
 * may be spending the same key):
 *
 * - fewer Remaining than our bucket holds: we take the server's number, and at
 *   zero we hold every request until Reset;
 * - a 429: everyone holds until Reset (or a back-off);
 * - other programs seen spending the key (share-estimator.ts): we pace
 *   smoothly (no bursts) at the key's Limit minus their share, so a neighbour
 *   that sends steadily is not starved by our bursts at each window's start.
 *
 * Waiters are served first come, first served by a single pump that re-reads
 * the state after every sleep, so news from the server also delays requests
 * that were already waiting.
 */
import type { CareClock } from './clock.js';
import { createShareEstimator } from './share-estimator.js';

export interface RateLimiterOptions {
  ratePerSecond: number;
  /** Bucket capacity; defaults to the rate (one second's worth). */
  burst?: number;
  /** Longest the server can make us hold (guards against clock skew); default 30 s. */
  maxBlockMs?: number;
  clock: CareClock;
}

/** What the server said in its rate-limit headers. */
export interface ServerRateInfo {
  limit?: number | undefined;
  remaining?: number | undefined;
  /** Epoch milliseconds. */
  resetAt?: number | undefined;
}

/** Handed out by `acquire`; give it back to `observe` (or `release`) when the attempt ends. */
export interface Permit {
  readonly seq: number;
}

export interface RateLimiterState {
  tokens: number;
  blockedUntil: number;
  waiting: number;
  /** Current pace (requests per second) and burst. */
  ratePerSecond: number;
  burst: number;
  /** Other programs' requests per window, as estimated. */
  foreignPerWindow: number;
}

export interface RateLimiter {
  acquire(): Promise<Permit>;
  /**
   * The response to a permit's request arrived: adopt the server's view when it
   * is tighter than ours. Requests of ours still in flight that were sent after
   * this one are assumed not yet counted by the server. `counted` is false for
   * a 429 (the server refused the request, it did not count it).
   */
  observe(info: ServerRateInfo, permit?: Permit, counted?: boolean): void;
  /** The permit's request got no response (network error, timeout). */
  release(permit: Permit): void;
  /** Hold every request until `untilMs` (a 429, or the server's reset). */
  blockUntil(untilMs: number): void;
  state(): RateLimiterState;
}

/** The span of the at-most-`rate` rule. */
export const SPAN_MS = 1000;

/** Others' estimated share (requests per window) above which we stop bursting. */
export const SHARED_KEY_THRESHOLD = 0.3;

export function createRateLimiter(options: RateLimiterOptions): RateLimiter {
  const { clock } = options;
  if (!(options.ratePerSecond > 0)) throw new RangeError('rateLimitPerSecond must be > 0');
  const ownRate = options.ratePerSecond;
  const ownBurst = Math.max(1, options.burst ?? options.ratePerSecond);
  const maxBlockMs = options.maxBlockMs ?? 30_000;
  const estimator = createShareEstimator();
  let rate = ownRate;
  let capacity = ownBurst;
  let tokens = capacity;
  let updatedAt = clock.now();
  let blockedUntil = 0;
  let issued = 0;
  let pumping = false;
  /** Permits whose request has no response yet. */
  const inFlight = new Set<number>();
  const queue: Array<(permit: Permit) => void> = [];
  /** When our last `perSecond` requests were sent: at most that many in any second. */
  const perSecond = Math.max(1, Math.floor(ownRate));
  const sentAt: number[] = [];

  const refill = (now: number): void => {
    if (now > updatedAt) {
      tokens = Math.min(capacity, tokens + ((now - updatedAt) * rate) / 1000);
      updatedAt = now;
    }
  };

  /** Milliseconds until a token may be taken (0 = now). */
  const waitMs = (now: number): number => {
    refill(now);
    if (blockedUntil > now) return blockedUntil - now;
    if (sentAt.length >= perSecond && sentAt[0]! + SPAN_MS > now) return sentAt[0]! + SPAN_MS - now;
    return tokens >= 1 ? 0 : Math.ceil(((1 - tokens) * 1000) / rate);
  };

  const block = (now: number, untilMs: number): void => {
    blockedUntil = Math.max(blockedUntil, Math.min(untilMs, now + maxBlockMs));
  };

  const take = (): Permit => {
    sentAt.push(clock.now());
    if (sentAt.length > perSecond) sentAt.shift();
    tokens -= 1;
    issued += 1;
    inFlight.add(issued);
    return { seq: issued };
  };

  /** Pace by our own settings, or smoothly at what the key leaves us when others use it. */
  const adapt = (now: number, limit: number): void => {
    refill(now);
    const foreign = estimator.foreignPerWindow();
    const shared = foreign >= SHARED_KEY_THRESHOLD;
    rate = shared ? Math.min(ownRate, Math.max(limit - foreign, limit * 0.1)) : ownRate;
    capacity = shared ? 1 : ownBurst;
    tokens = Math.min(tokens, capacity);
  };

  const pump = async (): Promise<void> => {
    pumping = true;
    try {
      while (queue.length > 0) {
        const wait = waitMs(clock.now());
        if (wait > 0) {
          await clock.sleep(wait);
          continue;
        }
        queue.shift()!(take());
      }
    } finally {
      pumping = false;
    }
  };

  return {
    acquire() {
      if (queue.length === 0 && waitMs(clock.now()) === 0) return Promise.resolve(take());
      return new Promise<Permit>((resolve) => {
        queue.push(resolve);
        if (!pumping) void pump();
      });
    },

    observe(info, permit, counted = true) {
      if (permit) inFlight.delete(permit.seq);
      const now = clock.now();
      const { remaining, resetAt, limit } = info;
      if (remaining === undefined) return;
      // Stale news (from a window that has already reset) says nothing about now.
      if (resetAt !== undefined && resetAt <= now) return;
      let sentBefore = 0;
      let sentSince = 0;
      for (const seq of permit ? inFlight : []) {
        if (seq > permit!.seq) sentSince++;
        else sentBefore++;
      }
      if (counted && permit && limit !== undefined && resetAt !== undefined) {
        estimator.observe({ limit, remaining, resetAt, pendingBefore: sentBefore });
        adapt(now, limit);
      }
      refill(now);
      const left = remaining - sentSince;
      if (left < tokens) tokens = left;
      if (left <= 0 && resetAt !== undefined) block(now, resetAt);
    },

    release(permit) {
      inFlight.delete(permit.seq);
    },

    blockUntil(untilMs) {
      const now = clock.now();
      refill(now);
      tokens = Math.min(tokens, 0);
      block(now, untilMs);
    },

    state() {
      refill(clock.now());
      return { tokens, blockedUntil, waiting: queue.length, ratePerSecond: rate, burst: capacity, foreignPerWindow: estimator.foreignPerWindow() };
    },
  };
}

function header(headers: Record<string, string | string[] | undefined>, name: string): number | undefined {
  const raw = headers[name];
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (value === undefined || value.trim() === '') return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? n : undefined;
}

/** `X-CareHQ-RateLimit-*` headers (lower-cased keys) -> ServerRateInfo; Reset is epoch seconds, maybe fractional. */
export function parseRateLimitHeaders(headers: Record<string, string | string[] | undefined>): ServerRateInfo {
  const reset = header(headers, 'x-carehq-ratelimit-reset');
  return {
    limit: header(headers, 'x-carehq-ratelimit-limit'),
    remaining: header(headers, 'x-carehq-ratelimit-remaining'),
    resetAt: reset === undefined ? undefined : Math.round(reset * 1000),
  };
}
