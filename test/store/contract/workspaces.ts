/** Contract: Slack installations, care connections and workspace settings, with tokens and secrets encrypted at rest. */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { KeyRing } from '../../../src/crypto/key-ring.js';
import type { CareConnectionInput, SlackInstallationInput } from '../../../src/store/index.js';
import { isStoreError } from '../../../src/store/index.js';
import type { Harness } from '../harness.js';

const ring = (...keys: Buffer[]) => new KeyRing(keys);
const newKey = () => randomBytes(32);
const unique = () => randomBytes(6).toString('hex');

/** A workspace install with every field Bolt may give, each secret distinctive enough to find in a dump. */
function teamInstall(teamId: string, over: Partial<SlackInstallationInput> = {}): SlackInstallationInput {
  const u = unique();
  return {
    isEnterpriseInstall: false,
    teamId,
    teamName: `Team ${teamId}`,
    enterpriseId: null,
    appId: 'A0APP',
    authVersion: 'v2',
    bot: {
      token: `xoxb-${teamId}-bot-${u}`,
      refreshToken: `xoxe-1-${teamId}-refresh-${u}`,
      expiresAt: 1_900_000_000,
      scopes: ['commands', 'chat:write', 'users:read.email'],
      id: `B${teamId}`,
      userId: `U${teamId}BOT`,
    },
    user: { id: 'U0INSTALLER', token: `xoxp-${teamId}-user-${u}`, refreshToken: null, expiresAt: null, scopes: ['identity.basic'] },
    incomingWebhook: {
      url: `https://hooks.slack.example/services/${teamId}/${u}`,
      channel: '#care',
      channelId: 'C0CARE',
      configurationUrl: 'https://x.slack.example/cfg',
    },
    metadata: 'from the install page',
    ...over,
  };
}

function orgInstall(enterpriseId: string): SlackInstallationInput {
  return {
    isEnterpriseInstall: true,
    enterpriseId,
    enterpriseName: 'Care Group Org',
    enterpriseUrl: 'https://care-group.enterprise.slack.example/',
    appId: 'A0APP',
    bot: { token: `xoxb-${enterpriseId}-org-${unique()}`, scopes: ['commands'], id: 'B0ORG', userId: 'U0ORGBOT' },
    user: { id: 'W0ORGADMIN' },
  };
}

function connection(workspaceId: string, over: Partial<CareConnectionInput> = {}): CareConnectionInput {
  return {
    workspaceId,
    baseUrl: 'https://api.carehq.example/v1',
    accountId: `acct-${workspaceId}`,
    apiKey: `key-${workspaceId}-${unique()}`,
    apiSecret: `secret-${workspaceId}-${unique()}`,
    connectedBy: 'U0ADMIN',
    ...over,
  };
}

async function storeError(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(isStoreError(error), String(error)).toBe(true);
  return error as { code: string; message: string };
}

