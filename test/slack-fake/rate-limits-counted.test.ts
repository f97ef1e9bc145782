import { afterEach, describe, expect, it } from 'vitest';
import { demoWorkspace, manualClock, secondDemoWorkspace, startSlackFake, type SlackFake } from '../../dev/slack-fake/index.js';

let fake: SlackFake | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function call(f: SlackFake, method: string, args: Record<string, string>, token = f.botToken): Promise<number> {
  const res = await fetch(`${f.apiUrl}${method}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Bearer ${token}` },
    body: new URLSearchParams(args).toString(),
  });
  await res.body?.cancel();
  return res.status;
}

const post = (f: SlackFake, channel: string, token?: string) => call(f, 'chat.postMessage', { channel, text: 'hi' }, token);

describe('the Slack fake counts what its rate limits did', () => {
  it('counts every 429 by method and by team', async () => {
    const clock = manualClock();
    fake = await startSlackFake({ clock, workspaces: [demoWorkspace(), { ...secondDemoWorkspace(), appDistribution: 'distributed' }] });
    const sun = fake.workspace('T0SUN').botToken;
    for (let i = 0; i < 5; i++) await post(fake, 'C0CARE');
    for (let i = 0; i < 3; i++) await call(fake, 'conversations.history', { channel: 'C0SUNCARE' }, sun);
    const report = fake.rateLimits();
    expect(report).toMatchObject({
      enabled: true,
      limited: 4,
      byMethod: { 'chat.postMessage': 2, 'conversations.history': 2 },
      byTeam: { T0CARE: 2, T0SUN: 2 },
      byTeamMethod: { T0CARE: { 'chat.postMessage': 2 }, T0SUN: { 'conversations.history': 2 } },
    });
    expect(report.calls.map((c) => [c.method, c.teamId, c.rule, c.retryAfterSec])).toEqual([
      ['chat.postMessage', 'T0CARE', 'posting', 1],
      ['chat.postMessage', 'T0CARE', 'posting', 1],
      ['conversations.history', 'T0SUN', 'distributed', 60],
      ['conversations.history', 'T0SUN', 'distributed', 60],
    ]);
    // The same fake seen from another workspace tells the same story.
    expect(fake.workspace('T0SUN').rateLimits().limited).toBe(4);
  });

  it("records calls repeated inside an earlier 429's Retry-After for the same bucket, and not those after it", async () => {
    const clock = manualClock();
    const start = clock.now();
    fake = await startSlackFake({ clock, workspaces: [{ ...demoWorkspace(), appDistribution: 'distributed' }] });
    await call(fake, 'conversations.history', { channel: 'C0CARE' });
    clock.advance(20_000);
    expect(await call(fake, 'conversations.history', { channel: 'C0CARE' })).toBe(429); // told: 40 s
    clock.advance(5_000);
    expect(await call(fake, 'conversations.history', { channel: 'C0CARE' })).toBe(429); // inside: a repeat
    expect(await call(fake, 'conversations.replies', { channel: 'C0CARE', ts: '1.000001' })).not.toBe(429); // another bucket
    clock.advance(35_000);
    expect(await call(fake, 'conversations.history', { channel: 'C0CARE' })).toBe(200); // when told: fine
    const report = fake.rateLimits();
    expect(report.repeatedInsideRetryAfter).toBe(1);
    expect(report.repeats).toEqual([
      { method: 'conversations.history', teamId: 'T0CARE', at: start + 25_000, retryAt: start + 60_000, bucket: expect.any(String) },
    ]);
  });

  it('treats posts to another channel as another bucket: not repeats', async () => {
    const clock = manualClock();
    fake = await startSlackFake({ clock });
    for (let i = 0; i < 4; i++) await post(fake, 'C0CARE');
    await post(fake, 'C0GENERAL');
    expect(fake.rateLimits().repeatedInsideRetryAfter).toBe(0);
    await post(fake, 'C0CARE');
    expect(fake.rateLimits().repeatedInsideRetryAfter).toBe(1);
  });

  it('counts history and replies calls per workspace per minute of its clock', async () => {
    const clock = manualClock(Date.UTC(2026, 10, 20, 9, 0, 30));
    fake = await startSlackFake({ clock, workspaces: [demoWorkspace(), { ...secondDemoWorkspace(), appDistribution: 'distributed' }] });
    const sun = fake.workspace('T0SUN').botToken;
    await call(fake, 'conversations.history', { channel: 'C0CARE' });
    await call(fake, 'conversations.history', { channel: 'C0CARE' });
    await call(fake, 'conversations.history', { channel: 'C0SUNCARE' }, sun);
    await call(fake, 'conversations.history', { channel: 'C0SUNCARE' }, sun);
    clock.advance(30_000);
    await call(fake, 'conversations.history', { channel: 'C0SUNCARE' }, sun);
    const minute = (m: number) => Date.UTC(2026, 10, 20, 9, m, 0);
    expect(fake.rateLimits().historyReads).toEqual([
      { teamId: 'T0CARE', minute: minute(0), history: 2, replies: 0, limited: 0 },
      { teamId: 'T0SUN', minute: minute(0), history: 2, replies: 0, limited: 1 },
      // 30 s after the first call: a new minute of the report, but the bucket is still empty.
      { teamId: 'T0SUN', minute: minute(1), history: 1, replies: 0, limited: 1 },
    ]);
  });

  it('counts a 429 injected with faults too, as rule "fault"', async () => {
    fake = await startSlackFake({ clock: manualClock() });
    fake.faults.failNext('users.info', 1, { status: 429, retryAfterSec: 7 });
    expect(await call(fake, 'users.info', { user: 'U0BOB' })).toBe(429);
    expect(await call(fake, 'users.info', { user: 'U0BOB' })).toBe(200);
    const report = fake.rateLimits();
    expect(report.calls.map((c) => [c.method, c.rule, c.retryAfterSec])).toEqual([['users.info', 'fault', 7]]);
    expect(report.repeatedInsideRetryAfter).toBe(1);
  });
});

