/**
 * Workspace set-up as a service: settings and admins, the care account and
 * forgetting an uninstalled workspace, each with its audit row, on a real
 * SQLite store (the connect form's check against the sandbox is covered by
 * test/slack/connect-care.test.ts).
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { KeyRing } from '../../src/crypto/key-ring.js';
import { createLogger } from '../../src/logging/logger.js';
import { careHostPolicy } from '../../src/services/admin/care-hosts.js';
import { createWorkspaceSetup } from '../../src/deployment/workspace-setup.js';
import type { OpenedStore, SlackInstallationInput } from '../../src/store/index.js';
import { sqliteHarness } from '../store/harness.js';

const harness = sqliteHarness();

function install(teamId: string, installer: string): SlackInstallationInput {
  return {
    isEnterpriseInstall: false,
    teamId,
    teamName: `Team ${teamId}`,
    enterpriseId: null,
    appId: 'A0APP',
    authVersion: 'v2',
    bot: { token: `xoxb-${teamId}-${randomBytes(4).toString('hex')}`, refreshToken: null, expiresAt: null, scopes: ['commands'], id: 'B1', userId: 'U0BOT' },
    user: { id: installer, token: null, refreshToken: null, expiresAt: null, scopes: null },
    incomingWebhook: null,
    metadata: null,
  };
}

async function world(): Promise<{ store: OpenedStore; setup: ReturnType<typeof createWorkspaceSetup> }> {
  const { store } = await harness.fresh({ keyRing: new KeyRing([randomBytes(32)]) });
  const setup = createWorkspaceSetup({
    store,
    careClientFor: () => {
      throw new Error('no care system in this test');
    },
    careHosts: careHostPolicy(),
    logger: createLogger({ level: 'silent' }),
  });
  return { store, setup };
}

describe('workspace set-up', () => {
  it('changes settings and admins with an audit row each, in that workspace only', async () => {
    const { store, setup } = await world();
    await store.saveInstallation(install('T1', 'U0FIRST'));
    expect(await setup.installer('T1')).toBe('U0FIRST');
    expect(await setup.installer('T12')).toBeNull();

    await setup.changeSettings('T1', 'U0FIRST', { timeZone: 'Europe/Dublin', adminUserIds: ['U0ADDED'] }, { timeZone: 'Europe/Dublin', adminAdded: 'U0ADDED' });
    expect(await setup.settings('T1')).toMatchObject({ timeZone: 'Europe/Dublin', adminUserIds: ['U0ADDED'] });
    expect(await setup.settings('T12')).toBeNull();
    expect(await store.listAudit({ verb: 'workspace.settings' })).toMatchObject([
      { teamId: 'T1', userId: 'U0FIRST', details: { timeZone: 'Europe/Dublin', adminAdded: 'U0ADDED' } },
    ]);
  });

  it('disconnects a connected care account with an audit row, and says when there was none', async () => {
    const { store, setup } = await world();
    expect(await setup.disconnectCare('T1', 'U0ADMIN')).toBeNull();
    await store.setCareConnection({
      workspaceId: 'T1',
      baseUrl: 'https://care.example/v1',
      accountId: 'acct-1',
      apiKey: 'k',
      apiSecret: 's',
      connectedBy: 'U0ADMIN',
    });
    expect(await setup.careAccount('T1')).toEqual({ baseUrl: 'https://care.example/v1', accountId: 'acct-1' });
    expect(await setup.disconnectCare('T1', 'U0ADMIN')).toEqual({ baseUrl: 'https://care.example/v1', accountId: 'acct-1' });
    expect(await setup.careAccount('T1')).toBeNull();
    expect(await store.listAudit({ verb: 'care.disconnect' })).toMatchObject([
      { teamId: 'T1', userId: 'U0ADMIN', details: { baseUrl: 'https://care.example/v1', accountId: 'acct-1' } },
    ]);
  });

  it('forgets an uninstalled workspace: its installation and care account go, its audit row names nobody and counts what was deleted', async () => {
    const { store, setup } = await world();
    await store.saveInstallation(install('T1', 'U0FIRST'));
    await store.saveInstallation(install('T12', 'U0OTHER'));
    await store.setCareConnection({
      workspaceId: 'T1',
      baseUrl: 'https://care.example/v1',
      accountId: 'acct-1',
      apiKey: 'k',
      apiSecret: 's',
      connectedBy: 'U0FIRST',
    });

    expect(await setup.forget({ isEnterpriseInstall: false, teamId: 'T1' }, 'app_uninstalled')).toBe('T1');
    expect(await store.getInstallation({ isEnterpriseInstall: false, teamId: 'T1' })).toBeNull();
    expect(await store.getCareConnection('T1')).toBeNull();
    expect(await store.getInstallation({ isEnterpriseInstall: false, teamId: 'T12' })).not.toBeNull();
    expect(await store.listAudit({ verb: 'workspace.uninstalled' })).toMatchObject([
      { teamId: 'T1', userId: '', details: { why: 'app_uninstalled', deleted: { care_connections: 1, slack_installations: 1 } } },
    ]);
    expect(JSON.stringify(await store.listAudit({ teamId: 'T1' }))).not.toContain('U0FIRST');
    expect(await setup.forget({ isEnterpriseInstall: false }, 'app_uninstalled')).toBeNull();
  });
});
