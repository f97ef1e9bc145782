/**
 * The app's own pacing under Slack's limits: calls spaced per workspace and
 * method, posts per channel, and a 429's Retry-After holding back every later
 * call of that method (or channel) of the process, whichever client makes it.
 * A manual clock: nothing here waits on the machine's.
 */
import type { FetchFunction } from '@slack/web-api';
import { describe, expect, it } from 'vitest';
import { createSlackPacer, pacedFetch, type PacerClock } from '../../../src/slack/web-api/slack-pacer.js';

function manualClock(): PacerClock & { at: number; slept: number[] } {
  const clock = {
    at: 0,
    slept: [] as number[],
    now: () => clock.at,
    sleep: async (ms: number) => {
      clock.slept.push(ms);
      clock.at += ms;
    },
  };
  return clock;
}

/** A Slack that records when each call arrived and answers from `answer`. */
function slack(clock: { now(): number }, answer: (method: string, n: number) => Response = () => new Response('{"ok":true}', { status: 200 })) {
  const calls: { method: string; channel: string | null; at: number }[] = [];
  const fetch: FetchFunction = async (url, init) => {
    const method = String(url).split('/').pop()!;
    calls.push({ method, channel: new URLSearchParams(String(init?.body ?? '')).get('channel'), at: clock.now() });
    return answer(method, calls.filter((c) => c.method === method).length) as never;
  };
  return { calls, fetch };
}

const post = (token: string, channel: string) => ({
  method: 'POST',
  headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams({ channel, text: 'x' }).toString(),
});
const URL_OF = (method: string) => `https://slack.example/api/${method}`;

