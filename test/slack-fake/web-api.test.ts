import type { WebClient } from '@slack/web-api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { demoWorkspace, DEFAULT_BOT_SCOPES, startSlackFake, type SlackFake } from '../../dev/slack-fake/index.js';
import { errorOf, webClient } from './bolt-app.js';

let fake: SlackFake;
let client: WebClient;
beforeEach(async () => {
  fake = await startSlackFake({ postRateLimit: false });
  client = webClient(fake);
});
afterEach(() => fake.close());

describe('auth', () => {
  it('auth.test names the bot and team (what Bolt asks at start)', async () => {
    const me = await client.auth.test();
    expect(me).toMatchObject({ ok: true, user_id: 'U0BOT', bot_id: 'B0BOT', team_id: 'T0CARE' });
    expect(fake.apiUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/$/);
  });

  it('answers not_authed without a token and invalid_auth with a wrong one, with HTTP 200', async () => {
    const res = await fetch(`${fake.apiUrl}auth.test`, { method: 'POST' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: false, error: 'not_authed' });
    expect(await errorOf(webClient(fake, 'xoxb-wrong').chat.postMessage({ channel: 'C0CARE', text: 'hi' }))).toBe('invalid_auth');
    expect(fake.messages('#care-team')).toEqual([]);
  });

  it('takes the token as a form field, but not inside a JSON body (like Slack)', async () => {
    const form = await fetch(`${fake.apiUrl}chat.postMessage`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: fake.botToken, channel: 'C0CARE', text: 'from a form' }).toString(),
    });
    expect(await form.json()).toMatchObject({ ok: true });
    const json = await fetch(`${fake.apiUrl}chat.postMessage`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: fake.botToken, channel: 'C0CARE', text: 'from json' }),
    });
    expect(await json.json()).toEqual({ ok: false, error: 'not_authed' });
    const withHeader = await fetch(`${fake.apiUrl}chat.postMessage`, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8', authorization: `Bearer ${fake.botToken}` },
      body: JSON.stringify({ channel: 'C0CARE', text: 'json with bearer', blocks: [{ type: 'section', text: { type: 'mrkdwn', text: 'hi' } }] }),
    });
    expect(await withHeader.json()).toMatchObject({ ok: true });
    expect(fake.messages('care-team').map((m) => m.text)).toEqual(['from a form', 'json with bearer']);
  });
});

describe('channels and membership', () => {
  it('refuses a public channel the bot is not in (not_in_channel) and hides private ones (channel_not_found)', async () => {
    expect(await errorOf(client.chat.postMessage({ channel: 'C0RANDOM', text: 'hi' }))).toBe('not_in_channel');
    expect(await errorOf(client.chat.postMessage({ channel: 'C0HR', text: 'hi' }))).toBe('channel_not_found');
    expect(await errorOf(client.chat.postMessage({ channel: 'C0NOPE', text: 'hi' }))).toBe('channel_not_found');
    expect(await errorOf(client.conversations.info({ channel: 'C0HR' }))).toBe('channel_not_found');
    await expect(client.conversations.info({ channel: 'C0RANDOM' })).resolves.toMatchObject({
      channel: { name: 'random', is_member: false, is_private: false },
    });
    expect(await errorOf(client.conversations.history({ channel: 'C0RANDOM' }))).toBe('not_in_channel');
    await expect(client.chat.postMessage({ channel: 'C0LEADS', text: 'private but a member' })).resolves.toMatchObject({ ok: true });
  });

  it('lets the bot post to public channels it is not in when it has chat:write.public', async () => {
    const open = await startSlackFake({ workspace: demoWorkspace({ scopes: [...DEFAULT_BOT_SCOPES, 'chat:write.public'] }) });
    try {
      await expect(webClient(open).chat.postMessage({ channel: 'C0RANDOM', text: 'hello random' })).resolves.toMatchObject({ ok: true });
      expect(open.messages('#random').map((m) => m.text)).toEqual(['hello random']);
      expect(await errorOf(webClient(open).chat.postMessage({ channel: 'C0HR', text: 'x' }))).toBe('channel_not_found');
    } finally {
      await open.close();
    }
  });

  it("posts to a user id land in that person's DM; conversations.open gives the same D channel", async () => {
    const posted = await client.chat.postMessage({ channel: 'U0CAROL', text: 'Your action is due' });
    expect(posted.channel).toMatch(/^D/);
    const opened = await client.conversations.open({ users: 'U0CAROL' });
    expect(opened.channel?.id).toBe(posted.channel);
    await client.chat.postMessage({ channel: opened.channel?.id as string, text: 'Second' });
    expect(fake.dms('carol').map((m) => m.text)).toEqual(['Your action is due', 'Second']);
    expect(fake.dms('bob')).toEqual([]);
    expect(await errorOf(client.conversations.open({ users: 'U0NOBODY' }))).toBe('user_not_found');
  });
});

