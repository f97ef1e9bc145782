import { ErrorCode, type WebAPIRateLimitedError } from '@slack/web-api';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createSlackDriver,
  demoWorkspace,
  manualClock,
  secondDemoWorkspace,
  startSlackFake,
  type AppDistribution,
  type ManualClock,
  type SlackFake,
} from '../../dev/slack-fake/index.js';
import { webClient } from './bolt-app.js';

let fake: SlackFake | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

/** A fake whose default workspace (T0CARE) has the app as `distribution`; T0SUN stays internal. */
async function withInstall(distribution: AppDistribution, clock: ManualClock): Promise<SlackFake> {
  fake = await startSlackFake({ clock, workspaces: [{ ...demoWorkspace(), appDistribution: distribution }, secondDemoWorkspace()] });
  return fake;
}

/** People write `n` messages in #care-team (m1 oldest), and `replies` replies to the first. */
function writeMessages(f: SlackFake, n: number, replies = 0): string {
  const people = createSlackDriver({ fake: f, transport: 'socket' });
  const first = people.postAsUser('bob', '#care-team', 'm1');
  for (let i = 2; i <= n; i++) people.postAsUser('bob', '#care-team', `m${i}`);
  for (let i = 1; i <= replies; i++) people.postAsUser('carol', '#care-team', `r${i}`, { threadTs: first.ts });
  return first.ts;
}

interface Page {
  status: number;
  retryAfter: string | null;
  body: { ok: boolean; error?: string; messages?: { text: string }[]; has_more?: boolean; response_metadata?: { next_cursor: string } };
}

async function read(f: SlackFake, method: string, args: Record<string, string>, token = f.botToken): Promise<Page> {
  const res = await fetch(`${f.apiUrl}${method}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Bearer ${token}` },
    body: new URLSearchParams({ channel: 'C0CARE', ...args }).toString(),
  });
  return { status: res.status, retryAfter: res.headers.get('retry-after'), body: (await res.json()) as Page['body'] };
}

const texts = (p: Page) => (p.body.messages ?? []).map((m) => m.text);

