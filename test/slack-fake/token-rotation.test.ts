import { afterEach, describe, expect, it } from 'vitest';
import { demoWorkspace, manualClock, secondDemoWorkspace, startSlackFake, type SlackFake } from '../../dev/slack-fake/index.js';
import { errorOf, webClient } from './bolt-app.js';

const REDIRECT = 'https://app.example/slack/oauth_redirect';

async function codeFor(fake: SlackFake, team: string, user: string): Promise<string> {
  const url = new URL(fake.authorizeUrl);
  for (const [k, v] of Object.entries({ client_id: fake.oauth.clientId, scope: 'commands,chat:write', redirect_uri: REDIRECT, team, user }))
    url.searchParams.set(k, v);
  const res = await fetch(url, { redirect: 'manual' });
  return new URL(res.headers.get('location')!).searchParams.get('code')!;
}

describe('Slack fake: token rotation', () => {
  let fake: SlackFake | undefined;
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
  });

  const start = (clock = manualClock(), expiresInSeconds: number | null = 120) =>
    startSlackFake({
      workspaces: [
        { ...demoWorkspace(), botToken: null },
        { ...secondDemoWorkspace(), botToken: null },
      ],
      oauth: { redirectUris: [REDIRECT], ...(expiresInSeconds ? { tokenRotation: { expiresInSeconds } } : {}) },
      clock,
    });
  const client = (f: SlackFake) => webClient(f, '');
  const install = async (f: SlackFake, team = 'T0SUN', user = 'erin') =>
    client(f).oauth.v2.access({ client_id: f.oauth.clientId, client_secret: f.oauth.clientSecret, code: await codeFor(f, team, user), redirect_uri: REDIRECT });
  const refresh = (f: SlackFake, refreshToken: string, over: Record<string, string> = {}) =>
    client(f).oauth.v2.access({
      client_id: f.oauth.clientId,
      client_secret: f.oauth.clientSecret,
      grant_type: 'refresh_token',
      refresh_token: refreshToken,
      ...over,
    } as never);

  it('installs with an expiring xoxe.xoxb token, a refresh token and expires_in; the token answers token_expired from its expiry on', async () => {
    const clock = manualClock();
    fake = await start(clock);
    const res = await install(fake);
    expect(res).toMatchObject({ ok: true, token_type: 'bot', expires_in: 120, team: { id: 'T0SUN' }, bot_user_id: 'U0SUNBOT' });
    expect(String(res.access_token)).toMatch(/^xoxe\.xoxb-1-/);
    expect(String(res.refresh_token)).toMatch(/^xoxe-1-/);
    const bot = webClient(fake, String(res.access_token));
    expect((await bot.auth.test()).team_id).toBe('T0SUN');
    clock.advance(119_999);
    expect((await bot.chat.postMessage({ channel: '#general', text: 'still good' })).ok).toBe(true);
    clock.advance(1);
    for (const call of [bot.auth.test(), bot.chat.postMessage({ channel: '#general', text: 'too late' }), bot.users.info({ user: 'U0ERIN' })])
      expect(await errorOf(call)).toBe('token_expired');
    // Recorded in the workspace the expired token names.
    expect(
      fake
        .workspace('T0SUN')
        .calls()
        .filter((c) => c.result.error === 'token_expired'),
    ).toHaveLength(3);
    expect(
      fake
        .workspace('T0CARE')
        .calls()
        .filter((c) => c.result.error === 'token_expired'),
    ).toHaveLength(0);
  });

  it('refreshes with grant_type=refresh_token: a new pair in the same shape; the refresh token used is spent; counted per workspace', async () => {
    const clock = manualClock();
    fake = await start(clock);
    const first = await install(fake);
    await install(fake, 'T0CARE', 'alice');
    clock.advance(150_000); // the access token has expired: its refresh token still works
    const second = await refresh(fake, String(first.refresh_token));
    expect(second).toMatchObject({ ok: true, token_type: 'bot', expires_in: 120, team: { id: 'T0SUN', name: 'Sunrise Care' }, app_id: 'A0CAREAPP' });
    expect(second.scope).toBe('commands,chat:write');
    expect(second.access_token).not.toBe(first.access_token);
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect((await webClient(fake, String(second.access_token)).auth.test()).team_id).toBe('T0SUN');
    expect(fake.workspace('T0SUN').botToken).toBe(second.access_token);

    // Used once: the same refresh token again (a second instance racing), or one never issued, is refused.
    expect(await errorOf(refresh(fake, String(first.refresh_token)))).toBe('invalid_refresh_token');
    expect(await errorOf(refresh(fake, 'xoxe-1-made-up'))).toBe('invalid_refresh_token');
    expect(await errorOf(refresh(fake, String(second.refresh_token), { client_secret: 'guess' }))).toBe('bad_client_secret');
    expect(await errorOf(refresh(fake, String(second.refresh_token), { grant_type: 'password' }))).toBe('invalid_grant_type');
    expect((await refresh(fake, String(second.refresh_token))).ok).toBe(true);

    expect(
      fake
        .workspace('T0SUN')
        .tokenRefreshes()
        .map((r) => [r.ok, r.error ?? null]),
    ).toEqual([
      [true, null],
      [false, 'invalid_refresh_token'],
      [true, null],
    ]);
    expect(fake.workspace('T0CARE').tokenRefreshes()).toEqual([]);
    expect(fake.tokenRefreshes('all')).toHaveLength(4);
    expect(fake.tokenRefreshes('all')[2]).toMatchObject({ teamId: null, ok: false });
    // The call log's arguments name a refresh token, never its value.
    expect(JSON.stringify(fake.calls('oauth.v2.access').map((c) => c.args))).not.toContain(String(first.refresh_token));
  });

  it('keeps the access token a refresh replaced working until its own expiry', async () => {
    const clock = manualClock();
    fake = await start(clock);
    const first = await install(fake);
    clock.advance(100_000);
    await refresh(fake, String(first.refresh_token));
    const old = webClient(fake, String(first.access_token));
    expect((await old.auth.test()).ok).toBe(true);
    clock.advance(20_000);
    expect(await errorOf(old.auth.test())).toBe('token_expired');
  });

  it('uninstalling spends the refresh tokens too; without token rotation nothing expires and there is no refresh token', async () => {
    const clock = manualClock();
    fake = await start(clock);
    const first = await install(fake);
    fake.uninstall('T0SUN');
    expect(await errorOf(webClient(fake, String(first.access_token)).auth.test())).toBe('token_revoked');
    expect(await errorOf(refresh(fake, String(first.refresh_token)))).toBe('invalid_refresh_token');
    await fake.close();

    fake = await start(clock, null);
    const plain = await install(fake);
    expect(String(plain.access_token)).toMatch(/^xoxb-/);
    expect(plain.refresh_token).toBeUndefined();
    expect(plain.expires_in).toBeUndefined();
    clock.advance(30 * 24 * 3600_000);
    expect((await webClient(fake, String(plain.access_token)).auth.test()).ok).toBe(true);
    expect(await errorOf(refresh(fake, 'xoxe-1-anything'))).toBe('invalid_refresh_token');
  });
});
