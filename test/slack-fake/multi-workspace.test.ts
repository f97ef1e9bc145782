import { afterEach, describe, expect, it } from 'vitest';
import { App, LogLevel } from '@slack/bolt';
import type { AddressInfo } from 'node:net';
import { createSlackDriver, demoWorkspace, secondDemoWorkspace, startSlackFake, type SlackFake } from '../../dev/slack-fake/index.js';
import { errorOf, SIGNING_SECRET, webClient } from './bolt-app.js';

const HOME = { type: 'home', blocks: [{ type: 'section', text: { type: 'mrkdwn', text: 'Hello' } }] };

describe('Slack fake: several workspaces at once', () => {
  let fake: SlackFake | undefined;
  let stopApp: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await stopApp?.();
    stopApp = undefined;
    await fake?.close();
    fake = undefined;
  });

  it('keeps `workspace` as today: one team, one bot token', async () => {
    fake = await startSlackFake({ workspace: demoWorkspace(), botToken: 'xoxb-one' });
    expect(fake.teamIds()).toEqual(['T0CARE']);
    expect(fake.botToken).toBe('xoxb-one');
    expect((await webClient(fake).auth.test()).team_id).toBe('T0CARE');
  });

  it('answers each call in the workspace its token belongs to, and never shows one workspace the other', async () => {
    fake = await startSlackFake({ workspaces: [demoWorkspace(), secondDemoWorkspace()], postRateLimit: false });
    const sun = fake.workspace('T0SUN');
    expect(fake.teamIds()).toEqual(['T0CARE', 'T0SUN']);
    expect(sun.botToken).not.toBe(fake.botToken);
    const a = webClient(fake);
    const b = webClient(fake, sun.botToken);

    const [authA, authB] = [await a.auth.test(), await b.auth.test()];
    expect([authA.team_id, authA.user_id]).toEqual(['T0CARE', 'U0BOT']);
    expect([authB.team_id, authB.user_id, authB.team]).toEqual(['T0SUN', 'U0SUNBOT', 'Sunrise Care']);

    expect((await b.users.info({ user: 'U0ERIN' })).user?.team_id).toBe('T0SUN');
    expect(await errorOf(a.users.info({ user: 'U0ERIN' }))).toBe('user_not_found');
    expect(await errorOf(b.users.info({ user: 'U0ALICE' }))).toBe('user_not_found');
    expect(await errorOf(b.users.lookupByEmail({ email: 'alice@example.org' }))).toBe('users_not_found');
    expect(await errorOf(a.conversations.open({ users: 'U0FRANK' }))).toBe('user_not_found');
    expect((await b.users.list({})).members?.map((m) => m.id)).toEqual(['U0ERIN', 'U0FRANK', 'U0SUNBOT']);

    await b.chat.postMessage({ channel: 'C0SUNCARE', text: 'for Sunrise' });
    expect(await errorOf(a.chat.postMessage({ channel: 'C0SUNCARE', text: 'leak' }))).toBe('channel_not_found');
    expect(await errorOf(b.chat.postMessage({ channel: 'C0CARE', text: 'leak' }))).toBe('channel_not_found');
    expect(await errorOf(b.conversations.history({ channel: 'C0CARE' }))).toBe('channel_not_found');
    expect(sun.messages('#care-team').map((m) => m.text)).toEqual(['for Sunrise']);
    expect(fake.messages('#care-team')).toEqual([]);
    expect((await b.conversations.list({})).channels?.map((c) => c.id)).toEqual(['C0SUNGEN', 'C0SUNCARE']);

    const dm = await b.chat.postMessage({ channel: 'U0FRANK', text: 'hi Frank' });
    expect(sun.dms('frank').map((m) => m.text)).toEqual(['hi Frank']);
    expect(await errorOf(a.chat.postMessage({ channel: 'U0FRANK', text: 'leak' }))).toBe('channel_not_found');
    expect(await errorOf(a.chat.update({ channel: String(dm.channel), ts: String(dm.ts), text: 'x' }))).toBe('channel_not_found');

    await b.views.publish({ user_id: 'U0ERIN', view: HOME as never });
    expect(sun.home('erin')).toBeDefined();
    expect(await errorOf(a.views.publish({ user_id: 'U0ERIN', view: HOME as never }))).toBe('invalid_arguments');

    expect(sun.calls().map((c) => c.method)).toContain('views.publish');
    expect(fake.calls('chat.postMessage').every((c) => c.result.ok === false)).toBe(true);
    expect(() => fake!.workspace('T0NOPE')).toThrow(/no workspace T0NOPE/);
  });

  it('a workspace with botToken null has no token until installed', async () => {
    fake = await startSlackFake({ workspaces: [demoWorkspace(), { ...secondDemoWorkspace(), botToken: null }] });
    expect(fake.workspace('T0SUN').botToken).toBe('');
  });

  it('the driver acts as a person of another workspace: payloads carry that team, the app answers with its token', async () => {
    const f = await startSlackFake({ workspaces: [demoWorkspace(), secondDemoWorkspace()], postRateLimit: false });
    fake = f;
    const seen: { team: string | undefined; user: string }[] = [];
    const app = new App({
      signingSecret: SIGNING_SECRET,
      authorize: async ({ teamId }) => {
        const team = f.workspace(String(teamId));
        return { botToken: team.botToken, botUserId: team.botUserId, teamId: team.teamId };
      },
      clientOptions: { slackApiUrl: f.apiUrl, retryConfig: { retries: 0 } },
      logLevel: LogLevel.ERROR,
    });
    app.command('/care', async ({ ack, command, client }) => {
      await ack();
      seen.push({ team: command.team_id, user: command.user_id });
      await client.chat.postMessage({ channel: command.channel_id, text: `hello ${command.user_name}` });
    });
    app.action('hi', async ({ ack, body }) => {
      await ack();
      seen.push({ team: body.team?.id, user: body.user.id });
    });
    const server = await app.start({ port: 0, host: '127.0.0.1' });
    stopApp = async () => {
      const stopped = app.stop();
      server.closeAllConnections();
      await stopped;
    };
    const eventsUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/slack/events`;
    const driver = createSlackDriver({ fake: f, eventsUrl, signingSecret: SIGNING_SECRET });
    const sunDriver = driver.forTeam('T0SUN');

    await sunDriver.slash('erin', '/care hi', { channel: '#care-team' });
    await f.waitFor(() => f.workspace('T0SUN').messages('#care-team').length > 0);
    await driver.slash('bob', '/care hi', { channel: '#care-team' });
    await f.waitFor(() => f.messages('#care-team').length > 0);
    expect(
      f
        .workspace('T0SUN')
        .messages('#care-team')
        .map((m) => m.text),
    ).toEqual(['hello erin']);
    expect(f.messages('#care-team').map((m) => m.text)).toEqual(['hello bob']);

    await webClient(f, f.workspace('T0SUN').botToken).chat.postMessage({
      channel: 'C0SUNCARE',
      text: 'button',
      blocks: [{ type: 'actions', block_id: 'b', elements: [{ type: 'button', action_id: 'hi', text: { type: 'plain_text', text: 'Hi' } }] }],
    });
    await sunDriver.clickButton('frank', { channel: '#care-team', text: 'Hi' });
    expect(seen).toEqual([
      { team: 'T0SUN', user: 'U0ERIN' },
      { team: 'T0CARE', user: 'U0BOB' },
      { team: 'T0SUN', user: 'U0FRANK' },
    ]);
    expect(() => driver.forTeam('T0SUN').user('bob')).toThrow(/no user "bob"/);
  });
});
