/**
 * Token rotation across instances, on the real store (SQLite, and PostgreSQL with TEST_DATABASE_URL) and the
 * Slack fake over HTTP: each "instance" is its own store connection and its own rotation, as two app processes
 * sharing one database are. The fake's clock and the stores' clock are one test clock (stepped by hand).
 */
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { KeyRing } from '../../src/crypto/key-ring.js';
import { memoryLogger } from '../../src/logging/logger.js';
import { oauthRefresh } from '../../src/slack/token-rotation/refresh-call.js';
import { createTokenRotation, type TokenRotation } from '../../src/deployment/token-rotation.js';
import { createSlackWebClient } from '../../src/slack/web-api/web-clients.js';
import { demoWorkspace, secondDemoWorkspace, startSlackFake, type SlackFake } from '../../dev/slack-fake/index.js';
import type { Store } from '../../src/store/index.js';
import { installationOf } from '../../src/deployment/installation-of.js';
import { PG_SKIPPED, TEST_DATABASE_URL } from '../helpers/pg.js';
import { type Fresh, type Harness, postgresHarness, sqliteHarness } from '../store/harness.js';

const SUN = 'T0SUN';
const LIFETIME_S = 120;
const REDIRECT = 'https://app.example/slack/oauth_redirect';

let fake: SlackFake | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

/** The fake (token rotation on, its clock the stores' clock plus `skewMs`) with Sunrise Care installed and stored. */
async function installed(f: Fresh, skewMs = 0) {
  fake = await startSlackFake({
    workspaces: [
      { ...demoWorkspace(), botToken: null },
      { ...secondDemoWorkspace(), botToken: null },
    ],
    oauth: { redirectUris: [REDIRECT], tokenRotation: { expiresInSeconds: LIFETIME_S } },
    clock: { now: () => f.clock() + skewMs },
    rateLimits: false,
  });
  const url = new URL(fake.authorizeUrl);
  for (const [k, v] of Object.entries({ client_id: fake.oauth.clientId, scope: 'commands', redirect_uri: REDIRECT, team: SUN, user: 'erin' }))
    url.searchParams.set(k, v);
  const code = new URL((await fetch(url, { redirect: 'manual' })).headers.get('location')!).searchParams.get('code')!;
  const logger = memoryLogger('debug');
  const grant = await createSlackWebClient('', 'poster', { apiUrl: fake.apiUrl, logger }).oauth.v2.access({
    client_id: fake.oauth.clientId,
    client_secret: fake.oauth.clientSecret,
    code,
    redirect_uri: REDIRECT,
  });
  await f.store.saveInstallation({
    isEnterpriseInstall: false,
    teamId: SUN,
    bot: {
      token: String(grant.access_token),
      refreshToken: String(grant.refresh_token),
      expiresAt: Math.floor(f.clock() / 1000) + Number(grant.expires_in),
      scopes: ['commands'],
      id: 'B0SUNBOT',
      userId: 'U0SUNBOT',
    },
    user: { id: 'U0ERIN' },
  });
  return { token: String(grant.access_token), refreshToken: String(grant.refresh_token) };
}

/** One app instance's rotation over its own store connection. */
function instance(store: Store, f: Fresh, holder: string) {
  const logger = memoryLogger('debug');
  const rotation: TokenRotation = createTokenRotation({
    store,
    installation: (workspaceId) => installationOf(store, workspaceId),
    refresh: oauthRefresh(createSlackWebClient('', 'poster', { apiUrl: fake!.apiUrl, logger }), fake!.oauth),
    holder,
    now: f.clock,
    logger,
    wait: { everyMs: 20 },
  });
  return { rotation, logger, sun: rotation.forWorkspace(SUN) };
}

const authTest = (token: string) => createSlackWebClient(token, 'interactive', { apiUrl: fake!.apiUrl, logger: memoryLogger('error') }).auth.test();
const refreshes = () => fake!.workspace(SUN).tokenRefreshes();

