import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { backoffDelay } from '../../src/jobs/backoff.js';
import { createTroubleBook } from '../../src/jobs/trouble-book.js';
import { troubleReason } from '../../src/jobs/trouble-reason.js';
import { backedOffUntil, backoffWaits, keptReason } from '../../src/jobs/workspace-trouble.js';
import { memoryLogger } from '../../src/logging/logger.js';
import { type OpenedStore, openStore } from '../../src/store/index.js';

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
  let dir: string;
  let store: OpenedStore;
  let now: number;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'workspace-trouble-test-'));
    now = 0;
    store = await openStore({ dataDir: dir, clock: () => now, sharedClock: () => now });
  });
  afterEach(async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('backs each failing kind off on its own, and ends when every failing kind ran well', async () => {
    let slackUp = false;
    const recovered: unknown[] = [];
    const book = createTroubleBook({
      store,
      holder: 'a',
      logger: memoryLogger('debug'),
      leaseMs: 60_000,
      now: () => now,
      backoff: policy,
      onTrouble: async () => {
        if (!slackUp) throw new Error('slack down');
      },
      onRecovered: async (_teamId, t) => void recovered.push(t),
    });
    now = 1_000;
    let t = await book.failed('T1', 'poll', 'down');
    expect(t).toMatchObject({ since: 1_000, failures: 1, kind: 'poll', nextAttemptAt: 61_000, told: false });
    slackUp = true;
    now = 2_000;
    expect(await book.failed('T1', 'digests', 'down')).toMatchObject({ told: true });
    now = 61_000;
    t = await book.failed('T1', 'poll', 'still down');
    expect(t).toMatchObject({ since: 1_000, failures: 3, kind: 'poll', error: 'still down', told: true });
    expect(backedOffUntil(t, 'poll')).toBe(181_000);
    expect(backedOffUntil(t, 'digests')).toBe(62_000);
    expect(backedOffUntil(t, 'summaries')).toBeNull();
    expect(await book.read('T1')).toEqual(t);
    expect(await book.readMany(['T1', 'T2'])).toEqual(new Map([['T1', t]]));

    await book.succeeded('T1', 'summaries');
    expect(await book.read('T1')).toEqual(t);
    await book.succeeded('T1', 'poll');
    const partly = await book.read('T1');
    expect(partly).toMatchObject({ since: 1_000, failures: 3 });
    expect(backedOffUntil(partly, 'poll')).toBeNull();
    expect(recovered).toEqual([]);
    await book.succeeded('T1', 'digests');
    expect(recovered).toEqual([{ since: 1_000, failures: 3 }]);
    expect(await book.read('T1')).toBeNull();
    expect(await book.readMany(['T1'])).toEqual(new Map());
  });

  it('keeps a reason without Slack Ids or email addresses, and backs off with the policy’s waits', () => {
    expect(keptReason('Error [code=not_in_channel]: <@U012AB3CD> (jo@example.org) in C0123ABC')).toBe(
      'Error [code=not_in_channel]: <@[id]> ([email]) in C0123ABC',
    );
    expect(keptReason('Error [code=unauthorized, status=401]: care API refused the key [redacted]')).toBe(
      'Error [code=unauthorized, status=401]: care API refused the key [redacted]',
    );
    expect(backoffWaits(policy)).toEqual([1, 2, 3, 4, 5, 6].map((n) => backoffDelay(n, policy)));
    expect(backoffWaits({ baseMs: 1_000, maxMs: 5_000 })).toEqual([1_000, 2_000, 4_000, 5_000]);
    expect(backoffWaits({ baseMs: 0, maxMs: 5_000 })).toEqual([0, 0]);
  });
});