describe('the switch', () => {
  it('rateLimits: false lets every call through (tiers, posting, the distributed-app rule) but keeps 15 a page', async () => {
    const clock = manualClock();
    fake = await startSlackFake({ clock, rateLimits: false, workspaces: [{ ...demoWorkspace(), appDistribution: 'distributed' }] });
    for (let i = 0; i < 20; i++) expect(await post(fake, 'C0CARE')).toBe(200);
    for (let i = 0; i < 25; i++) expect(await call(fake, 'users.list', {})).toBe(200);
    for (let i = 0; i < 3; i++) expect(await call(fake, 'conversations.history', { channel: 'C0CARE' })).toBe(200);
    const page = (await (
      await fetch(`${fake.apiUrl}conversations.history`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Bearer ${fake.botToken}` },
        body: new URLSearchParams({ channel: 'C0CARE', limit: '100' }).toString(),
      })
    ).json()) as { messages: unknown[] };
    expect(page.messages).toHaveLength(15);
    expect(fake.rateLimits()).toMatchObject({ enabled: false, limited: 0 });
    expect(fake.rateLimits().historyReads[0]?.history).toBe(4);
  });

  it('is on by default and can be turned off and on again', async () => {
    fake = await startSlackFake({ clock: manualClock() });
    expect(fake.rateLimits().enabled).toBe(true);
    for (let i = 0; i < 3; i++) await post(fake, 'C0CARE');
    expect(await post(fake, 'C0CARE')).toBe(429);
    fake.setRateLimits(false);
    expect(await post(fake, 'C0CARE')).toBe(200);
    fake.setRateLimits(true);
    for (let i = 0; i < 3; i++) expect(await post(fake, 'C0CARE')).toBe(200);
    expect(await post(fake, 'C0CARE')).toBe(429);
  });
});