describe('conversations.list', () => {
  const all = async (c: WebClient, args: Record<string, unknown>) => {
    const pages: { ids: string[]; next: string }[] = [];
    let cursor: string | undefined;
    do {
      const res = await c.conversations.list({ ...args, ...(cursor ? { cursor } : {}) });
      cursor = (res.response_metadata?.next_cursor as string) || undefined;
      pages.push({ ids: (res.channels ?? []).map((ch) => ch.id!), next: cursor ?? '' });
    } while (cursor);
    return pages;
  };

  it('lists public channels by default, with membership, and private ones only where the bot is', async () => {
    const pub = await client.conversations.list({});
    expect(pub.channels?.map((c) => c.name)).toEqual(['general', 'care-team', 'random']);
    expect(pub.channels?.find((c) => c.name === 'random')).toMatchObject({ is_member: false, is_private: false, is_channel: true });
    const both = await client.conversations.list({ types: 'public_channel,private_channel' });
    // #hr is private and the bot is not in it: Slack does not show it to the bot.
    expect(both.channels?.map((c) => c.name)).toEqual(['general', 'care-team', 'care-leads', 'random']);
    expect(both.response_metadata?.next_cursor).toBe('');
  });

  it('cuts a page before hiding what the bot may not see, so a page can be short while the cursor goes on', async () => {
    const pages = await all(client, { types: 'public_channel,private_channel', limit: 2 });
    // general, care-team | care-leads, random | hr (hidden): the last page is empty but was a page.
    expect(pages.map((p) => p.ids)).toEqual([['C0GENERAL', 'C0CARE'], ['C0LEADS', 'C0RANDOM'], []]);
    expect(pages.at(-1)?.next).toBe('');
  });

  it('leaves archived channels out with exclude_archived', async () => {
    const ws = demoWorkspace();
    ws.channels.push({ id: 'C0OLD', name: 'old-team', members: ['U0ALICE', 'U0BOT'], archived: true });
    const withOld = await startSlackFake({ workspace: ws });
    try {
      const c = webClient(withOld);
      expect((await c.conversations.list({})).channels?.find((ch) => ch.id === 'C0OLD')).toMatchObject({ is_archived: true });
      expect((await c.conversations.list({ exclude_archived: true })).channels?.map((ch) => ch.id)).not.toContain('C0OLD');
    } finally {
      await withOld.close();
    }
  });

  it('answers invalid_types, invalid_limit, invalid_cursor and missing_scope like Slack', async () => {
    expect(await errorOf(client.conversations.list({ types: 'public_channel,shared' }))).toBe('invalid_types');
    expect(await errorOf(client.conversations.list({ limit: 1001 }))).toBe('invalid_limit');
    expect(await errorOf(client.conversations.list({ cursor: Buffer.from('channel:x').toString('base64') }))).toBe('invalid_cursor');
    const narrow = await startSlackFake({ workspace: demoWorkspace({ scopes: ['chat:write', 'channels:read'] }) });
    try {
      await expect(webClient(narrow).conversations.list({})).resolves.toMatchObject({ ok: true });
      expect(await errorOf(webClient(narrow).conversations.list({ types: 'public_channel,private_channel' }))).toBe('missing_scope');
    } finally {
      await narrow.close();
    }
  });
});

