import { describe, expect, it } from 'vitest';
import { backoffDelay } from '../../src/jobs/backoff.js';
import { troubleReason } from '../../src/jobs/trouble-reason.js';
import { afterFailure, afterSuccess, backedOffUntil, parseTrouble } from '../../src/jobs/workspace-trouble.js';

const policy = { baseMs: 60_000, maxMs: 30 * 60_000 };

describe('backoff', () => {
  it('doubles from the base and stops at the max', () => {
    expect([0, 1, 2, 3, 5, 6, 1000].map((n) => backoffDelay(n, policy))).toEqual([0, 60_000, 120_000, 240_000, 960_000, 1_800_000, 1_800_000]);
  });
});

describe('trouble reason', () => {
  it('keeps the name, code and status and a capped message, without credentials', () => {
    const err = Object.assign(new Error(`POST https://user:pw@care.example/api?token=abc123 failed: Bearer eyJhbGci.x.y ${'x'.repeat(400)}`), {
      name: 'CareApiError',
      code: 'rate_limited',
      status: 429,
      headers: { authorization: 'Bearer zzz' },
    });
    const reason = troubleReason(err);
    expect(reason.startsWith('CareApiError [code=rate_limited, status=429]: POST https:[redacted]care.example/api?[redacted] failed: [redacted] xxx')).toBe(
      true,
    );
    for (const secret of ['pw@', 'abc123', 'eyJhbGci', 'zzz']) expect(reason).not.toContain(secret);
    expect(reason.length).toBeLessThanOrEqual('CareApiError [code=rate_limited, status=429]: '.length + 200);
  });

  it('reads strings and error-shaped objects; never prints other objects', () => {
    expect(troubleReason('channel archived, token=xoxb-1-2')).toBe('channel archived, [redacted]');
    expect(troubleReason({ code: 'not_authed', message: 'no' })).toBe('Error [code=not_authed]: no');
    expect(troubleReason({ apiKey: 'k', secret: 's' })).toBe('Error');
  });
});

describe('a workspace’s trouble record', () => {
  it('backs each failing kind off on its own, and ends when every failing kind ran well', () => {
    let t = afterFailure(null, 'poll', 'down', 1_000, policy);
    expect(t).toMatchObject({ since: 1_000, failures: 1, kind: 'poll', nextAttemptAt: 61_000, told: false });
    t = { ...afterFailure(t, 'digests', 'down', 2_000, policy), told: true };
    t = afterFailure(t, 'poll', 'still down', 61_000, policy);
    expect(t).toMatchObject({ since: 1_000, failures: 3, kind: 'poll', error: 'still down', told: true });
    expect(backedOffUntil(t, 'poll')).toBe(181_000);
    expect(backedOffUntil(t, 'digests')).toBe(62_000);
    expect(backedOffUntil(t, 'summaries')).toBeNull();
    expect(parseTrouble(JSON.stringify(t))).toEqual(t);

    expect(afterSuccess(t, 'summaries')).toEqual({ state: t, recovered: false, changed: false });
    const partly = afterSuccess(t, 'poll');
    expect(partly).toMatchObject({ recovered: false, changed: true });
    expect(backedOffUntil(partly.state, 'poll')).toBeNull();
    expect(afterSuccess(partly.state, 'digests')).toEqual({ state: null, recovered: true, changed: true });
  });

  it('reads nothing from a cleared or unreadable record, and backs off the named kind of one without per-kind detail', () => {
    for (const raw of [null, '', 'not json', '{"failures":0,"since":1}', '[]']) expect(parseTrouble(raw)).toBeNull();
    const bare = parseTrouble(JSON.stringify({ since: 1, failures: 2, nextAttemptAt: 500, kind: 'poll', error: 'x' }));
    expect(bare).toMatchObject({ told: false, kinds: { poll: { failures: 2, nextAttemptAt: 500 } } });
  });
});
