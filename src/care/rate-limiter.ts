/**
 * Client-side pacing: a token bucket (rate per second, burst = capacity)
 * shared by every call of one client, that believes the server whenever the
 * server knows better (another program may be spending the same key).
 *
 * Waiters are served first come, first served by a single pump that re-reads
 * the state after every sleep, so news from the server (fewer remaining, a
 * reset time, a 429) also delays requests that were already waiting.
 */
import type { CareClock } from './clock.js';

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

/** Handed out by `acquire`; give it back to `observe` with the response's headers. */
export interface Permit {
  readonly seq: number;
}

export interface RateLimiterState {
  tokens: number;
  blockedUntil: number;
  waiting: number;
}

export interface RateLimiter {
  acquire(): Promise<Permit>;
  /** Adopt the server's view when it is tighter than ours. */
  observe(info: ServerRateInfo, permit?: Permit): void;
  /** Hold every request until `untilMs` (a 429, or the server's reset). */
  blockUntil(untilMs: number): void;
  state(): RateLimiterState;
}

export function createRateLimiter(options: RateLimiterOptions): RateLimiter {
  const { clock } = options;
  if (!(options.ratePerSecond > 0)) throw new RangeError('rateLimitPerSecond must be > 0');
  const capacity = Math.max(1, options.burst ?? options.ratePerSecond);
  const perMs = options.ratePerSecond / 1000;
  const maxBlockMs = options.maxBlockMs ?? 30_000;
  let tokens = capacity;
  let updatedAt = clock.now();
  let blockedUntil = 0;
  let issued = 0;
  let pumping = false;
  const queue: Array<(permit: Permit) => void> = [];

  const refill = (now: number): void => {
    if (now > updatedAt) {
      tokens = Math.min(capacity, tokens + (now - updatedAt) * perMs);
      updatedAt = now;
    }
  };

  /** Milliseconds until a token may be taken (0 = now). */
  const waitMs = (now: number): number => {
    refill(now);
    if (blockedUntil > now) return blockedUntil - now;
    return tokens >= 1 ? 0 : Math.ceil((1 - tokens) / perMs);
  };

  const block = (now: number, untilMs: number): void => {
    blockedUntil = Math.max(blockedUntil, Math.min(untilMs, now + maxBlockMs));
  };

  const take = (): Permit => {
    tokens -= 1;
    issued += 1;
    return { seq: issued };
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

    observe(info, permit) {
      const now = clock.now();
      if (info.remaining === undefined || !Number.isFinite(info.remaining)) return;
      // Stale news (from a window that has already reset) says nothing about now.
      if (info.resetAt !== undefined && info.resetAt <= now) return;
      refill(now);
      // Requests we sent after this one may not be counted in `remaining` yet.
      const sentSince = permit ? Math.max(0, issued - permit.seq) : 0;
      const remaining = info.remaining - sentSince;
      if (remaining < tokens) tokens = remaining;
      if (remaining <= 0 && info.resetAt !== undefined) block(now, info.resetAt);
    },

    blockUntil(untilMs) {
      const now = clock.now();
      refill(now);
      tokens = Math.min(tokens, 0);
      block(now, untilMs);
    },

    state() {
      refill(clock.now());
      return { tokens, blockedUntil, waiting: queue.length };
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
