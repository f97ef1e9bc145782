/** A bucket's size and refill: `capacity` calls at once, then `perSecond` (e.g. 20 per minute = 20, 1/3). */
export interface BucketLimit {
  capacity: number;
  perSecond: number;
}

interface Bucket {
  tokens: number;
  at: number;
}

/** Retry-After in whole seconds until a bucket with `tokens` has one, at least 1 (float noise forgiven). */
function retryAfterSec(tokens: number, perSecond: number): number {
  return Math.max(1, Math.ceil((1 - tokens) / perSecond - 1e-9));
}

/**
 * Token buckets by key, on the fake's clock (the caller says what time it is). A call takes one token from every bucket it names, or from none:
 * when one lacks a token, the answer is the whole seconds until all of them have one again (Slack's Retry-After).
 */
export class TokenBuckets {
  private buckets = new Map<string, Bucket>();

  clear(): void {
    this.buckets.clear();
  }

  take(wanted: ReadonlyArray<{ key: string; limit: BucketLimit }>, now: number): { ok: true } | { ok: false; retryAfterSec: number; keys: string[] } {
    const filled = wanted.map(({ key, limit }) => ({ key, limit, bucket: this.refill(key, limit, now) }));
    const short = filled.filter((f) => f.bucket.tokens < 1);
    if (short.length > 0) {
      return { ok: false, retryAfterSec: Math.max(...short.map((f) => retryAfterSec(f.bucket.tokens, f.limit.perSecond))), keys: short.map((f) => f.key) };
    }
    for (const f of filled) f.bucket.tokens -= 1;
    return { ok: true };
  }

  private refill(key: string, limit: BucketLimit, now: number): Bucket {
    const bucket = this.buckets.get(key) ?? { tokens: limit.capacity, at: now };
    bucket.tokens = Math.min(limit.capacity, bucket.tokens + (Math.max(0, now - bucket.at) / 1000) * limit.perSecond);
    bucket.at = now;
    this.buckets.set(key, bucket);
    return bucket;
  }
}