function contract(h: Harness) {
  const fresh = () => h.fresh({ keyRing: new KeyRing([randomBytes(32)]) });

  it('two instances finding the token due at once: Slack is asked once, both call with the new token, and it is stored', async () => {
    const f = await fresh();
    const first = await installed(f);
    const [a, b] = [instance(f.store, f, 'a'), instance(await f.open(), f, 'b')];
    // Fresh: no refresh, no question to Slack.
    expect(await Promise.all([a.sun.current(), b.sun.current()])).toEqual([first.token, first.token]);
    f.clock.advance((LIFETIME_S - 30) * 1000);
    expect(await a.sun.current()).toBe(first.token);
    expect(refreshes()).toEqual([]);

    // 20 s left, inside the margin (a fifth of 120 s): due.
    f.clock.advance(10_000);
    const [fromA, fromB] = await Promise.all([a.sun.current(), b.sun.current()]);
    expect(refreshes()).toHaveLength(1);
    expect(refreshes()[0]).toMatchObject({ ok: true });
    expect(fromA).not.toBe(first.token);
    expect(fromB).toBe(fromA);
    expect((await authTest(fromA!)).team_id).toBe(SUN);
    const stored = await f.store.getInstallation({ isEnterpriseInstall: false, teamId: SUN });
    expect(stored?.bot?.token).toBe(fromA);
    expect(stored?.bot?.refreshToken).not.toBe(first.refreshToken);
    expect(stored?.bot?.refreshedAt).toBe(f.clock());
    expect(stored?.bot?.expiresAt).toBe(Math.floor(f.clock() / 1000) + LIFETIME_S);

    // A third instance, started later, reads the stored token and asks Slack nothing.
    const c = instance(await f.open(), f, 'c');
    expect(await c.sun.current()).toBe(fromA);
    expect(await Promise.all([a.sun.current(), b.sun.current()])).toEqual([fromA, fromA]);
    expect(refreshes()).toHaveLength(1);
    // Nothing of either token in any log line.
    for (const line of [...a.logger.lines, ...b.logger.lines, ...c.logger.lines]) {
      expect(line).not.toContain('xoxe');
    }
    expect(a.logger.lines.concat(b.logger.lines).filter((l) => l.includes('refreshed a workspace'))).toHaveLength(1);
  });

  it('an expired token at rest, with calls racing on both instances and Slack saying token_expired: one refresh, everyone on the new token', async () => {
    const f = await fresh();
    const first = await installed(f);
    const [a, b] = [instance(f.store, f, 'a'), instance(await f.open(), f, 'b')];
    await Promise.all([a.sun.current(), b.sun.current()]);
    f.clock.advance(10 * 60_000); // nobody called for ten minutes: long expired
    expect((await authTest(first.token).catch((e: { data?: { error?: string } }) => e.data)) as { error?: string }).toMatchObject({
      error: 'token_expired',
    });
    const answers = await Promise.all([a.sun.expired(first.token), b.sun.expired(first.token), a.sun.current(), b.sun.current()]);
    expect(new Set(answers).size).toBe(1);
    expect(answers[0]).not.toBe(first.token);
    expect(refreshes()).toEqual([expect.objectContaining({ ok: true })]);
    // And again a lifetime later: the next refresh from the new refresh token, once.
    f.clock.advance(LIFETIME_S * 1000);
    const again = await Promise.all([a.sun.current(), b.sun.current()]);
    expect(again[0]).toBe(again[1]);
    expect(again[0]).not.toBe(answers[0]);
    expect(refreshes().map((r) => r.ok)).toEqual([true, true]);
  });

  it("Slack's clock ahead of the app's: a token the app thinks fresh is refreshed when Slack calls it expired, once", async () => {
    const f = await fresh();
    // Slack's clock 90 s ahead: to Slack, the token expires 90 s before the app expects it to.
    const first = await installed(f, 90_000);
    const [a, b] = [instance(f.store, f, 'a'), instance(await f.open(), f, 'b')];
    f.clock.advance(40_000); // the app: 80 s left, not due; Slack: 10 s past expiry
    expect(await a.sun.current()).toBe(first.token);
    const [fromA, fromB] = await Promise.all([a.sun.expired(first.token), b.sun.expired(first.token)]);
    expect(fromA).toBe(fromB);
    expect((await authTest(fromA!)).team_id).toBe(SUN);
    expect(refreshes()).toEqual([expect.objectContaining({ ok: true })]);
    // A late `token_expired` for the old token (a call that was in flight) refreshes nothing more.
    expect(await b.sun.expired(first.token)).toBe(fromA);
    expect(refreshes()).toHaveLength(1);
  });

  it('Slack refusing the refresh token: the old token is kept while it works, the log names the workspace only, and it is not asked again at once', async () => {
    const f = await fresh();
    const first = await installed(f);
    // Someone else (another deployment with the same app credentials) spent the refresh token.
    await createSlackWebClient('', 'poster', { apiUrl: fake!.apiUrl, logger: memoryLogger('error') }).oauth.v2.access({
      client_id: fake!.oauth.clientId,
      client_secret: fake!.oauth.clientSecret,
      grant_type: 'refresh_token',
      refresh_token: first.refreshToken,
    });
    const a = instance(f.store, f, 'a');
    f.clock.advance((LIFETIME_S - 10) * 1000);
    expect(await a.sun.current()).toBe(first.token);
    expect(await a.sun.current()).toBe(first.token);
    expect(refreshes().map((r) => r.error ?? 'ok')).toEqual(['ok', 'invalid_refresh_token']);
    const refused = a.logger.lines.filter((l) => l.includes('Slack refused to refresh'));
    expect(refused).toHaveLength(1);
    expect(refused[0]).toContain(SUN);
    expect(refused[0]).toContain('invalid_refresh_token');
    for (const line of a.logger.lines) expect(line).not.toContain(first.refreshToken);
  });
}

describe('token rotation across instances (SQLite)', () => {
  contract(sqliteHarness());
});

if (!TEST_DATABASE_URL) it.skip(PG_SKIPPED, () => {});
describe.skipIf(!TEST_DATABASE_URL)('token rotation across instances (PostgreSQL)', () => {
  contract(postgresHarness(TEST_DATABASE_URL ?? ''));
});