describe('messages', () => {
  it('threads replies under their parent and counts them', async () => {
    const parent = await client.chat.postMessage({ channel: 'C0CARE', text: 'New action: Call GP' });
    await client.chat.postMessage({ channel: 'C0CARE', text: 'Completed by Bob', thread_ts: parent.ts as string });
    const [top, ...rest] = fake.messages('#care-team');
    expect(rest).toEqual([]);
    expect(top).toMatchObject({ text: 'New action: Call GP', reply_count: 1 });
    expect(top?.replies.map((r) => r.text)).toEqual(['Completed by Bob']);
  });

  it("updates and deletes the bot's messages; unknown ts is message_not_found", async () => {
    const m = await client.chat.postMessage({
      channel: 'C0CARE',
      text: 'Due today',
      blocks: [{ type: 'section', text: { type: 'mrkdwn', text: '*Due today*' } }],
    });
    await client.chat.update({
      channel: 'C0CARE',
      ts: m.ts as string,
      text: 'Done',
      blocks: [{ type: 'section', text: { type: 'mrkdwn', text: ':white_check_mark: *Done*' } }],
    });
    const [updated] = fake.messages('#care-team');
    expect(fake.visibleText(updated ?? [])).toBe(':white_check_mark: Done');
    expect(updated?.edited?.user).toBe('U0BOT');
    expect(await errorOf(client.chat.update({ channel: 'C0CARE', ts: '1.000001', text: 'x' }))).toBe('message_not_found');
    await client.chat.delete({ channel: 'C0CARE', ts: m.ts as string });
    expect(fake.messages('#care-team')).toEqual([]);
    expect(await errorOf(client.chat.delete({ channel: 'C0CARE', ts: m.ts as string }))).toBe('message_not_found');
  });

  it('shows ephemeral messages only to their person, who must be in the channel', async () => {
    await client.chat.postEphemeral({ channel: 'C0CARE', user: 'U0BOB', text: 'Only you can see this' });
    expect(fake.ephemerals('bob').map((e) => e.text)).toEqual(['Only you can see this']);
    expect(fake.ephemerals('alice')).toEqual([]);
    expect(fake.messages('#care-team')).toEqual([]);
    expect(await errorOf(client.chat.postEphemeral({ channel: 'C0CARE', user: 'U0DAN', text: 'x' }))).toBe('user_not_in_channel');
  });

  it('conversations.history returns newest first and message metadata only with include_all_metadata', async () => {
    await client.chat.postMessage({ channel: 'C0CARE', text: 'first', metadata: { event_type: 'action_posted', event_payload: { action_id: 'A1' } } });
    await client.chat.postMessage({ channel: 'C0CARE', text: 'second' });
    const plain = await client.conversations.history({ channel: 'C0CARE' });
    expect(plain.messages?.map((m) => m.text)).toEqual(['second', 'first']);
    expect(plain.messages?.[1]).not.toHaveProperty('metadata');
    const withMeta = await client.conversations.history({ channel: 'C0CARE', include_all_metadata: true });
    expect(withMeta.messages?.[1]?.metadata).toEqual({ event_type: 'action_posted', event_payload: { action_id: 'A1' } });
    const page = await client.conversations.history({ channel: 'C0CARE', limit: 1 });
    expect(page.has_more).toBe(true);
    const next = await client.conversations.history({ channel: 'C0CARE', limit: 1, cursor: page.response_metadata?.next_cursor as string });
    expect(next.messages?.map((m) => m.text)).toEqual(['first']);
    expect(await errorOf(client.chat.postMessage({ channel: 'C0CARE', text: 'x', metadata: { event_type: 'x' } as never }))).toBe('invalid_metadata_format');
  });

  it('refuses a message with nothing in it (no_text)', async () => {
    expect(await errorOf(client.chat.postMessage({ channel: 'C0CARE' } as never))).toBe('no_text');
  });
});