describe('the Slack pacer', () => {
  it('posts to one channel at about one a second after a burst of two; another channel and another workspace go at once', async () => {
    const clock = manualClock();
    const s = slack(clock);
    const paced = pacedFetch(s.fetch, createSlackPacer({ distribution: 'internal', clock }), { maxWaitMs: 60_000, transferTimeoutMs: 10_000 });
    for (let i = 0; i < 5; i++) await paced(URL_OF('chat.postMessage'), post('xoxb-one', 'C1'));
    await paced(URL_OF('chat.postMessage'), post('xoxb-one', 'C2'));
    await paced(URL_OF('chat.postMessage'), post('xoxb-two', 'C1'));
    const c1 = s.calls.filter((c) => c.channel === 'C1').map((c) => c.at);
    expect(c1.slice(0, 5)).toEqual([0, 0, 1000, 2000, 3000]);
    expect(s.calls.at(-2)).toMatchObject({ channel: 'C2', at: 3000 });
    expect(s.calls.at(-1)).toMatchObject({ channel: 'C1', at: 3000 });
  });

  it("a 429's Retry-After holds back the next call of that method from any client of the process; a call that cannot wait is handed back as ratelimited, unsent", async () => {
    const clock = manualClock();
    const s = slack(clock, (method, n) =>
      method === 'users.list' && n === 1
        ? new Response('{"ok":false,"error":"ratelimited"}', { status: 429, headers: { 'retry-after': '30' } })
        : new Response('{"ok":true}'),
    );
    const pacer = createSlackPacer({ distribution: 'internal', clock });
    const jobs = pacedFetch(s.fetch, pacer, { maxWaitMs: 60_000, transferTimeoutMs: 10_000 });
    const person = pacedFetch(s.fetch, pacer, { maxWaitMs: 5_000, transferTimeoutMs: 10_000 });
    const body = { method: 'POST', headers: { Authorization: 'Bearer xoxb-one' }, body: 'limit=200' };
    expect((await jobs(URL_OF('users.list'), body)).status).toBe(429);
    const handedBack = await person(URL_OF('users.list'), body);
    expect(handedBack.status).toBe(429);
    expect(Number(handedBack.headers.get('retry-after'))).toBe(30);
    expect(await handedBack.text()).toContain('ratelimited');
    expect(s.calls).toHaveLength(1); // the person's call was not sent
    expect((await jobs(URL_OF('users.list'), body)).status).toBe(200);
    expect(s.calls.map((c) => c.at)).toEqual([0, 30_000]);
    // Other methods were never held back.
    await person(URL_OF('users.info'), body);
    expect(s.calls.at(-1)).toMatchObject({ method: 'users.info', at: 30_000 });
  });

  it("a workspace's new token (token rotation) keeps its pace and its Retry-After; another workspace's token does not share them", async () => {
    const clock = manualClock();
    const s = slack(clock, (method, n) =>
      method === 'users.list' && n === 1
        ? new Response('{"ok":false,"error":"ratelimited"}', { status: 429, headers: { 'retry-after': '30' } })
        : new Response('{"ok":true}', { status: 200 }),
    );
    const pacer = createSlackPacer({ distribution: 'internal', clock });
    const paced = pacedFetch(s.fetch, pacer, { maxWaitMs: 60_000, transferTimeoutMs: 10_000 });
    const call = (token: string) => ({ method: 'POST', headers: { Authorization: `Bearer ${token}` }, body: '' });
    pacer.sameWorkspace('xoxe.xoxb-first', 'T1');
    await paced(URL_OF('users.list'), call('xoxe.xoxb-first'));
    // Refreshed: the new token is the same workspace, so the 429's 30 s still hold.
    pacer.sameWorkspace('xoxe.xoxb-second', 'T1');
    await paced(URL_OF('users.list'), call('xoxe.xoxb-second'));
    expect(s.calls.map((c) => c.at)).toEqual([0, 30_000]);
    await paced(URL_OF('users.list'), call('xoxb-other-workspace'));
    expect(s.calls.at(-1)?.at).toBe(30_000);
    // The token before the one replaced is let go: its calls count as an unknown token's again.
    pacer.sameWorkspace('xoxe.xoxb-third', 'T1', 'xoxe.xoxb-first');
    expect(pacer.workspaceOfToken('xoxe.xoxb-first')).not.toBe(pacer.workspaceOfToken('xoxe.xoxb-third'));
    expect(pacer.workspaceOfToken('xoxe.xoxb-second')).toBe(pacer.workspaceOfToken('xoxe.xoxb-third'));
  });

  it('spaces a tier-2 method within its minute: a burst, then about three seconds apart', async () => {
    const clock = manualClock();
    const s = slack(clock);
    const paced = pacedFetch(s.fetch, createSlackPacer({ distribution: 'internal', clock }), { maxWaitMs: 120_000, transferTimeoutMs: 10_000 });
    const body = { method: 'POST', headers: { Authorization: 'Bearer xoxb-one' }, body: '' };
    for (let i = 0; i < 20; i++) await paced(URL_OF('conversations.list'), body);
    const times = s.calls.map((c) => c.at);
    // 18 a minute (90% of Tier 2), 9 at once.
    expect(times.filter((t) => t === 0)).toHaveLength(9);
    expect(times.filter((t) => t < 60_000).length).toBeLessThanOrEqual(9 + 18);
    expect(times.at(-1)).toBeCloseTo(11 * (60_000 / 18), 0);
  });

  it('history of a distributed app: once a minute per workspace', async () => {
    const clock = manualClock();
    const s = slack(clock);
    const paced = pacedFetch(s.fetch, createSlackPacer({ distribution: 'distributed', clock }), { maxWaitMs: 120_000, transferTimeoutMs: 10_000 });
    const body = { method: 'POST', headers: { Authorization: 'Bearer xoxb-one' }, body: 'channel=C1&limit=15' };
    for (let i = 0; i < 3; i++) await paced(URL_OF('conversations.history'), body);
    expect(s.calls.map((c) => c.at)).toEqual([0, 60_000, 120_000]);
  });

  it('paced off (tests against a Slack without limits) sends at once, but still waits out a Retry-After', async () => {
    const clock = manualClock();
    const s = slack(clock, (_method, n) =>
      n === 3 ? new Response('{"ok":false,"error":"ratelimited"}', { status: 429, headers: { 'retry-after': '2' } }) : new Response('{"ok":true}'),
    );
    const paced = pacedFetch(s.fetch, createSlackPacer({ distribution: 'internal', paced: false, clock }), { maxWaitMs: 60_000, transferTimeoutMs: 10_000 });
    for (let i = 0; i < 4; i++) await paced(URL_OF('chat.postMessage'), post('xoxb-one', 'C1'));
    expect(s.calls.map((c) => c.at)).toEqual([0, 0, 0, 2000]);
  });
});

describe('requests that are no Web API method (a file upload_url)', () => {
  it('go at once, unpaced, but still end at the transfer timeout', async () => {
    const clock = manualClock();
    const seen: string[] = [];
    const hangs: FetchFunction = (url, init) =>
      new Promise((_, reject) => {
        seen.push(String(url));
        init?.signal?.addEventListener('abort', () => reject(init.signal?.reason));
      });
    const paced = pacedFetch(hangs, createSlackPacer({ distribution: 'internal', clock }), { maxWaitMs: 60_000, transferTimeoutMs: 50 });
    await expect(paced('https://files.slack.example/upload/v1/T1/abc', { method: 'POST', body: 'x' })).rejects.toThrow();
    expect(seen).toEqual(['https://files.slack.example/upload/v1/T1/abc']);
    expect(clock.slept).toEqual([]);
  });
});
