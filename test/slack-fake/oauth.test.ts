import { afterEach, describe, expect, it } from 'vitest';
import { App, LogLevel } from '@slack/bolt';
import type { Installation, InstallationQuery } from '@slack/oauth';
import type { AddressInfo } from 'node:net';
import {
  createSlackDriver,
  demoWorkspace,
  manualClock,
  OAUTH_CODE_LIFETIME_MS,
  secondDemoWorkspace,
  startSlackFake,
  type SlackFake,
} from '../../dev/slack-fake/index.js';
import { errorOf, SIGNING_SECRET, webClient } from './bolt-app.js';

const REDIRECT = 'https://app.example/slack/oauth_redirect';

/** Slack's authorize page: the person clicks Allow (or Cancel); the answer is the redirect back to the app. */
async function authorize(fake: SlackFake, params: Record<string, string>): Promise<{ status: number; location: URL | undefined; body: string }> {
  const url = new URL(fake.authorizeUrl);
  for (const [k, v] of Object.entries({ client_id: fake.oauth.clientId, scope: 'commands,chat:write', redirect_uri: REDIRECT, state: 's1', ...params }))
    url.searchParams.set(k, v);
  const res = await fetch(url, { redirect: 'manual' });
  const location = res.headers.get('location');
  return { status: res.status, location: location ? new URL(location) : undefined, body: await res.text() };
}

async function codeFor(fake: SlackFake, team: string, user: string): Promise<string> {
  const { location } = await authorize(fake, { team, user });
  return location!.searchParams.get('code')!;
}