describe('a commercially distributed app that is not Marketplace-approved: history and replies', () => {
  it('allow one conversations.history call a minute per workspace; the next is 429 with Retry-After the rest of the minute', async () => {
    const clock = manualClock();
    const f = await withInstall('distributed', clock);
    writeMessages(f, 5);
    expect((await read(f, 'conversations.history', {})).status).toBe(200);
    clock.advance(20_000);
    const second = await read(f, 'conversations.history', {});
    expect(second).toMatchObject({ status: 429, retryAfter: '40', body: { ok: false, error: 'ratelimited' } });
    // Another workspace of the same app, installed as internal, is not limited by it.
    expect((await read(f, 'conversations.history', { channel: 'C0SUNCARE' }, f.workspace('T0SUN').botToken)).status).toBe(200);
    clock.advance(39_000);
    expect((await read(f, 'conversations.history', {})).retryAfter).toBe('1');
    clock.advance(1_000);
    expect((await read(f, 'conversations.history', {})).status).toBe(200);
  });

  it('count conversations.replies on its own budget of one a minute', async () => {
    const clock = manualClock();
    const f = await withInstall('distributed', clock);
    const thread = writeMessages(f, 1, 2);
    expect((await read(f, 'conversations.history', {})).status).toBe(200);
    expect((await read(f, 'conversations.replies', { ts: thread })).status).toBe(200);
    const again = await read(f, 'conversations.replies', { ts: thread });
    expect([again.status, again.retryAfter]).toEqual([429, '60']);
  });

  it('give at most 15 messages a page (also when asked for more), paging honestly by cursor', async () => {
    const clock = manualClock();
    const f = await withInstall('distributed', clock);
    writeMessages(f, 40);
    const seen: string[] = [];
    let cursor = '';
    const pages: Page[] = [];
    do {
      const page = await read(f, 'conversations.history', { limit: '200', ...(cursor ? { cursor } : {}) });
      expect(page.status).toBe(200);
      pages.push(page);
      seen.push(...texts(page));
      cursor = page.body.response_metadata?.next_cursor ?? '';
      clock.advance(60_000);
    } while (cursor);
    expect(pages.map((p) => [texts(p).length, p.body.has_more])).toEqual([
      [15, true],
      [15, true],
      [10, false],
    ]);
    expect(seen).toEqual(Array.from({ length: 40 }, (_, i) => `m${40 - i}`));
  });

  it('default `limit` to 15 for history and replies; replies page on from the parent', async () => {
    const clock = manualClock();
    const f = await withInstall('distributed', clock);
    const thread = writeMessages(f, 20, 20);
    expect(texts(await read(f, 'conversations.history', {}))).toHaveLength(15);
    const first = await read(f, 'conversations.replies', { ts: thread });
    expect(texts(first)).toEqual(['m1', ...Array.from({ length: 14 }, (_, i) => `r${i + 1}`)]);
    expect(first.body.has_more).toBe(true);
    clock.advance(60_000);
    const rest = await read(f, 'conversations.replies', { ts: thread, cursor: first.body.response_metadata?.next_cursor ?? '' });
    expect(texts(rest)).toEqual(['r15', 'r16', 'r17', 'r18', 'r19', 'r20']);
    expect([rest.body.has_more, rest.body.response_metadata?.next_cursor]).toEqual([false, '']);
  });

  it('reaches the WebClient as ratelimited with the rest of the minute as retryAfter', async () => {
    const clock = manualClock();
    const f = await withInstall('distributed', clock);
    const client = webClient(f, f.botToken, { rejectRateLimitedCalls: true });
    await client.conversations.history({ channel: 'C0CARE' });
    clock.advance(15_000);
    const error = (await client.conversations.history({ channel: 'C0CARE' }).catch((e: unknown) => e)) as WebAPIRateLimitedError;
    expect([error.code, error.retryAfter]).toEqual([ErrorCode.RateLimitedError, 45]);
  });

  it('can reach an install later (an existing install the rule reaches from a date)', async () => {
    const clock = manualClock();
    const f = await withInstall('internal', clock);
    writeMessages(f, 20);
    expect(texts(await read(f, 'conversations.history', { limit: '20' }))).toHaveLength(20);
    f.setAppDistribution('distributed');
    expect(f.appDistribution).toBe('distributed');
    expect(texts(await read(f, 'conversations.history', { limit: '20' }))).toHaveLength(15);
    expect((await read(f, 'conversations.history', {})).status).toBe(429);
  });
});

describe('an internal or Marketplace-approved app: history and replies keep Tier 3 and big pages', () => {
  it.each(['internal', 'marketplace'] as const)('%s: 50 history calls a minute, then 429', async (distribution) => {
    const clock = manualClock();
    const f = await withInstall(distribution, clock);
    for (let i = 0; i < 50; i++) expect((await read(f, 'conversations.history', { limit: '1' })).status).toBe(200);
    const limited = await read(f, 'conversations.history', { limit: '1' });
    // 50 a minute refill one call every 1.2 s.
    expect([limited.status, limited.retryAfter]).toEqual([429, '2']);
  });

  it('gives up to 999 history messages a page (Slack: "Maximum of 999"), 100 by default; replies up to 1,000 by default', async () => {
    const clock = manualClock();
    const f = await withInstall('internal', clock);
    const thread = writeMessages(f, 1000, 1000);
    const big = await read(f, 'conversations.history', { limit: '1000' });
    expect([texts(big).length, big.body.has_more]).toEqual([999, true]);
    expect(texts(await read(f, 'conversations.history', {}))).toHaveLength(100);
    const replies = await read(f, 'conversations.replies', { ts: thread });
    expect([texts(replies).length, replies.body.has_more]).toEqual([1000, true]);
  });
});
