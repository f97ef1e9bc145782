import { ErrorCode, LogLevel, WebClient, WebClientEvent, type WebAPIRateLimitedError } from '@slack/web-api';
import { afterEach, describe, expect, it } from 'vitest';
import { METHODS } from '../../dev/slack-fake/api/router.js';
import { demoWorkspace, manualClock, RATE_TIERS, secondDemoWorkspace, startSlackFake, type SlackFake } from '../../dev/slack-fake/index.js';
import { webClient } from './bolt-app.js';

let fake: SlackFake | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function call(f: SlackFake, method: string, token: string, args: Record<string, string> = {}): Promise<Response> {
  return fetch(`${f.apiUrl}${method}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Bearer ${token}` },
    body: new URLSearchParams(args).toString(),
  });
}

describe("the Slack fake's method tiers (today's Slack, on by default)", () => {
  it('has a published tier for every Web API method it serves', () => {
    for (const method of [...Object.keys(METHODS), 'auth.revoke', 'oauth.v2.access']) expect(RATE_TIERS[method], method).toBeDefined();
    expect(RATE_TIERS['users.list']).toBe(2);
    expect(RATE_TIERS['users.lookupByEmail']).toBe(3);
    expect(RATE_TIERS['views.publish']).toBe(4);
    expect(RATE_TIERS['chat.postMessage']).toBe('special');
  });

  it('answers a Tier 2 method 429 ratelimited with Retry-After on its 21st call within a minute, for that team only', async () => {
    const clock = manualClock();
    fake = await startSlackFake({ clock, workspaces: [demoWorkspace(), secondDemoWorkspace()] });
    const care = fake.botToken;
    const sun = fake.workspace('T0SUN').botToken;
    for (let i = 0; i < 20; i++) expect((await call(fake, 'users.list', care)).status).toBe(200);
    const limited = await call(fake, 'users.list', care);
    expect(limited.status).toBe(429);
    // 20 a minute refill one call every 3 s.
    expect(limited.headers.get('retry-after')).toBe('3');
    expect(await limited.json()).toEqual({ ok: false, error: 'ratelimited' });
    expect((await call(fake, 'users.list', sun)).status).toBe(200);
    expect((await call(fake, 'users.info', care, { user: 'U0BOB' })).status).toBe(200);
    clock.advance(2_000);
    const stillLimited = await call(fake, 'users.list', care);
    expect(stillLimited.status).toBe(429);
    expect(stillLimited.headers.get('retry-after')).toBe('1');
    clock.advance(1_000);
    expect((await call(fake, 'users.list', care)).status).toBe(200);
  });

  it('allows Tier 4 a hundred calls at once, then one every 0.6 s', async () => {
    const clock = manualClock();
    fake = await startSlackFake({ clock });
    const token = fake.botToken;
    for (let i = 0; i < 100; i++) expect((await call(fake, 'users.info', token, { user: 'U0BOB' })).status).toBe(200);
    const limited = await call(fake, 'users.info', token, { user: 'U0BOB' });
    expect([limited.status, limited.headers.get('retry-after')]).toEqual([429, '1']);
    clock.advance(600);
    expect((await call(fake, 'users.info', token, { user: 'U0BOB' })).status).toBe(200);
  });

  it("reaches @slack/web-api's WebClient as a rate-limited error with its retryAfter", async () => {
    fake = await startSlackFake({ clock: manualClock() });
    const client = webClient(fake, fake.botToken, { rejectRateLimitedCalls: true });
    for (let i = 0; i < 20; i++) await client.conversations.list();
    const error = (await client.conversations.list().catch((e: unknown) => e)) as WebAPIRateLimitedError;
    expect(error.code).toBe(ErrorCode.RateLimitedError);
    expect(error.retryAfter).toBe(3);
  });

  it('is waited out by a WebClient that retries: it comes back when Retry-After says, not before', async () => {
    const clock = manualClock();
    fake = await startSlackFake({ clock });
    const f = fake;
    const client = new WebClient(f.botToken, {
      slackApiUrl: f.apiUrl,
      retryConfig: { retries: 1, factor: 1, minTimeout: 0, maxTimeout: 0 },
      logLevel: LogLevel.ERROR,
    });
    const waits: number[] = [];
    // The client sleeps Retry-After seconds of real time; the fake's clock moves on by as much.
    client.on(WebClientEvent.RATE_LIMITED, (sec: number) => {
      waits.push(sec);
      clock.advance(sec * 1000);
    });
    for (let i = 0; i < 3; i++) await client.chat.postMessage({ channel: 'C0CARE', text: `burst ${i}` });
    const fourth = await client.chat.postMessage({ channel: 'C0CARE', text: 'after waiting' });
    expect(fourth.ok).toBe(true);
    expect(waits).toEqual([1]);
    const report = f.rateLimits();
    expect(report.byMethod).toEqual({ 'chat.postMessage': 1 });
    expect(report.repeatedInsideRetryAfter).toBe(0);
    expect(f.messages('#care-team').map((m) => m.text)).toEqual(['burst 0', 'burst 1', 'burst 2', 'after waiting']);
  });
});