export function workspacesContract(h: Harness): void {
  describe('Slack installations', () => {
    it('keeps every field of a workspace install and gives it back by team', async () => {
      const { store, clock } = await h.fresh({ keyRing: ring(newKey()) });
      const input = teamInstall('T1');
      const { installation: saved, before } = await store.saveInstallation(input);
      const expected = {
        ...input,
        bot: { ...input.bot!, refreshedAt: null },
        teamName: 'Team T1',
        enterpriseName: null,
        enterpriseUrl: null,
        installedAt: clock(),
        updatedAt: clock(),
      };
      expect(saved).toEqual(expected);
      expect(before).toBeNull();
      expect(await store.getInstallation({ isEnterpriseInstall: false, teamId: 'T1' })).toEqual(expected);
      expect(await store.getInstallation({ isEnterpriseInstall: false, teamId: 'T2' })).toBeNull();
      expect(await store.getInstallation({ isEnterpriseInstall: true, enterpriseId: 'T1' })).toBeNull();
    });

    it('fills what Bolt leaves out with null, and keeps an installation without a bot', async () => {
      const { store } = await h.fresh({ keyRing: ring(newKey()) });
      const { installation: saved } = await store.saveInstallation({
        isEnterpriseInstall: false,
        teamId: 'T9',
        user: { id: 'U9', token: 'xoxp-only-user', scopes: [] },
      });
      expect(saved).toMatchObject({
        teamName: null,
        appId: null,
        authVersion: 'v2',
        bot: null,
        user: { id: 'U9', token: 'xoxp-only-user', refreshToken: null, expiresAt: null, scopes: [] },
        incomingWebhook: null,
        metadata: null,
      });
    });

    it('keeps an Enterprise Grid org install by enterprise, apart from a workspace install inside the same org', async () => {
      const { store } = await h.fresh({ keyRing: ring(newKey()) });
      const { installation: org } = await store.saveInstallation(orgInstall('E1'));
      const { installation: inOrg } = await store.saveInstallation(teamInstall('T5', { enterpriseId: 'E1', enterpriseName: 'Care Group Org' }));
      expect(org).toMatchObject({ isEnterpriseInstall: true, enterpriseId: 'E1', teamId: null, teamName: null, bot: { id: 'B0ORG' } });
      // As Bolt asks for an org install: isEnterpriseInstall with the enterprise (and the team the event came from).
      expect(await store.getInstallation({ isEnterpriseInstall: true, enterpriseId: 'E1', teamId: 'T7' })).toEqual(org);
      expect(await store.getInstallation({ isEnterpriseInstall: false, enterpriseId: 'E1', teamId: 'T5' })).toEqual(inOrg);
      expect(await store.getInstallation({ isEnterpriseInstall: false, enterpriseId: 'E1', teamId: 'T7' })).toBeNull();

      expect(await store.deleteInstallation({ isEnterpriseInstall: true, enterpriseId: 'E1' })).toBe(true);
      expect(await store.getInstallation({ isEnterpriseInstall: true, enterpriseId: 'E1' })).toBeNull();
      expect(await store.getInstallation({ isEnterpriseInstall: false, teamId: 'T5' })).toEqual(inOrg);
    });

    it('someone else installing again replaces the bot token and scopes only: the first installer and their own grant stay', async () => {
      const { store, clock } = await h.fresh({ keyRing: ring(newKey()) });
      const { installation: first } = await store.saveInstallation(teamInstall('T1'));
      clock.advance(3_600_000);
      const bot = { token: 'xoxb-T1-again', scopes: ['commands', 'chat:write', 'im:write'], id: 'BT1', userId: 'UT1BOT' };
      const again = teamInstall('T1', { bot, user: { id: 'U0OTHER', token: 'xoxp-other' }, incomingWebhook: null, metadata: 'other' });
      const { installation: saved, before } = await store.saveInstallation(again);
      expect(before).toEqual({ installerUserId: 'U0INSTALLER', botScopes: ['commands', 'chat:write', 'users:read.email'], updatedAt: first.installedAt });
      expect(saved).toEqual({
        ...first,
        bot: { ...bot, refreshToken: null, expiresAt: null, refreshedAt: null },
        updatedAt: clock(),
      });
      expect(saved.user).toEqual(first.user);
      expect(saved.incomingWebhook).toEqual(first.incomingWebhook);
      expect(await store.getInstallation({ isEnterpriseInstall: false, teamId: 'T1' })).toEqual(saved);
    });

    it('the first installer installing again replaces their own grant too, and stays the installer', async () => {
      const { store, clock } = await h.fresh({ keyRing: ring(newKey()) });
      const { installation: first } = await store.saveInstallation(teamInstall('T1'));
      clock.advance(60_000);
      const again = teamInstall('T1', { incomingWebhook: null });
      const { installation: saved, before } = await store.saveInstallation(again);
      expect(before?.installerUserId).toBe('U0INSTALLER');
      expect(saved.installedAt).toBe(first.installedAt);
      expect(saved.bot?.token).toBe(again.bot?.token);
      expect(saved.user).toEqual({ ...again.user, refreshToken: null, expiresAt: null });
      expect(saved.incomingWebhook).toBeNull();
    });

    it('saved afresh after an uninstall, keeps who had first installed it when told, without the new person’s own grant', async () => {
      const { store } = await h.fresh({ keyRing: ring(newKey()) });
      const again = teamInstall('T1', { user: { id: 'U0OTHER', token: 'xoxp-other', scopes: ['identity.basic'] } });
      const { installation: saved, before } = await store.saveInstallation(again, { installerIfNew: 'U0INSTALLER' });
      expect(before).toBeNull();
      expect(saved.user).toEqual({ id: 'U0INSTALLER', token: null, refreshToken: null, expiresAt: null, scopes: null });
      expect(saved.incomingWebhook).toBeNull();
      expect(saved.bot?.token).toBe(again.bot?.token);
      // With one stored, the stored installer counts and `installerIfNew` changes nothing.
      const { installation: next } = await store.saveInstallation(teamInstall('T1', { user: { id: 'U0THIRD' } }), { installerIfNew: 'U0THIRD' });
      expect(next.user.id).toBe('U0INSTALLER');
    });

    it('forgets an installation and its tokens on delete; false when there was none', async () => {
      const { store } = await h.fresh({ keyRing: ring(newKey()) });
      await store.saveInstallation(teamInstall('T1'));
      expect(await store.deleteInstallation({ isEnterpriseInstall: false, teamId: 'T1' })).toBe(true);
      expect(await store.deleteInstallation({ isEnterpriseInstall: false, teamId: 'T1' })).toBe(false);
      expect(await store.getInstallation({ isEnterpriseInstall: false, teamId: 'T1' })).toBeNull();
      expect(await store.deleteInstallation({ isEnterpriseInstall: true })).toBe(false);
    });

    it('stores a refreshed bot token only over the refresh token it came from (compare-and-set), sealed, keeping the install as it was', async () => {
      const fresh = await h.fresh({ keyRing: ring(newKey()) });
      const { store, clock } = fresh;
      const T1 = { isEnterpriseInstall: false, teamId: 'T1' } as const;
      const input = teamInstall('T1');
      const { installation: installed } = await store.saveInstallation(input);
      clock.advance(90_000);
      const next = { token: `xoxe.xoxb-1-T1-${unique()}`, refreshToken: `xoxe-1-T1-${unique()}`, expiresAt: 1_900_000_500 };
      const rotated = await store.rotateBotToken(T1, { refreshToken: input.bot!.refreshToken! }, next);
      expect(rotated).toEqual({
        ...installed,
        bot: { ...installed.bot!, token: next.token, refreshToken: next.refreshToken, expiresAt: next.expiresAt, refreshedAt: clock() },
      });
      expect(rotated!.updatedAt).toBe(installed.updatedAt);
      expect(await store.getInstallation(T1)).toEqual(rotated);

      // From the refresh token already used (another instance's stale read): nothing changes.
      const stale = { token: 'xoxe.xoxb-1-stale', refreshToken: 'xoxe-1-stale', expiresAt: 1_900_000_900 };
      expect(await store.rotateBotToken(T1, { refreshToken: input.bot!.refreshToken! }, stale)).toBeNull();
      expect(await store.rotateBotToken({ isEnterpriseInstall: false, teamId: 'T404' }, { refreshToken: next.refreshToken }, stale)).toBeNull();
      expect((await store.getInstallation(T1))?.bot?.token).toBe(next.token);

      // Two instances storing their refresh of the same token at once: exactly one is stored.
      const other = await fresh.open();
      const mine = { token: 'xoxe.xoxb-1-mine', refreshToken: `xoxe-1-mine-${unique()}`, expiresAt: 1_900_001_000 };
      const theirs = { token: 'xoxe.xoxb-1-theirs', refreshToken: `xoxe-1-theirs-${unique()}`, expiresAt: 1_900_001_000 };
      const race = await Promise.all([
        store.rotateBotToken(T1, { refreshToken: next.refreshToken }, mine),
        other.rotateBotToken(T1, { refreshToken: next.refreshToken }, theirs),
      ]);
      expect(race.filter((r) => r !== null)).toHaveLength(1);
      expect((await store.getInstallation(T1))?.bot?.token).toBe((race[0] ?? race[1])!.bot!.token);

      const dump = await h.dump(fresh);
      for (const secret of [next.token, next.refreshToken, mine.refreshToken, theirs.refreshToken])
        expect(dump.includes(Buffer.from(secret)), secret).toBe(false);

      // Installing again gives a token that was not refreshed; the refresh token before it no longer counts.
      const { installation: again } = await store.saveInstallation(teamInstall('T1'));
      expect(again.bot?.refreshedAt).toBeNull();
      const current = (race[0] ?? race[1])!.bot!.refreshToken!;
      expect(await store.rotateBotToken(T1, { refreshToken: current }, stale)).toBeNull();
    });

    it.each([
      ['a workspace install without a team', { isEnterpriseInstall: false, teamId: null }],
      ['an org install without an enterprise', { isEnterpriseInstall: true, enterpriseId: null }],
      ['a bot without a token', { bot: { token: '', scopes: [], id: 'B1', userId: 'U1' } }],
      ['a scope with a comma', { bot: { token: 'xoxb-1', scopes: ['a,b'], id: 'B1', userId: 'U1' } }],
    ])('refuses %s and keeps nothing', async (_label, bad) => {
      const { store } = await h.fresh({ keyRing: ring(newKey()) });
      expect((await storeError(store.saveInstallation(teamInstall('T1', bad as Partial<SlackInstallationInput>)))).code).toBe('invalid-input');
      expect(await store.listWorkspaces()).toEqual([]);
    });
  });

  describe('care connections and workspace settings', () => {
    it('connects, reconnects and disconnects a workspace’s care account', async () => {
      const { store, clock } = await h.fresh({ keyRing: ring(newKey()) });
      const input = connection('T1');
      const saved = await store.setCareConnection(input);
      expect(saved).toEqual({ ...input, connectedAt: clock() });
      expect(await store.getCareConnection('T1')).toEqual(saved);
      expect(await store.getCareConnection('T2')).toBeNull();

      clock.advance(60_000);
      const again = connection('T1', { baseUrl: 'https://api.carehq.dev/v1', connectedBy: 'U0OTHER' });
      expect(await store.setCareConnection(again)).toEqual({ ...again, connectedAt: clock() });
      expect(await store.deleteCareConnection('T1')).toBe(true);
      expect(await store.deleteCareConnection('T1')).toBe(false);
      expect(await store.getCareConnection('T1')).toBeNull();
    });

    it.each([
      ['an address that is not http(s)', { baseUrl: 'ftp://care.example' }],
      ['an address that is not a URL', { baseUrl: 'care system' }],
      ['an empty API secret', { apiSecret: '' }],
      ['an empty account Id', { accountId: ' ' }],
    ])('refuses %s', async (_label, bad) => {
      const { store } = await h.fresh({ keyRing: ring(newKey()) });
      expect((await storeError(store.setCareConnection(connection('T1', bad)))).code).toBe('invalid-input');
      expect(await store.getCareConnection('T1')).toBeNull();
    });

    it('changes only the settings named; null clears one', async () => {
      const { store, clock } = await h.fresh();
      expect(await store.getWorkspaceSettings('T1')).toBeNull();
      const first = await store.setWorkspaceSettings('T1', { timeZone: 'Europe/Dublin' }, 'U0ADMIN');
      expect(first).toEqual({
        workspaceId: 'T1',
        timeZone: 'Europe/Dublin',
        careWebUrl: null,
        adminUserIds: [],
        retentionDays: null,
        updatedBy: 'U0ADMIN',
        updatedAt: clock(),
      });
      clock.advance(1000);
      await store.setWorkspaceSettings('T1', { adminUserIds: ['U1', 'W2', 'U1'] }, 'U0ADMIN');
      const third = await store.setWorkspaceSettings('T1', { careWebUrl: 'https://care.example/actions/{id}' }, 'U0OTHER');
      expect(third).toEqual({
        workspaceId: 'T1',
        timeZone: 'Europe/Dublin',
        careWebUrl: 'https://care.example/actions/{id}',
        adminUserIds: ['U1', 'W2'],
        retentionDays: null,
        updatedBy: 'U0OTHER',
        updatedAt: clock(),
      });
      const cleared = await store.setWorkspaceSettings('T1', { timeZone: null, adminUserIds: [] }, 'U0OTHER');
      expect(cleared).toMatchObject({ timeZone: null, careWebUrl: 'https://care.example/actions/{id}', adminUserIds: [] });
      expect(await store.getWorkspaceSettings('T1')).toEqual(cleared);
      expect(await store.getWorkspaceSettings('T2')).toBeNull();
    });

    it('keeps a retention of days, 0 (at once) or off, and null for the default', async () => {
      const { store } = await h.fresh();
      expect(await store.setWorkspaceSettings('T1', { retentionDays: 0 }, 'U0ADMIN')).toMatchObject({ retentionDays: 0 });
      expect(await store.setWorkspaceSettings('T1', { timeZone: 'Europe/Dublin' }, 'U0ADMIN')).toMatchObject({ retentionDays: 0, timeZone: 'Europe/Dublin' });
      expect(await store.setWorkspaceSettings('T1', { retentionDays: 'off' }, 'U0ADMIN')).toMatchObject({ retentionDays: 'off' });
      expect(await store.getWorkspaceSettings('T1')).toMatchObject({ retentionDays: 'off' });
      expect(await store.setWorkspaceSettings('T1', { retentionDays: 45 }, 'U0ADMIN')).toMatchObject({ retentionDays: 45 });
      expect(await store.setWorkspaceSettings('T1', { retentionDays: null }, 'U0ADMIN')).toMatchObject({ retentionDays: null, timeZone: 'Europe/Dublin' });
    });

    it.each([
      ['an unknown time zone', { timeZone: 'Mars/Olympus' }],
      ['a link that is not http(s)', { careWebUrl: 'javascript:alert(1)' }],
      ['an admin that is not a Slack user Id', { adminUserIds: ['U1', 'amelia'] }],
      ['a negative retention', { retentionDays: -1 }],
      ['a retention of part of a day', { retentionDays: 1.5 }],
    ])('refuses settings with %s', async (_label, bad) => {
      const { store } = await h.fresh();
      expect((await storeError(store.setWorkspaceSettings('T1', bad, 'U0ADMIN'))).code).toBe('invalid-input');
      expect(await store.getWorkspaceSettings('T1')).toBeNull();
    });

    it('lists the installed workspaces with their care account, without any secret', async () => {
      const { store, clock } = await h.fresh({ keyRing: ring(newKey()) });
      await store.saveInstallation(teamInstall('T2'));
      await store.saveInstallation(orgInstall('E1'));
      const { installation: t1 } = await store.saveInstallation(teamInstall('T1'));
      clock.advance(1000);
      const care = await store.setCareConnection(connection('T1'));
      await store.setCareConnection(connection('T9'));
      const list = await store.listWorkspaces();
      expect(list).toEqual([
        {
          workspaceId: 'E1',
          isEnterpriseInstall: true,
          teamId: null,
          enterpriseId: 'E1',
          name: 'Care Group Org',
          installedAt: t1.installedAt,
          updatedAt: t1.installedAt,
          settingsUpdatedAt: null,
          care: null,
        },
        {
          workspaceId: 'T1',
          isEnterpriseInstall: false,
          teamId: 'T1',
          enterpriseId: null,
          name: 'Team T1',
          installedAt: t1.installedAt,
          updatedAt: t1.updatedAt,
          settingsUpdatedAt: null,
          care: { baseUrl: care.baseUrl, accountId: care.accountId, connectedAt: clock() },
        },
        {
          workspaceId: 'T2',
          isEnterpriseInstall: false,
          teamId: 'T2',
          enterpriseId: null,
          name: 'Team T2',
          installedAt: t1.installedAt,
          updatedAt: t1.installedAt,
          settingsUpdatedAt: null,
          care: null,
        },
      ]);
      // A workspace's settings saved: the listing says when (a composed workspace is built again from new rows).
      clock.advance(1000);
      await store.setWorkspaceSettings('T1', { timeZone: 'Europe/London' }, 'U0ADMIN');
      expect((await store.listWorkspaces()).find((w) => w.workspaceId === 'T1')?.settingsUpdatedAt).toBe(clock());
      expect(JSON.stringify(list)).not.toMatch(/xox|secret-|key-T/);
    });
  });

  describe('secrets at rest', () => {
    it('keeps no token or secret in clear anywhere in the database', async () => {
      const fresh = await h.fresh({ keyRing: ring(newKey()) });
      const { store } = fresh;
      const installs = [teamInstall('T1'), teamInstall('T2'), orgInstall('E1')];
      for (const i of installs) await store.saveInstallation(i);
      const connections = [connection('T1'), connection('E1')];
      for (const c of connections) await store.setCareConnection(c);
      await store.setWorkspaceSettings('T1', { timeZone: 'Europe/London' }, 'U0ADMIN');

      const secrets = [
        ...installs.flatMap((i) => [i.bot?.token, i.bot?.refreshToken, i.user.token, i.incomingWebhook?.url]),
        ...connections.flatMap((c) => [c.apiKey, c.apiSecret]),
      ].filter((s): s is string => typeof s === 'string');
      expect(secrets.length).toBe(13);
      const dump = await h.dump(fresh);
      // The dump does hold the rows (so the search looks in the right place)...
      expect(dump.includes(Buffer.from('acct-T1'))).toBe(true);
      expect(dump.includes(Buffer.from('U0INSTALLER'))).toBe(true);
      // ...but no secret, in clear or merely base64-encoded.
      for (const secret of secrets) {
        expect(dump.includes(Buffer.from(secret)), secret).toBe(false);
        expect(dump.includes(Buffer.from(Buffer.from(secret).toString('base64').slice(0, 16))), `${secret} as base64`).toBe(false);
      }
      const [row] = await h.raw(fresh, 'SELECT bot_token, incoming_webhook FROM slack_installations WHERE installation_key = ?', ['team:T1']);
      expect(String(row?.bot_token)).toMatch(/^v1\./);
      expect(String(row?.incoming_webhook)).toMatch(/^v1\./);
    });

    it('without a key ring keeps no secret at all, but settings and the list still work', async () => {
      const { store } = await h.fresh();
      const missing = await storeError(store.saveInstallation(teamInstall('T1')));
      expect(missing.code).toBe('encryption-key-missing');
      expect(missing.message).toContain('ENCRYPTION_KEY');
      expect((await storeError(store.setCareConnection(connection('T1')))).code).toBe('encryption-key-missing');
      expect((await storeError(store.reencryptAll())).code).toBe('encryption-key-missing');
      expect(await store.listWorkspaces()).toEqual([]);
      expect(await store.setWorkspaceSettings('T1', { timeZone: 'Europe/London' }, null)).toMatchObject({ timeZone: 'Europe/London' });
    });

    it('another instance with the same keys reads them; one without the key says so clearly, naming no secret', async () => {
      const key = newKey();
      const { store, open } = await h.fresh({ keyRing: ring(key) });
      const { installation: install } = await store.saveInstallation(teamInstall('T1'));
      const care = await store.setCareConnection(connection('T1'));
      const same = await open({ keyRing: ring(newKey(), key) });
      expect(await same.getInstallation({ isEnterpriseInstall: false, teamId: 'T1' })).toEqual(install);
      expect(await same.getCareConnection('T1')).toEqual(care);

      const stranger = await open({ keyRing: ring(newKey()) });
      const error = await storeError(stranger.getCareConnection('T1'));
      expect(error.code).toBe('secret-unreadable');
      expect(error.message).toMatch(/care_connections T1 .*not in ENCRYPTION_KEY/);
      expect(error.message).not.toContain(care.apiSecret);
      expect(error.message).not.toContain(care.apiKey);
      expect((await storeError(stranger.getInstallation({ isEnterpriseInstall: false, teamId: 'T1' }))).code).toBe('secret-unreadable');
    });

    it('refuses a stored value that was changed, or copied from another workspace’s row', async () => {
      const fresh = await h.fresh({ keyRing: ring(newKey()) });
      const { store } = fresh;
      await store.setCareConnection(connection('T1'));
      await store.setCareConnection(connection('T2'));
      // Copy T2's sealed secret over T1's: the box is intact but bound to T2's row.
      await h.raw(fresh, 'UPDATE care_connections SET api_secret = (SELECT api_secret FROM care_connections WHERE workspace_id = ?) WHERE workspace_id = ?', [
        'T2',
        'T1',
      ]);
      expect((await storeError(store.getCareConnection('T1'))).message).toMatch(/api_secret of care_connections T1 cannot be read: .*integrity check/);

      const [row] = await h.raw(fresh, 'SELECT api_key FROM care_connections WHERE workspace_id = ?', ['T2']);
      const parts = String(row?.api_key).split('.');
      parts[3] = (parts[3]![0] === 'A' ? 'B' : 'A') + parts[3]!.slice(1);
      await h.raw(fresh, 'UPDATE care_connections SET api_key = ? WHERE workspace_id = ?', [parts.join('.'), 'T2']);
      expect((await storeError(store.getCareConnection('T2'))).code).toBe('secret-unreadable');
    });

    it('re-encrypts every row under an older key with the first key: counts, idempotent, then the old key can go', async () => {
      const [oldKey, newer] = [newKey(), newKey()];
      const fresh = await h.fresh({ keyRing: ring(oldKey) });
      const installs = [
        (await fresh.store.saveInstallation(teamInstall('T1'))).installation,
        (await fresh.store.saveInstallation(orgInstall('E1'))).installation,
      ];
      const care = await fresh.store.setCareConnection(connection('T1'));
      const rotated = ring(newer, oldKey);
      const store = await fresh.open({ keyRing: rotated });
      // A row saved after the new key was put first is already current.
      const { installation: t2 } = await store.saveInstallation(teamInstall('T2'));

      const result = await store.reencryptAll();
      expect(result).toEqual({
        primaryKeyId: rotated.primary.id,
        tables: {
          slack_installations: { rows: 3, rewritten: 2, current: 1, changedMeanwhile: 0, failed: 0 },
          care_connections: { rows: 1, rewritten: 1, current: 0, changedMeanwhile: 0, failed: 0 },
        },
        failures: [],
      });
      const values = await h.raw(fresh, 'SELECT bot_token, bot_refresh_token, user_token, incoming_webhook FROM slack_installations');
      const boxes = values.flatMap((r) => Object.values(r)).filter((v) => v !== null) as string[];
      expect(boxes.length).toBeGreaterThan(4);
      for (const box of boxes) expect(box.split('.')[1]).toBe(rotated.primary.id);

      const again = await store.reencryptAll();
      expect(again.tables.slack_installations).toEqual({ rows: 3, rewritten: 0, current: 3, changedMeanwhile: 0, failed: 0 });
      expect(again.tables.care_connections).toEqual({ rows: 1, rewritten: 0, current: 1, changedMeanwhile: 0, failed: 0 });

      const onlyNew = await fresh.open({ keyRing: ring(newer) });
      expect(await onlyNew.getInstallation({ isEnterpriseInstall: false, teamId: 'T1' })).toEqual(installs[0]);
      expect(await onlyNew.getInstallation({ isEnterpriseInstall: true, enterpriseId: 'E1' })).toEqual(installs[1]);
      expect(await onlyNew.getInstallation({ isEnterpriseInstall: false, teamId: 'T2' })).toEqual(t2);
      expect(await onlyNew.getCareConnection('T1')).toEqual(care);
    });

    it('reports rows no key opens and rewrites the others', async () => {
      const [lost, kept, newer] = [newKey(), newKey(), newKey()];
      const fresh = await h.fresh({ keyRing: ring(lost) });
      const secret = (await fresh.store.setCareConnection(connection('T1'))).apiSecret;
      const other = await fresh.open({ keyRing: ring(kept) });
      await other.setCareConnection(connection('T2'));

      const result = await other.reencryptAll(ring(newer, kept));
      expect(result.tables.care_connections).toEqual({ rows: 2, rewritten: 1, current: 0, changedMeanwhile: 0, failed: 1 });
      expect(result.failures).toEqual([{ table: 'care_connections', row: 'T1', reason: expect.stringContaining('not in ENCRYPTION_KEY') }]);
      expect(JSON.stringify(result)).not.toContain(secret);
      expect((await (await fresh.open({ keyRing: ring(newer) })).getCareConnection('T2'))?.accountId).toBe('acct-T2');
    });
  });
}