describe('Slack fake: OAuth v2 (one app, many installs)', () => {
  let fake: SlackFake | undefined;
  let stopApp: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await stopApp?.();
    stopApp = undefined;
    await fake?.close();
    fake = undefined;
  });

  const start = (clock = manualClock()) =>
    startSlackFake({ workspaces: [demoWorkspace(), { ...secondDemoWorkspace(), botToken: null }], oauth: { redirectUris: [REDIRECT] }, clock });

  it('authorize redirects back with a code and the state; Cancel with error=access_denied', async () => {
    fake = await start();
    const allowed = await authorize(fake, { team: 'T0SUN', user: 'erin' });
    expect(allowed.status).toBe(302);
    expect(`${allowed.location!.origin}${allowed.location!.pathname}`).toBe(REDIRECT);
    expect(allowed.location!.searchParams.get('state')).toBe('s1');
    expect(allowed.location!.searchParams.get('code')).toMatch(/^\d+\.\d+\.[0-9a-f]+$/);
    const denied = await authorize(fake, { team: 'T0SUN', user: 'erin', deny: '1' });
    expect(denied.location!.search).toBe('?error=access_denied&state=s1');
    expect((await authorize(fake, { client_id: 'nope' })).body).toBe('invalid_client_id');
    expect((await authorize(fake, { redirect_uri: 'https://evil.example/cb' })).body).toBe('bad_redirect_uri');
  });

  it('exchanges a code once for a new bot token of that workspace, in Slack’s response shape', async () => {
    fake = await start();
    const code = await codeFor(fake, 'T0SUN', 'erin');
    const noToken = webClient(fake, '');
    const res = await noToken.oauth.v2.access({ client_id: fake.oauth.clientId, client_secret: fake.oauth.clientSecret, code, redirect_uri: REDIRECT });
    const token = String(res.access_token);
    expect(res).toMatchObject({
      ok: true,
      app_id: 'A0CAREAPP',
      authed_user: { id: 'U0ERIN' },
      scope: 'commands,chat:write',
      token_type: 'bot',
      bot_user_id: 'U0SUNBOT',
      team: { id: 'T0SUN', name: 'Sunrise Care' },
      enterprise: null,
      is_enterprise_install: false,
    });
    expect(token).toMatch(/^xoxb-/);
    expect(fake.workspace('T0SUN').botToken).toBe(token);
    expect((await webClient(fake, token).auth.test()).team_id).toBe('T0SUN');
    expect(await errorOf(webClient(fake, token).users.info({ user: 'U0ALICE' }))).toBe('user_not_found');
    // One time only.
    expect(
      await errorOf(noToken.oauth.v2.access({ client_id: fake.oauth.clientId, client_secret: fake.oauth.clientSecret, code, redirect_uri: REDIRECT })),
    ).toBe('invalid_code');
    expect(fake.calls('oauth.v2.access').every((c) => !('client_secret' in c.args))).toBe(true);
  });

  it('takes the client id and secret by HTTP Basic too', async () => {
    fake = await start();
    const code = await codeFor(fake, 'T0CARE', 'alice');
    const basic = (secret: string) => `Basic ${Buffer.from(`${fake!.oauth.clientId}:${secret}`).toString('base64')}`;
    const post = async (secret: string) =>
      (await (
        await fetch(`${fake!.apiUrl}oauth.v2.access`, {
          method: 'POST',
          headers: { authorization: basic(secret), 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ code, redirect_uri: REDIRECT }).toString(),
        })
      ).json()) as Record<string, unknown>;
    expect(await post('wrong')).toEqual({ ok: false, error: 'bad_client_secret' });
    const ok = await post(fake.oauth.clientSecret);
    expect(ok).toMatchObject({ ok: true, team: { id: 'T0CARE', name: 'Care Team Demo' }, authed_user: { id: 'U0ALICE' }, bot_user_id: 'U0BOT' });
  });

  it('refuses a bad client id or secret, an unknown, used or expired code, and another redirect_uri', async () => {
    const clock = manualClock();
    fake = await start(clock);
    const f = fake;
    const noToken = webClient(f, '');
    const exchange = (args: Record<string, string>) =>
      errorOf(noToken.oauth.v2.access({ client_id: f.oauth.clientId, client_secret: f.oauth.clientSecret, redirect_uri: REDIRECT, code: '', ...args }));
    const code = await codeFor(f, 'T0SUN', 'erin');
    expect(await exchange({ code, client_id: '123.456' })).toBe('invalid_client_id');
    expect(await exchange({ code, client_secret: 'guess' })).toBe('bad_client_secret');
    expect(await exchange({ code: 'not-a-code' })).toBe('invalid_code');
    expect(await exchange({ code, redirect_uri: 'https://app.example/other' })).toBe('bad_redirect_uri');
    // A refused exchange does not use the code up.
    await noToken.oauth.v2.access({ client_id: f.oauth.clientId, client_secret: f.oauth.clientSecret, code, redirect_uri: REDIRECT });
    expect(await exchange({ code })).toBe('invalid_code');
    const late = await codeFor(f, 'T0SUN', 'erin');
    clock.advance(OAUTH_CODE_LIFETIME_MS + 1);
    expect(await exchange({ code: late })).toBe('invalid_code');
    expect(f.workspace('T0SUN').botToken).not.toBe('');
  });

  it('auth.revoke and uninstall leave the workspace’s tokens answering token_revoked, the other workspace untouched', async () => {
    fake = await start();
    const a = webClient(fake);
    expect(await a.auth.revoke({ test: true })).toMatchObject({ ok: true, revoked: true });
    expect((await a.auth.test()).ok).toBe(true);
    const code = await codeFor(fake, 'T0SUN', 'erin');
    const res = await webClient(fake, '').oauth.v2.access({
      client_id: fake.oauth.clientId,
      client_secret: fake.oauth.clientSecret,
      code,
      redirect_uri: REDIRECT,
    });
    const b = webClient(fake, String(res.access_token));
    expect(await b.auth.revoke({})).toMatchObject({ ok: true, revoked: true });
    expect(await errorOf(b.auth.test())).toBe('token_revoked');
    expect(fake.workspace('T0SUN').botToken).toBe('');
    fake.uninstall('T0CARE');
    expect(await errorOf(a.auth.test())).toBe('token_revoked');
    expect(await errorOf(webClient(fake, 'xoxb-made-up').auth.test())).toBe('invalid_auth');
  });

  it('installs a real Bolt app through /slack/install and its OAuth redirect; uninstall tells the app', async () => {
    const f = await startSlackFake({ workspaces: [demoWorkspace(), { ...secondDemoWorkspace(), botToken: null }], postRateLimit: false });
    fake = f;
    const installs = new Map<string, Installation>();
    const events: { type: string; team: string | undefined }[] = [];
    const app = new App({
      signingSecret: SIGNING_SECRET,
      clientId: f.oauth.clientId,
      clientSecret: f.oauth.clientSecret,
      stateSecret: 'state-secret',
      scopes: ['commands', 'chat:write'],
      installationStore: {
        storeInstallation: async (i) => {
          installs.set(i.team!.id, i as Installation);
        },
        fetchInstallation: async (q: InstallationQuery<boolean>) => {
          const i = installs.get(String(q.teamId));
          if (!i) throw new Error('no installation');
          return i;
        },
        deleteInstallation: async (q) => {
          installs.delete(String(q.teamId));
        },
      },
      installerOptions: { authorizationUrl: f.authorizeUrl },
      clientOptions: { slackApiUrl: f.apiUrl, retryConfig: { retries: 0 } },
      logLevel: LogLevel.ERROR,
    });
    app.command('/care', async ({ ack, command, client }) => {
      await ack();
      await client.chat.postMessage({ channel: command.channel_id, text: `installed for ${command.team_id}` });
    });
    for (const type of ['app_uninstalled', 'tokens_revoked'] as const)
      app.event(type, async ({ body }) => {
        events.push({ type, team: body.team_id });
      });
    const server = await app.start({ port: 0, host: '127.0.0.1' });
    stopApp = async () => {
      const stopped = app.stop();
      server.closeAllConnections();
      await stopped;
    };
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    f.oauth.redirectUris.push(`${base}/slack/oauth_redirect`);
    const driver = createSlackDriver({ fake: f, eventsUrl: `${base}/slack/events`, signingSecret: SIGNING_SECRET });

    const denied = await driver.installApp('T0SUN', 'erin', { installUrl: `${base}/slack/install`, deny: true });
    expect(denied.status).not.toBe(200);
    expect(installs.size).toBe(0);

    const result = await driver.installApp('T0SUN', 'erin', { installUrl: `${base}/slack/install` });
    expect(result.status).toBe(200);
    const installation = installs.get('T0SUN');
    expect(installation).toMatchObject({
      team: { id: 'T0SUN' },
      user: { id: 'U0ERIN' },
      bot: { userId: 'U0SUNBOT', id: 'B0SUNBOT' },
      isEnterpriseInstall: false,
    });
    expect(installation?.bot?.token).toBe(f.workspace('T0SUN').botToken);

    // Replaying the redirect (no state cookie in this browser): Bolt refuses it and exchanges nothing.
    const redirect = result.steps.at(-1)!.url;
    const replay = await fetch(redirect);
    expect(replay.status).not.toBe(200);
    expect(f.calls('oauth.v2.access').filter((c) => c.result.ok)).toHaveLength(1);

    await driver.forTeam('T0SUN').slash('frank', '/care hi', { channel: '#care-team' });
    await f.waitFor(() => f.workspace('T0SUN').messages('#care-team').length > 0);
    expect(f.workspace('T0SUN').messages('#care-team')[0]?.text).toBe('installed for T0SUN');

    const answers = await driver.uninstall('T0SUN');
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    expect(events).toEqual([
      { type: 'tokens_revoked', team: 'T0SUN' },
      { type: 'app_uninstalled', team: 'T0SUN' },
    ]);
    expect(await errorOf(webClient(f, installation!.bot!.token).auth.test())).toBe('token_revoked');
    expect((await webClient(f).auth.test()).team_id).toBe('T0CARE');
  });
});
