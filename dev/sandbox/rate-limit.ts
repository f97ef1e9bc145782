/**
 * Per-key fixed window: a window opens at a key's first request and lasts
 * `windowMs` (1 s by default); at most `limit` requests are allowed in it.
 * Reset is the window's end in Unix epoch seconds (fractional). A limit of 0
 * means unlimited, advertised as UNLIMITED_ADVERTISED so pacing clients never wait.
 */
export const UNLIMITED_ADVERTISED = 1_000_000;

export interface RateState {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Unix epoch seconds, fractional. */
  reset: number;
}

interface Window {
  start: number;
  count: number;
}

export class RateLimiter {
  private readonly windows = new Map<string, Window>();

  constructor(
    private readonly limit: number,
    private readonly windowMs = 1000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Count one request for the key. */
  take(key: string): RateState {
    return this.state(key, true);
  }

  /** The key's state without counting a request (for responses refused before the limiter). */
  peek(key: string | undefined): RateState {
    return this.state(key, false);
  }

  private state(key: string | undefined, count: boolean): RateState {
    const t = this.now();
    if (this.limit <= 0) {
      return { allowed: true, limit: UNLIMITED_ADVERTISED, remaining: UNLIMITED_ADVERTISED, reset: (t + this.windowMs) / 1000 };
    }
    let w = key === undefined ? undefined : this.windows.get(key);
    if (!w || t >= w.start + this.windowMs) {
      w = { start: t, count: 0 };
      if (count && key !== undefined) this.windows.set(key, w);
    }
    let allowed = true;
    if (count) {
      if (w.count < this.limit) w.count++;
      else allowed = false;
    }
    return { allowed, limit: this.limit, remaining: this.limit - w.count, reset: (w.start + this.windowMs) / 1000 };
  }
}

export function rateHeaders(s: RateState): Record<string, string> {
  return {
    'X-CareHQ-RateLimit-Limit': String(s.limit),
    'X-CareHQ-RateLimit-Remaining': String(s.remaining),
    'X-CareHQ-RateLimit-Reset': s.reset.toFixed(3),
  };
}
