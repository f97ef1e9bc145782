/** Bolt's InstallationStore over the real store (SQLite, and PostgreSQL with TEST_DATABASE_URL), as Bolt's InstallProvider uses it. */
import { randomBytes } from 'node:crypto';
import type { Installation } from '@slack/bolt';
import { InstallProvider } from '@slack/oauth';
import { describe, expect, it } from 'vitest';
import { KeyRing } from '../../../src/crypto/key-ring.js';
import { installationStore } from '../../../src/slack/install/installation-store.js';
import { PG_SKIPPED, TEST_DATABASE_URL } from '../../helpers/pg.js';
import { type Harness, postgresHarness, sqliteHarness } from '../../store/harness.js';

const unique = () => randomBytes(6).toString('hex');

/** What Bolt's OAuth redirect builds for a workspace install (oauth.v2.access + auth.test), token rotation on. */
function teamInstallation(teamId: string): Installation<'v2', false> {
  const u = unique();
  return {
    team: { id: teamId, name: 'Sunrise Care' },
    enterprise: undefined,
    user: { id: 'U0INSTALLER', token: undefined, scopes: undefined },
    bot: {
      token: `xoxb-${teamId}-${u}`,
      refreshToken: `xoxe-1-${teamId}-${u}`,
      expiresAt: 1_900_000_000,
      scopes: ['commands', 'chat:write', 'users:read'],
      id: 'B0BOT',
      userId: 'U0BOT',
    },
    tokenType: 'bot',
    isEnterpriseInstall: false,
    appId: 'A0APP',
    authVersion: 'v2',
    metadata: 'from the install page',
  };
}

/** An org-wide install on an Enterprise Grid org: no team, keyed by the enterprise. */
function orgInstallation(enterpriseId: string): Installation<'v2', true> {
  return {
    team: undefined,
    enterprise: { id: enterpriseId, name: 'Care Group' },
    user: { id: 'W0ADMIN', token: `xoxp-${enterpriseId}-${unique()}`, scopes: ['identity.basic'] },
    bot: { token: `xoxb-${enterpriseId}-${unique()}`, scopes: ['commands'], id: 'B0ORG', userId: 'U0ORGBOT' },
    tokenType: 'bot',
    isEnterpriseInstall: true,
    enterpriseUrl: 'https://care-group.enterprise.slack.com/',
    appId: 'A0APP',
    authVersion: 'v2',
  };
}

/** Bolt's own authorize over our store (the path every request takes in multi-workspace mode). */
const provider = (store: ReturnType<typeof installationStore>) =>
  new InstallProvider({ clientId: '1.2', clientSecret: 'client-secret', stateSecret: 'state-secret', installationStore: store });

