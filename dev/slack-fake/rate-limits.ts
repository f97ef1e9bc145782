import type { RateCall } from './api/rate-scope.js';
import type { PostRateLimit } from './rate-limiter.js';
import { RateLimitLog, type RateLimitReport } from './rate-limit-log.js';
import { TokenBuckets } from './token-buckets.js';

export interface RateLimitSettings {
  /** The switch: tiers, the posting rule and the distributed-app rule (off: every call goes through). */
  enabled: boolean;
  /** The posting rule of chat.postMessage / chat.postEphemeral per conversation (false: none). */
  post: PostRateLimit | false;
}

export type Admission = { ok: true } | { ok: false; retryAfterSec: number };

/** Today's Slack rate limits for one fake (all its workspaces): buckets by method/team/app, and what they did. */
export class FakeRateLimits {
  private readonly buckets = new TokenBuckets();
  private readonly log = new RateLimitLog();

  constructor(private settings: RateLimitSettings) {}

  get enabled(): boolean {
    return this.settings.enabled;
  }

  get post(): PostRateLimit | false {
    return this.settings.post;
  }

  /** Turns the limits on or off (buckets start full again; the log is kept). */
  setEnabled(enabled: boolean): void {
    this.settings = { ...this.settings, enabled };
    this.buckets.clear();
  }

  setPostRateLimit(post: PostRateLimit | false): void {
    this.settings = { ...this.settings, post };
    this.buckets.clear();
  }

  /** A call came in at `at` (counted for repeats inside Retry-After and history reads). */
  arrived(call: RateCall, at: number): void {
    this.log.arrived(call, at);
  }

  /** Lets the call through (taking its tokens), or refuses it with the whole seconds until its buckets have room. */
  take(call: RateCall, at: number): Admission {
    if (!this.settings.enabled || call.buckets.length === 0) return { ok: true };
    const taken = this.buckets.take(call.buckets, at);
    if (taken.ok) return taken;
    const rule = call.buckets.find((b) => b.key === taken.keys[0])?.rule ?? 'tier';
    this.log.limited(call, at, taken.retryAfterSec, rule, taken.keys);
    return { ok: false, retryAfterSec: taken.retryAfterSec };
  }

  /** A 429 injected with `fake.faults` was answered: counted like any other, against the call's narrowest bucket. */
  injected(call: RateCall, at: number, retryAfterSec: number): void {
    this.log.limited(call, at, retryAfterSec, 'fault', call.keys.slice(-1));
  }

  report(): RateLimitReport {
    return this.log.report(this.settings.enabled);
  }
}