describe('users', () => {
  it('users.info gives time zone, offset, email and admin flags; unknown is user_not_found', async () => {
    const { user } = await client.users.info({ user: 'U0ALICE' });
    expect(user).toMatchObject({
      id: 'U0ALICE',
      real_name: 'Alice Admin',
      tz: 'Europe/London',
      is_admin: true,
      is_owner: true,
      profile: { email: 'alice@example.org' },
    });
    expect([0, 3600]).toContain(user?.tz_offset);
    const carol = await client.users.info({ user: 'U0CAROL' });
    expect([-18000, -14400]).toContain(carol.user?.tz_offset);
    expect(carol.user?.is_admin).toBe(false);
    expect(await errorOf(client.users.info({ user: 'U0NOBODY' }))).toBe('user_not_found');
  });

  it('users.lookupByEmail finds people case-insensitively and answers users_not_found otherwise', async () => {
    await expect(client.users.lookupByEmail({ email: 'Carol@Example.org' })).resolves.toMatchObject({ user: { id: 'U0CAROL' } });
    expect(await errorOf(client.users.lookupByEmail({ email: 'nobody@example.org' }))).toBe('users_not_found');
  });

  it('users.list pages through everyone, bot included', async () => {
    const first = await client.users.list({ limit: 3 });
    expect(first.members).toHaveLength(3);
    const rest = await client.users.list({ limit: 3, cursor: first.response_metadata?.next_cursor as string });
    const ids = [...(first.members ?? []), ...(rest.members ?? [])].map((m) => m.id);
    expect(ids).toEqual(['U0ALICE', 'U0BOB', 'U0CAROL', 'U0DAN', 'U0BOT']);
    expect(rest.response_metadata?.next_cursor).toBe('');
  });

  it('users.list shows the display name a workspace gives a person (the handle when none)', async () => {
    const ws = demoWorkspace();
    ws.users[1] = { ...ws.users[1]!, displayName: 'Bobby' };
    const named = await startSlackFake({ workspace: ws });
    try {
      const { members } = await webClient(named).users.list({});
      expect(members?.find((m) => m.id === 'U0BOB')?.profile).toMatchObject({ display_name: 'Bobby', real_name: 'Bob Carer' });
      expect(members?.find((m) => m.id === 'U0CAROL')?.profile?.display_name).toBe('carol');
    } finally {
      await named.close();
    }
  });

  it('hides emails without users:read.email and says which scope is missing for lookups', async () => {
    const narrow = await startSlackFake({ workspace: demoWorkspace({ scopes: ['chat:write', 'users:read'] }) });
    try {
      const { user } = await webClient(narrow).users.info({ user: 'U0BOB' });
      expect(user?.profile?.email).toBeUndefined();
      expect(await errorOf(webClient(narrow).users.lookupByEmail({ email: 'bob@example.org' }))).toBe('missing_scope');
    } finally {
      await narrow.close();
    }
  });
});

describe('call log', () => {
  it('records every call with method, arguments (without the token), result and time', async () => {
    await client.chat.postMessage({ channel: 'C0CARE', text: 'logged' });
    await errorOf(client.chat.postMessage({ channel: 'C0RANDOM', text: 'refused' }));
    const calls = fake.calls('chat.postMessage');
    expect(calls.map((c) => [c.args.text, c.result.ok, c.result.error])).toEqual([
      ['logged', true, undefined],
      ['refused', false, 'not_in_channel'],
    ]);
    expect(calls.every((c) => !('token' in c.args) && typeof c.at === 'number' && c.status === 200)).toBe(true);
    expect(JSON.stringify(fake.snapshot())).not.toContain(fake.botToken);
  });

  it('tells subscribers what changed, until they unsubscribe (for the playground)', async () => {
    const changes: string[] = [];
    const off = fake.onChange((c) => changes.push(`${c.kind}:${c.channel ?? c.method ?? ''}`));
    await client.chat.postMessage({ channel: 'C0CARE', text: 'seen' });
    off();
    await client.chat.postMessage({ channel: 'C0CARE', text: 'unseen' });
    expect(changes).toEqual(['message.posted:C0CARE', 'call:chat.postMessage']);
    expect(JSON.parse(JSON.stringify(fake.snapshot()))).toEqual(fake.snapshot());
  });
});
