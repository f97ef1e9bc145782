import { describe, expect, it } from 'vitest';
import { rawCall } from '../helpers/raw-signer.js';
import { useSandbox } from './support.js';

// A wide window keeps these deterministic on a busy machine.
const limited = useSandbox({ seed: 'empty', rateLimit: 3, rateWindowMs: 60_000, extraKeys: [{ apiKey: 'other', apiSecret: 'other-secret' }] });
const shortWindow = useSandbox({ seed: 'empty', rateLimit: 2, rateWindowMs: 600 });
const defaults = useSandbox({ seed: 'empty', rateLimit: undefined });
const unlimited = useSandbox({ seed: 'empty', rateLimit: 0 });

const headersOf = (r: { headers: Record<string, string> }) => ({
  limit: Number(r.headers['x-carehq-ratelimit-limit']),
  remaining: Number(r.headers['x-carehq-ratelimit-remaining']),
  reset: Number(r.headers['x-carehq-ratelimit-reset']),
});

describe('rate limit', () => {
  it('defaults to 10 per second and puts the three headers on every response', async () => {
    const before = Date.now() / 1000;
    const ok = await defaults.api('GET', 'users');
    const h = headersOf(ok);
    expect(h.limit).toBe(10);
    expect(h.remaining).toBe(9);
    expect(h.reset).toBeGreaterThan(before);
    for (const r of [
      await defaults.api('GET', 'nowhere'),
      await defaults.api('POST', 'users'),
      await defaults.api('GET', 'users', {}, { omit: ['X-CareHQ-Signature'] }),
    ]) {
      expect(r.status).toBeGreaterThanOrEqual(400);
      expect(r.headers['x-carehq-ratelimit-limit']).toBe('10');
      expect(r.headers['x-carehq-ratelimit-remaining']).toBeDefined();
      expect(r.headers['x-carehq-ratelimit-reset']).toMatch(/^\d+(\.\d+)?$/);
    }
  });

  it('answers 429 with the error body once a key exceeds its allowance, per key', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await limited.api('GET', 'users')).status);
    const over = await limited.api('GET', 'users');
    expect(statuses).toEqual([200, 200, 200]);
    expect(over.status).toBe(429);
    expect(over.json.hint).toMatch(/rate limit/i);
    expect(headersOf(over).remaining).toBe(0);
    expect(headersOf(over).limit).toBe(3);
    const { url, credentials } = limited.sandbox;
    const other = await rawCall(url, { ...credentials, apiKey: 'other', apiSecret: 'other-secret' }, 'GET', 'users');
    expect(other.status).toBe(200);
    expect(headersOf(other).remaining).toBe(2);
  });

  it('does not count requests that fail authentication', async () => {
    const { url, credentials } = limited.sandbox;
    const creds = { ...credentials, apiKey: 'other', apiSecret: 'other-secret' };
    for (let i = 0; i < 3; i++) expect((await rawCall(url, { ...creds, apiSecret: 'bad' }, 'GET', 'users')).status).toBe(401);
    expect((await rawCall(url, creds, 'GET', 'users')).status).toBe(200);
  });

  it('allows requests again once the window has passed', async () => {
    expect((await shortWindow.api('GET', 'users')).status).toBe(200);
    expect((await shortWindow.api('GET', 'users')).status).toBe(200);
    const over = await shortWindow.api('GET', 'users');
    expect(over.status).toBe(429);
    const waitMs = headersOf(over).reset * 1000 - Date.now() + 20;
    await new Promise((r) => setTimeout(r, Math.max(0, waitMs)));
    const again = await shortWindow.api('GET', 'users');
    expect(again.status).toBe(200);
    expect(headersOf(again).remaining).toBe(1);
  });

  it('never limits when rateLimit is 0', async () => {
    const results = await Promise.all(Array.from({ length: 40 }, () => unlimited.api('GET', 'users')));
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(headersOf(results[0]!).remaining).toBeGreaterThan(1000);
  });
});
