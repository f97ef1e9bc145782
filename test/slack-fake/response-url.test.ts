import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { manualClock, startSlackFake, type ManualClock, type SlackFake } from '../../dev/slack-fake/index.js';
import { webClient } from './bolt-app.js';

let fake: SlackFake;
let clock: ManualClock;
beforeEach(async () => {
  clock = manualClock();
  fake = await startSlackFake({ clock, postRateLimit: false });
});
afterEach(() => fake.close());

async function respond(url: string, body: Record<string, unknown>): Promise<{ status: number; body: unknown }> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
}

const commandUrl = () => fake.issueResponseUrl({ kind: 'command', channel: 'C0CARE', user: 'U0BOB', command: '/care' });

describe('response_url', () => {
  it('is a URL on the fake, and posts ephemerally to the person by default', async () => {
    const url = commandUrl();
    expect(url.startsWith(`${fake.url}response/`)).toBe(true);
    expect(await respond(url, { text: 'Only Bob sees this' })).toEqual({ status: 200, body: { ok: true } });
    expect(fake.ephemerals('bob', { channel: '#care-team' }).map((e) => e.text)).toEqual(['Only Bob sees this']);
    expect(fake.messages('#care-team')).toEqual([]);
  });

  it('posts to the channel with response_type in_channel, even where the bot is not a member', async () => {
    const url = fake.issueResponseUrl({ kind: 'command', channel: 'C0RANDOM', user: 'U0BOB', command: '/care' });
    await respond(url, { response_type: 'in_channel', text: 'Everyone sees this' });
    expect(fake.messages('#random').map((m) => [m.text, m.user])).toEqual([['Everyone sees this', 'U0BOT']]);
  });

  it('replace_original and delete_original act on the message the button was on', async () => {
    const posted = await webClient(fake).chat.postMessage({ channel: 'C0CARE', text: 'Call GP - due today' });
    const url = fake.issueResponseUrl({ kind: 'message', channel: 'C0CARE', user: 'U0BOB', messageTs: posted.ts as string, ephemeral: false });
    await respond(url, { replace_original: true, text: 'Call GP - completed by Bob' });
    expect(fake.messages('#care-team').map((m) => [m.ts, m.text])).toEqual([[posted.ts, 'Call GP - completed by Bob']]);
    await respond(url, { text: 'A new ephemeral note' });
    expect(fake.ephemerals('bob').map((e) => e.text)).toEqual(['A new ephemeral note']);
    await respond(url, { delete_original: true });
    expect(fake.messages('#care-team')).toEqual([]);
  });

  it('replaces and deletes ephemeral originals for their person', async () => {
    const url = commandUrl();
    await respond(url, { text: 'Loading...' });
    await respond(url, { replace_original: true, text: 'Here are your actions' });
    expect(fake.ephemerals('bob').map((e) => e.text)).toEqual(['Here are your actions']);
    const ts = fake.ephemerals('bob')[0]?.ts as string;
    const buttonUrl = fake.issueResponseUrl({ kind: 'message', channel: 'C0CARE', user: 'U0BOB', messageTs: ts, ephemeral: true });
    await respond(buttonUrl, { delete_original: true });
    expect(fake.ephemerals('bob')).toEqual([]);
  });

  it('works 5 times, then answers 404 used_url', async () => {
    const url = commandUrl();
    const statuses = [];
    for (let i = 1; i <= 6; i++) statuses.push((await respond(url, { text: `reply ${i}` })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 404]);
    expect(fake.ephemerals('bob')).toHaveLength(5);
    expect((await respond(url, { text: 'again' })).body).toEqual({ ok: false, error: 'used_url' });
  });

  it('expires after 30 minutes (404 expired_url)', async () => {
    const url = commandUrl();
    clock.advance(30 * 60_000);
    expect((await respond(url, { text: 'still fine' })).status).toBe(200);
    clock.advance(1);
    expect(await respond(url, { text: 'too late' })).toEqual({ status: 404, body: { ok: false, error: 'expired_url' } });
    expect(fake.ephemerals('bob').map((e) => e.text)).toEqual(['still fine']);
  });

  it('refuses broken blocks (400 invalid_blocks) without using up the URL', async () => {
    const url = commandUrl();
    const bad = await respond(url, { text: 'x', blocks: [{ type: 'header', text: { type: 'plain_text', text: 'h'.repeat(151) } }] });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ ok: false, error: 'invalid_blocks' });
    expect(fake.ephemerals('bob')).toEqual([]);
    expect(fake.calls('response_url').map((c) => c.status)).toEqual([400]);
  });
});
