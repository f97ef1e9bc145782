import type { Clock } from './clock.js';

/** About `perSecond` posts per second per channel, with `burst` tolerated at once. */
export interface PostRateLimit {
  perSecond: number;
  burst: number;
}

export const DEFAULT_POST_RATE_LIMIT: PostRateLimit = { perSecond: 1, burst: 5 };

interface Bucket {
  tokens: number;
  at: number;
}

/** Token buckets per key (channel id), on the fake's clock. */
export class RateLimiter {
  private buckets = new Map<string, Bucket>();

  constructor(
    private config: PostRateLimit | false,
    private readonly clock: Clock,
  ) {}

  configure(config: PostRateLimit | false): void {
    this.config = config;
    this.buckets.clear();
  }

  get current(): PostRateLimit | false {
    return this.config;
  }

  /** Takes one token; when none is left, says how many whole seconds until one is (Slack's Retry-After). */
  take(key: string): { ok: true } | { ok: false; retryAfterSec: number } {
    const config = this.config;
    if (!config) return { ok: true };
    const now = this.clock.now();
    const bucket = this.buckets.get(key) ?? { tokens: config.burst, at: now };
    bucket.tokens = Math.min(config.burst, bucket.tokens + ((now - bucket.at) / 1000) * config.perSecond);
    bucket.at = now;
    this.buckets.set(key, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return { ok: true };
    }
    const waitSec = (1 - bucket.tokens) / config.perSecond;
    return { ok: false, retryAfterSec: Math.max(1, Math.ceil(waitSec)) };
  }
}
