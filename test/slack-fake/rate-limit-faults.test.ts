import { ErrorCode, type WebAPIHTTPError, type WebAPIRateLimitedError } from '@slack/web-api';
import { afterEach, describe, expect, it } from 'vitest';
import { manualClock, startSlackFake, type SlackFake } from '../../dev/slack-fake/index.js';
import { webClient } from './bolt-app.js';

let fake: SlackFake | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function post(f: SlackFake, channel: string, text: string): Promise<Response> {
  return fetch(`${f.apiUrl}chat.postMessage`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Bearer ${f.botToken}` },
    body: new URLSearchParams({ channel, text }).toString(),
  });
}

describe('chat.postMessage rate limit', () => {
  it("answers 429 ratelimited with Retry-After once a channel's burst is spent, and recovers", async () => {
    const clock = manualClock();
    fake = await startSlackFake({ clock, postRateLimit: { perSecond: 1, burst: 2 } });
    expect((await post(fake, 'C0CARE', 'one')).status).toBe(200);
    expect((await post(fake, 'C0CARE', 'two')).status).toBe(200);
    const limited = await post(fake, 'C0CARE', 'three');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('1');
    expect(await limited.json()).toEqual({ ok: false, error: 'ratelimited' });
    expect((await post(fake, 'C0GENERAL', 'other channel')).status).toBe(200);
    clock.advance(1000);
    expect((await post(fake, 'C0CARE', 'three again')).status).toBe(200);
    expect(fake.messages('#care-team').map((m) => m.text)).toEqual(['one', 'two', 'three again']);
  });

  it('reaches the WebClient as a rate-limited error carrying retryAfter', async () => {
    fake = await startSlackFake({ clock: manualClock(), postRateLimit: { perSecond: 0.5, burst: 1 } });
    const client = webClient(fake, fake.botToken, { rejectRateLimitedCalls: true });
    await client.chat.postMessage({ channel: 'U0BOB', text: 'first DM' });
    const error = (await client.chat.postMessage({ channel: 'U0BOB', text: 'second DM' }).catch((e: unknown) => e)) as WebAPIRateLimitedError;
    expect(error.code).toBe(ErrorCode.RateLimitedError);
    expect(error.retryAfter).toBe(2);
    expect(fake.dms('bob').map((m) => m.text)).toEqual(['first DM']);
  });

  it('can be turned off', async () => {
    fake = await startSlackFake({ clock: manualClock(), postRateLimit: false });
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => post(fake as SlackFake, 'C0CARE', `m${i}`)));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    fake.setPostRateLimit({ perSecond: 1, burst: 1 });
    expect((await post(fake, 'C0CARE', 'a')).status).toBe(200);
    expect((await post(fake, 'C0CARE', 'b')).status).toBe(429);
  });
});

describe('injected faults', () => {
  it('fails the next N calls of a method with the given error, then behaves', async () => {
    fake = await startSlackFake({ postRateLimit: false });
    const client = webClient(fake);
    fake.faults.failNext('chat.postMessage', 2, 'channel_not_found');
    const errors = [];
    for (const text of ['a', 'b', 'c']) {
      errors.push(
        await client.chat.postMessage({ channel: 'C0CARE', text }).then(
          () => 'ok',
          (e: { data?: { error?: string } }) => e.data?.error,
        ),
      );
    }
    expect(errors).toEqual(['channel_not_found', 'channel_not_found', 'ok']);
    expect(fake.messages('#care-team').map((m) => m.text)).toEqual(['c']);
    await expect(client.users.info({ user: 'U0BOB' })).resolves.toMatchObject({ ok: true });
  });

  it('answers a share of calls with bare 5xx (seeded), which the WebClient sees as HTTP errors', async () => {
    const rolls = [0.1, 0.9, 0.2, 0.8];
    fake = await startSlackFake({ postRateLimit: false, random: () => rolls.shift() ?? 0.99 });
    fake.faults.serverErrors(0.5, { status: 503, methods: ['chat.postMessage'] });
    const client = webClient(fake);
    const outcomes = [];
    for (const text of ['1', '2', '3', '4']) {
      outcomes.push(
        await client.chat.postMessage({ channel: 'C0CARE', text }).then(
          () => 'ok',
          (e: WebAPIHTTPError) => `${e.code}:${e.statusCode}`,
        ),
      );
    }
    expect(outcomes).toEqual([`${ErrorCode.HTTPError}:503`, 'ok', `${ErrorCode.HTTPError}:503`, 'ok']);
    expect(fake.messages('#care-team').map((m) => m.text)).toEqual(['2', '4']);
    expect(fake.calls('chat.postMessage').map((c) => c.status)).toEqual([503, 200, 503, 200]);
  });

  it('adds latency to chosen methods only (a slow post finishes after a quick call sent later)', async () => {
    fake = await startSlackFake({ postRateLimit: false });
    fake.faults.latency(300, { methods: ['chat.postMessage'] });
    const client = webClient(fake);
    const finished: string[] = [];
    const slow = client.chat.postMessage({ channel: 'C0CARE', text: 'slow' }).then(() => finished.push('post'));
    await new Promise((r) => setTimeout(r, 20));
    await client.auth.test().then(() => finished.push('auth'));
    await slow;
    expect(finished).toEqual(['auth', 'post']);
    fake.faults.clear();
    expect(fake.faults.config.latencyMs).toBe(0);
  });

  it('a slow post the caller gave up on still posts, once Slack gets to it and not before', async () => {
    fake = await startSlackFake({ postRateLimit: false });
    fake.faults.latency(1_000, { methods: ['chat.postMessage'] });
    const gaveUp = await fetch(`${fake.apiUrl}chat.postMessage`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Bearer ${fake.botToken}` },
      body: new URLSearchParams({ channel: 'C0CARE', text: 'slow' }).toString(),
      signal: AbortSignal.timeout(100),
    }).catch((e: unknown) => (e as Error).name);
    expect(gaveUp).toBe('TimeoutError');
    const f = fake;
    expect(f.messages('C0CARE').filter((m) => m.text === 'slow')).toHaveLength(0);
    await f.waitFor(() => f.messages('C0CARE').some((m) => m.text === 'slow'), { timeoutMs: 5_000 });
    expect(f.calls('chat.postMessage').map((c) => c.status)).toEqual([200]);
  });

  it('can make a response_url fail', async () => {
    fake = await startSlackFake();
    const url = fake.issueResponseUrl({ kind: 'command', channel: 'C0CARE', user: 'U0BOB', command: '/care' });
    fake.faults.failNext('response_url', 1, { status: 500 });
    const first = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ text: 'x' }) });
    const second = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ text: 'y' }) });
    expect([first.status, second.status]).toEqual([500, 200]);
    expect(fake.ephemerals('bob').map((e) => e.text)).toEqual(['y']);
  });
});
