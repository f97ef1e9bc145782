import { describe, expect, it } from 'vitest';
import { backoffDelay, outcomeOfError, shouldRetry, type AttemptOutcome, type RetryInput } from '../../src/care/retry-policy.js';

const NOW = 1_700_000_000_000;
const input = (outcome: AttemptOutcome, over: Partial<RetryInput> = {}): RetryInput => ({
  outcome,
  idempotent: true,
  retryNumber: 1,
  maxRetries: 3,
  nowMs: NOW,
  random: 0.5,
  ...over,
});
const status = (s: number, resetAt?: number): AttemptOutcome => ({ kind: 'status', status: s, resetAt });

describe('retry policy', () => {
  it('never retries 400, 401, 403, 404 or 405, for any method', () => {
    for (const s of [400, 401, 403, 404, 405]) {
      expect(shouldRetry(input(status(s))).retry).toBe(false);
      expect(shouldRetry(input(status(s), { idempotent: false })).retry).toBe(false);
    }
  });

  it('retries 502/503/504 for idempotent requests only', () => {
    for (const s of [502, 503, 504]) {
      expect(shouldRetry(input(status(s))).retry).toBe(true);
      expect(shouldRetry(input(status(s), { idempotent: false })).retry).toBe(false);
    }
  });

  it('retries a 500 for reads (GET) only: not for an idempotent PATCH, nor a create', () => {
    expect(shouldRetry(input(status(500), { read: true }))).toMatchObject({ retry: true, reason: 'status 500 on a read' });
    expect(shouldRetry(input(status(500), { read: false })).retry).toBe(false);
    expect(shouldRetry(input(status(500), { read: false, idempotent: false })).retry).toBe(false);
  });

  it('waits for the reset time on a 429, for creates too', () => {
    const decision = shouldRetry(input(status(429, NOW + 1_250), { idempotent: false }));
    expect(decision).toMatchObject({ retry: true });
    expect(decision.retry && decision.delayMs).toBeGreaterThanOrEqual(1_250);
    expect(decision.retry && decision.delayMs).toBeLessThan(1_300);
  });

  it('backs off with jitter on a 429 without a usable reset', () => {
    const low = shouldRetry(input(status(429), { random: 0 }));
    const high = shouldRetry(input(status(429, NOW - 5), { random: 0.999 }));
    expect(low).toMatchObject({ retry: true, delayMs: 250 });
    expect(high).toMatchObject({ retry: true });
    expect(high.retry && high.delayMs).toBeGreaterThan(490);
  });

  it('does not wait for a reset that is absurdly far away', () => {
    expect(shouldRetry(input(status(429, NOW + 3_600_000))).retry).toBe(false);
  });

  it('retries timeouts and broken connections for idempotent requests, not for creates', () => {
    for (const outcome of [{ kind: 'timeout' }, { kind: 'network-error', code: 'ECONNRESET' }] as AttemptOutcome[]) {
      expect(shouldRetry(input(outcome)).retry).toBe(true);
      expect(shouldRetry(input(outcome, { idempotent: false })).retry).toBe(false);
    }
  });

  it('retries a create when the connection was never made', () => {
    expect(shouldRetry(input(outcomeOfError('ECONNREFUSED'), { idempotent: false })).retry).toBe(true);
    expect(shouldRetry(input(outcomeOfError('UND_ERR_CONNECT_TIMEOUT'), { idempotent: false })).retry).toBe(true);
  });

  it('classifies socket error codes', () => {
    expect(outcomeOfError('ECONNREFUSED').kind).toBe('connect-error');
    expect(outcomeOfError('UND_ERR_SOCKET').kind).toBe('network-error');
    expect(outcomeOfError('ECONNRESET').kind).toBe('network-error');
    expect(outcomeOfError(undefined).kind).toBe('network-error');
    expect(outcomeOfError('UND_ERR_HEADERS_TIMEOUT').kind).toBe('timeout');
    expect(outcomeOfError('UND_ERR_CLOSED').kind).toBe('closed');
    expect(shouldRetry(input({ kind: 'closed' })).retry).toBe(false);
  });

  it('stops after maxRetries', () => {
    expect(shouldRetry(input(status(503), { retryNumber: 3 })).retry).toBe(true);
    expect(shouldRetry(input(status(503), { retryNumber: 4 }))).toMatchObject({ retry: false, reason: 'retries exhausted' });
    expect(shouldRetry(input(status(429, NOW + 100), { maxRetries: 0 })).retry).toBe(false);
  });

  it('doubles the back-off ceiling per retry, up to the cap, jittered between half and all of it', () => {
    const backoff = { baseMs: 100, maxMs: 1_000 };
    expect([1, 2, 3, 4, 5].map((n) => backoffDelay(n, 0.999999, backoff))).toEqual([100, 200, 400, 800, 1_000]);
    expect([1, 2, 3].map((n) => backoffDelay(n, 0, backoff))).toEqual([50, 100, 200]);
  });
});
