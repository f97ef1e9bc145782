import { describe, expect, it } from 'vitest';
import { createRateLimiter, parseRateLimitHeaders } from '../../src/care/rate-limiter.js';
import { createVirtualClock } from './virtual-clock.js';

describe('rate limiter', () => {
  it('lets a burst of `rate` through at once, but never more than `rate` in any second: 25 at 10/s take 2 s', async () => {
    const clock = createVirtualClock();
    const limiter = createRateLimiter({ ratePerSecond: 10, clock });
    const start = clock.now();
    const grantedAt: number[] = [];
    await Promise.all(Array.from({ length: 25 }, () => limiter.acquire().then(() => grantedAt.push(clock.now() - start))));
    expect(grantedAt.slice(0, 10)).toEqual(Array(10).fill(0));
    // A token bucket alone would send the 11th at 100 ms: 11 in the server's one-second window.
    expect(grantedAt[10]).toBe(1_000);
    expect(grantedAt.at(-1)).toBe(2_000);
    expect(grantedAt).toEqual([...grantedAt].sort((a, b) => a - b));
    for (const t of grantedAt) expect(grantedAt.filter((u) => u >= t && u < t + 1_000).length).toBeLessThanOrEqual(10);
  });

  it('a client set to its share of a shared key never sends more than that share in any second', async () => {
    const clock = createVirtualClock();
    const limiter = createRateLimiter({ ratePerSecond: 5, clock });
    const start = clock.now();
    const grantedAt: number[] = [];
    for (let i = 0; i < 40; i++) {
      await limiter.acquire();
      grantedAt.push(clock.now() - start);
      await clock.sleep(37); // the work between requests
    }
    for (const t of grantedAt) expect(grantedAt.filter((u) => u >= t && u < t + 1_000).length).toBeLessThanOrEqual(5);
  });

  it('serves sequential callers at the rate once the burst is spent', async () => {
    const clock = createVirtualClock();
    const limiter = createRateLimiter({ ratePerSecond: 4, burst: 1, clock });
    const start = clock.now();
    for (let i = 0; i < 5; i++) await limiter.acquire();
    expect(clock.now() - start).toBe(1_000);
  });

  it('believes the server: Remaining=0 with a Reset makes the next call wait until Reset', async () => {
    const clock = createVirtualClock();
    const limiter = createRateLimiter({ ratePerSecond: 10, clock });
    const permit = await limiter.acquire();
    const resetAt = clock.now() + 2_000;
    limiter.observe({ remaining: 0, resetAt }, permit);
    await limiter.acquire();
    expect(clock.now()).toBe(resetAt);
  });

  it('delays callers that were already waiting when the server reports exhaustion', async () => {
    const clock = createVirtualClock();
    const limiter = createRateLimiter({ ratePerSecond: 1, clock });
    const start = clock.now();
    await limiter.acquire();
    const waiting = limiter.acquire().then(() => clock.now() - start);
    limiter.observe({ remaining: 0, resetAt: start + 3_000 });
    expect(await waiting).toBe(3_000);
  });

  it('lowers its count to what the server says remains, counting requests sent since', async () => {
    const clock = createVirtualClock();
    const limiter = createRateLimiter({ ratePerSecond: 10, clock });
    const first = await limiter.acquire();
    await limiter.acquire();
    limiter.observe({ remaining: 3, resetAt: clock.now() + 1_000 }, first);
    expect(limiter.state().tokens).toBe(2);
  });

  it('ignores news that is more generous than its own count, or already stale', async () => {
    const clock = createVirtualClock();
    const limiter = createRateLimiter({ ratePerSecond: 10, clock });
    for (let i = 0; i < 8; i++) await limiter.acquire();
    limiter.observe({ remaining: 9, resetAt: clock.now() + 500 });
    expect(limiter.state().tokens).toBe(2);
    limiter.observe({ remaining: 0, resetAt: clock.now() - 1 });
    expect(limiter.state()).toMatchObject({ tokens: 2, blockedUntil: 0 });
  });

  it('holds everyone after a 429 until the given time, but never longer than maxBlockMs', async () => {
    const clock = createVirtualClock();
    const limiter = createRateLimiter({ ratePerSecond: 10, clock, maxBlockMs: 5_000 });
    const start = clock.now();
    limiter.blockUntil(start + 60_000);
    await limiter.acquire();
    expect(clock.now() - start).toBe(5_000);
  });

  /** Run `windows` one-second windows of 4 sequential requests of ours, after `foreign` requests of another program in each. */
  async function windows(limiter: ReturnType<typeof createRateLimiter>, clock: ReturnType<typeof createVirtualClock>, count: number, foreign: number) {
    for (let w = 0; w < count; w++) {
      const resetAt = clock.now() + 1_000;
      for (let ours = 1; ours <= 4; ours++) {
        const permit = await limiter.acquire();
        limiter.observe({ limit: 10, remaining: 10 - foreign - ours, resetAt }, permit);
      }
      await clock.sleep(resetAt - clock.now());
    }
  }

  it('stops bursting and leaves other programs their share once it sees them spend the key', async () => {
    const clock = createVirtualClock();
    const limiter = createRateLimiter({ ratePerSecond: 10, clock });
    await windows(limiter, clock, 3, 0);
    expect(limiter.state()).toMatchObject({ ratePerSecond: 10, burst: 10, foreignPerWindow: 0 });
    await windows(limiter, clock, 12, 5);
    const shared = limiter.state();
    expect(shared.burst).toBe(1);
    expect(shared.foreignPerWindow).toBeGreaterThan(4.5);
    expect(shared.ratePerSecond).toBeLessThan(5.5);
    await windows(limiter, clock, 12, 0);
    expect(limiter.state()).toMatchObject({ ratePerSecond: 10, burst: 10 });
  });

  it('learns nothing from a server whose reset moves with every response', async () => {
    const clock = createVirtualClock();
    const limiter = createRateLimiter({ ratePerSecond: 10, clock });
    for (let i = 0; i < 30; i++) {
      const permit = await limiter.acquire();
      limiter.observe({ limit: 10, remaining: 2, resetAt: clock.now() + 1_000 - i }, permit);
      await clock.sleep(100);
    }
    expect(limiter.state()).toMatchObject({ ratePerSecond: 10, foreignPerWindow: 0 });
  });

  it('reads the rate-limit headers, with a fractional reset in epoch seconds', () => {
    expect(
      parseRateLimitHeaders({ 'x-carehq-ratelimit-limit': '10', 'x-carehq-ratelimit-remaining': '3', 'x-carehq-ratelimit-reset': '1700000000.25' }),
    ).toEqual({ limit: 10, remaining: 3, resetAt: 1_700_000_000_250 });
    expect(parseRateLimitHeaders({ 'x-carehq-ratelimit-remaining': 'many' })).toEqual({ limit: undefined, remaining: undefined, resetAt: undefined });
  });
});
