import { afterEach, describe, expect, it } from 'vitest';
import { manualClock, startSlackFake, type ManualClock, type SlackFake } from '../../dev/slack-fake/index.js';

let fake: SlackFake | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function post(f: SlackFake, method: string, args: Record<string, string>): Promise<{ status: number; retryAfter: string | null }> {
  const res = await fetch(`${f.apiUrl}${method}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Bearer ${f.botToken}` },
    body: new URLSearchParams(args).toString(),
  });
  await res.body?.cancel();
  return { status: res.status, retryAfter: res.headers.get('retry-after') };
}

const message = (f: SlackFake, channel: string, text: string) => post(f, 'chat.postMessage', { channel, text });

describe('the posting rule: about one message per second per conversation, short bursts', () => {
  let clock: ManualClock;

  it('lets chat.postMessage burst 3 into a channel, then about 1 a second; another channel is unaffected', async () => {
    clock = manualClock();
    fake = await startSlackFake({ clock });
    for (const text of ['a', 'b', 'c']) expect((await message(fake, 'C0CARE', text)).status).toBe(200);
    expect(await message(fake, 'C0CARE', 'd')).toEqual({ status: 429, retryAfter: '1' });
    expect((await message(fake, 'C0GENERAL', 'elsewhere')).status).toBe(200);
    clock.advance(1_000);
    expect((await message(fake, 'C0CARE', 'd again')).status).toBe(200);
    expect((await message(fake, 'C0CARE', 'e')).status).toBe(429);
    clock.advance(500);
    expect((await message(fake, 'C0CARE', 'e')).status).toBe(429);
    clock.advance(500);
    expect((await message(fake, 'C0CARE', 'e again')).status).toBe(200);
    expect(fake.messages('#care-team').map((m) => m.text)).toEqual(['a', 'b', 'c', 'd again', 'e again']);
  });

  it('counts a person and their DM channel as one conversation', async () => {
    clock = manualClock();
    fake = await startSlackFake({ clock });
    for (const text of ['1', '2', '3']) expect((await message(fake, 'U0BOB', text)).status).toBe(200);
    const im = fake.dms('bob')[0]!.channel;
    expect(im).toMatch(/^D/);
    expect((await message(fake, im, '4')).status).toBe(429);
    expect((await message(fake, 'U0CAROL', 'to carol')).status).toBe(200);
  });

  it("holds chat.postEphemeral to the same rule per channel (this fake's choice; Slack lists it as Tier 4)", async () => {
    clock = manualClock();
    fake = await startSlackFake({ clock });
    const ephemeral = (f: SlackFake, channel: string, user: string) => post(f, 'chat.postEphemeral', { channel, user, text: 'only you' });
    for (const user of ['U0ALICE', 'U0BOB', 'U0CAROL']) expect((await ephemeral(fake, 'C0CARE', user)).status).toBe(200);
    expect(await ephemeral(fake, 'C0CARE', 'U0BOB')).toEqual({ status: 429, retryAfter: '1' });
    expect((await ephemeral(fake, 'C0GENERAL', 'U0BOB')).status).toBe(200);
    // Messages and ephemerals have budgets of their own.
    expect((await message(fake, 'C0CARE', 'a message')).status).toBe(200);
  });
});