function contract(h: Harness) {
  const fresh = () => h.fresh({ keyRing: new KeyRing([randomBytes(32)]) });

  it('stores a workspace install and gives it back to Bolt, which authorizes requests from that team with its bot token', async () => {
    const f = await fresh();
    const store = installationStore(f.store);
    const installed = teamInstallation('T0SUN');
    await store.storeInstallation(installed);

    expect(await store.fetchInstallation({ isEnterpriseInstall: false, teamId: 'T0SUN', enterpriseId: undefined })).toEqual(installed);
    const auth = await provider(store).authorize({ isEnterpriseInstall: false, teamId: 'T0SUN', enterpriseId: undefined });
    expect(auth).toMatchObject({ teamId: 'T0SUN', botToken: installed.bot?.token, botId: 'B0BOT', botUserId: 'U0BOT' });
  });

  it('keys an org-wide install by its enterprise: a request from any workspace of the org finds it', async () => {
    const f = await fresh();
    const store = installationStore(f.store);
    const installed = orgInstallation('E0GRID');
    await store.storeInstallation(installed);

    expect(await store.fetchInstallation({ isEnterpriseInstall: true, enterpriseId: 'E0GRID', teamId: undefined })).toEqual(installed);
    const auth = await provider(store).authorize({ isEnterpriseInstall: true, enterpriseId: 'E0GRID', teamId: 'T0ANY' as unknown as undefined });
    expect(auth).toMatchObject({ enterpriseId: 'E0GRID', botToken: installed.bot?.token, userToken: installed.user.token });
    // Not a workspace install of a team called E0GRID.
    await expect(store.fetchInstallation({ isEnterpriseInstall: false, teamId: 'E0GRID', enterpriseId: undefined })).rejects.toThrow(
      'No Slack installation for workspace E0GRID',
    );
  });

  it('throws for a team that never installed, and Bolt refuses it with an AuthorizationError naming no token', async () => {
    const f = await fresh();
    const store = installationStore(f.store);
    await store.storeInstallation(teamInstallation('T0SUN'));
    await expect(store.fetchInstallation({ isEnterpriseInstall: false, teamId: 'T0OTHER', enterpriseId: undefined })).rejects.toThrow(
      'No Slack installation for workspace T0OTHER',
    );
    await expect(provider(store).authorize({ isEnterpriseInstall: false, teamId: 'T0OTHER', enterpriseId: undefined })).rejects.toMatchObject({
      code: 'slack_oauth_installer_authorization_error',
    });
  });

  it('deletes an install (uninstall), after which Bolt no longer finds it; deleting again is no error', async () => {
    const f = await fresh();
    const store = installationStore(f.store);
    await store.storeInstallation(teamInstallation('T0SUN'));
    await store.storeInstallation(orgInstallation('E0GRID'));
    await store.deleteInstallation?.({ isEnterpriseInstall: false, teamId: 'T0SUN', enterpriseId: undefined });
    await store.deleteInstallation?.({ isEnterpriseInstall: false, teamId: 'T0SUN', enterpriseId: undefined });
    await expect(store.fetchInstallation({ isEnterpriseInstall: false, teamId: 'T0SUN', enterpriseId: undefined })).rejects.toThrow();
    expect((await store.fetchInstallation({ isEnterpriseInstall: true, enterpriseId: 'E0GRID', teamId: undefined })).bot?.id).toBe('B0ORG');
  });

  it('replaces the tokens when Bolt stores refreshed ones for the same team', async () => {
    const f = await fresh();
    const store = installationStore(f.store);
    const first = teamInstallation('T0SUN');
    await store.storeInstallation(first);
    const refreshed = { ...first, bot: { ...first.bot!, token: 'xoxe.xoxb-refreshed', refreshToken: 'xoxe-1-new', expiresAt: 1_900_043_200 } };
    await store.storeInstallation(refreshed);
    expect((await store.fetchInstallation({ isEnterpriseInstall: false, teamId: 'T0SUN', enterpriseId: undefined })).bot).toEqual(refreshed.bot);
  });

  it('with token rotation, gives Bolt the token kept fresh and no refresh token or expiry, so Bolt never refreshes on its own', async () => {
    const f = await fresh();
    const asked: string[] = [];
    const store = installationStore(f.store, {
      freshBotToken: async (row) => {
        asked.push(row.teamId ?? '');
        return 'xoxe.xoxb-kept-fresh';
      },
    });
    // Ten minutes left: inside Bolt's own 2-hour window, where its authorize would refresh on every request.
    const installed = { ...teamInstallation('T0SUN') };
    installed.bot = { ...installed.bot!, expiresAt: Math.floor(Date.now() / 1000) + 600 };
    await store.storeInstallation(installed);
    const fetched = await store.fetchInstallation({ isEnterpriseInstall: false, teamId: 'T0SUN', enterpriseId: undefined });
    expect(fetched.bot).toEqual({ ...installed.bot, token: 'xoxe.xoxb-kept-fresh', refreshToken: undefined, expiresAt: undefined });
    const auth = await provider(store).authorize({ isEnterpriseInstall: false, teamId: 'T0SUN', enterpriseId: undefined });
    expect(auth.botToken).toBe('xoxe.xoxb-kept-fresh');
    expect(auth.botRefreshToken).toBeUndefined();
    expect(asked).toEqual(['T0SUN', 'T0SUN']);
    // Without a refresh token (no rotation), the stored token as it is.
    await store.storeInstallation(orgInstallation('E0GRID'));
    expect((await store.fetchInstallation({ isEnterpriseInstall: true, enterpriseId: 'E0GRID', teamId: undefined })).bot?.token).toMatch(/^xoxb-E0GRID/);
    expect(asked).toHaveLength(2);
  });

  it("keeps the expiry Bolt stamps with the machine's clock as the same time left on the app's clock", async () => {
    const f = await fresh();
    const appAhead = 3 * 3600_000;
    const store = installationStore(f.store, { now: () => Date.now() + appAhead });
    const installed = { ...teamInstallation('T0SUN') };
    const boltNow = Math.floor(Date.now() / 1000);
    installed.bot = { ...installed.bot!, expiresAt: boltNow + 120 };
    await store.storeInstallation(installed);
    const stored = (await f.store.getInstallation({ isEnterpriseInstall: false, teamId: 'T0SUN' }))!.bot!.expiresAt!;
    expect(stored - (boltNow + appAhead / 1000 + 120)).toBeGreaterThanOrEqual(-2);
    expect(stored - (boltNow + appAhead / 1000 + 120)).toBeLessThanOrEqual(0);
  });

  it('refuses a user-token-only grant, keeping the bot install it would have replaced', async () => {
    const f = await fresh();
    const store = installationStore(f.store);
    const installed = teamInstallation('T0SUN');
    await store.storeInstallation(installed);
    const userOnly: Installation = { ...installed, bot: undefined, tokenType: undefined, user: { id: 'U2', token: 'xoxp-user-only', scopes: ['search:read'] } };
    const error = await store.storeInstallation(userOnly).then(
      () => null,
      (e: unknown) => e as Error,
    );
    expect(error?.message).toBe('The installation for workspace T0SUN has no bot token; this app needs its bot (install it with the bot scopes).');
    expect(error?.message).not.toContain('xoxp');
    expect((await store.fetchInstallation({ isEnterpriseInstall: false, teamId: 'T0SUN', enterpriseId: undefined })).bot?.token).toBe(installed.bot?.token);
  });

  it('keeps every token encrypted at rest: the raw row and a dump of the database hold none of them', async () => {
    const f = await fresh();
    const store = installationStore(f.store);
    const team = teamInstallation('T0SUN');
    const org = orgInstallation('E0GRID');
    await store.storeInstallation(team);
    await store.storeInstallation(org);
    const secrets = [team.bot!.token, team.bot!.refreshToken!, org.bot!.token, org.user.token!];

    const [row] = await h.raw(f, 'SELECT bot_token, bot_refresh_token, team_id FROM slack_installations WHERE team_id = ?', ['T0SUN']);
    expect(row?.team_id).toBe('T0SUN');
    expect(String(row?.bot_token)).not.toContain('xoxb');
    expect(String(row?.bot_refresh_token)).not.toContain('xoxe');
    const dump = (await h.dump(f)).toString('latin1');
    for (const secret of secrets) expect(dump).not.toContain(secret);
  });
}

describe('Slack installation store (SQLite)', () => {
  contract(sqliteHarness());
});

if (!TEST_DATABASE_URL) it.skip(PG_SKIPPED, () => {});
describe.skipIf(!TEST_DATABASE_URL)('Slack installation store (PostgreSQL)', () => {
  contract(postgresHarness(TEST_DATABASE_URL ?? ''));
});
