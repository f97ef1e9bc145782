import { afterEach, describe, expect, it } from 'vitest';
import { careCommand, type MultiHarness, startMultiHarness } from './multi-harness.js';

/**
 * "Add to Slack" run again by someone else. Many workspaces let any member
 * install an approved app; the first installer counts as a Care Actions admin,
 * so installing again must renew the tokens and nothing else: Oliver, a plain
 * member of Brightwater Care, installs again after Amelia did.
 */
const CARE = 'T0CARE';
let h: MultiHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const NOT_ADMIN = /Only this workspace's Care Actions admins can do that/;

describe('someone else installing the app again', () => {
  it('renews the token only: Oliver is not made an admin, it is audited, Amelia is told once, and the new token is the one used', async () => {
    h = await startMultiHarness();
    const care = h.fake.workspace(CARE);
    const [amelia, oliver] = [care.user('amelia')!.id, care.user('oliver')!.id];
    expect((await h.install(CARE, 'amelia')).status).toBe(200);
    await h.connectDirectly(CARE, 1, amelia);
    await care.waitFor(() => care.dms(amelia).some((m) => /connect your care system/i.test(m.text ?? '')), { message: "the installer's DM" });
    const firstToken = care.botToken;

    const again = await h.install(CARE, 'oliver');
    expect(again.status).toBe(200);

    // Oliver cannot administer the workspace: no admins, no settings, no care connection.
    expect(await careCommand(h, CARE, 'oliver', `admins add <@${oliver}>`)).toMatch(NOT_ADMIN);
    expect(await careCommand(h, CARE, 'oliver', 'settings web-link https://oliver.example/actions/{id}')).toMatch(NOT_ADMIN);
    expect(await careCommand(h, CARE, 'oliver', 'settings timezone America/New_York')).toMatch(NOT_ADMIN);
    const admins = await careCommand(h, CARE, 'oliver', 'admins');
    expect(admins).toMatch(/@amelia \(first installed Care Actions\)/);
    expect(admins).not.toContain('@oliver');
    const connect = await h.team(CARE).sendPayload('block_actions', 'connect_care_open', oliver, {
      type: 'block_actions',
      user: { id: oliver, username: 'oliver', name: 'oliver', team_id: CARE },
      team: { id: CARE, domain: 'brightwater' },
      api_app_id: 'A0CAREAPP',
      trigger_id: care.issueTrigger(oliver),
      container: { type: 'view', view_id: 'V0HOME' },
      actions: [{ type: 'button', action_id: 'connect_care_open', block_id: 'connect_care_home', text: { type: 'plain_text', text: 'Reconnect' } }],
    });
    expect(connect.acked).toBe(true);
    const modalText = () => {
      const open = care.openModal(oliver);
      return open ? care.visibleText(open.view) : '';
    };
    await care.waitFor(() => !/Loading/.test(modalText()) && modalText(), { message: "Oliver's connect form" });
    expect(modalText()).toMatch(/Only an admin of this workspace can connect it/);
    expect((await h.app.store.getCareConnection(CARE))?.connectedBy).toBe(amelia);

    // The audit log says who installed again, and that no permission changed.
    const audit = await h.app.store.listAudit({ teamId: CARE, verb: 'workspace.reinstalled' });
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ userId: oliver, details: { installer: amelia, scopesAdded: [], scopesRemoved: [] } });

    // Amelia is told, once; Oliver is told what it did and did not do.
    const told = () => care.dms(amelia).filter((m) => /installed Care Actions again/.test(m.text ?? ''));
    await care.waitFor(() => told().length === 1, { message: "Amelia's DM" });
    await care.waitFor(() => care.dms(oliver).some((m) => /did not change/.test(m.text ?? '')), { message: "Oliver's DM" });
    expect(care.visibleText(told()[0]!, { viewer: 'amelia' })).toMatch(/@oliver installed Care Actions again.*did not make them a Care Actions admin/s);
    expect(care.dms(amelia).filter((m) => /connect your care system/i.test(m.text ?? ''))).toHaveLength(1);

    // The new token is stored and used: with the old one revoked, Amelia's Home tab still opens.
    const stored = await h.app.store.getInstallation({ isEnterpriseInstall: false, teamId: CARE });
    expect(stored?.bot?.token).toBe(care.botToken);
    expect(stored?.bot?.token).not.toBe(firstToken);
    expect(stored?.user.id).toBe(amelia);
    const revoked = await fetch(`${h.fake.apiUrl}auth.revoke`, { method: 'POST', headers: { authorization: `Bearer ${firstToken}` } });
    expect(((await revoked.json()) as { revoked?: boolean }).revoked).toBe(true);
    await h.team(CARE).openHome('amelia');
    const home = await care.waitFor(() => care.home(amelia), { message: "Amelia's Home tab" });
    expect(care.visibleText(home, { viewer: 'amelia' })).toMatch(/Reconnect/);
    expect(told()).toHaveLength(1);
  });

  it('after an uninstall nothing of the workspace is kept but its anonymous audit: installing afresh is a first install, by whoever does it', async () => {
    h = await startMultiHarness();
    const care = h.fake.workspace(CARE);
    const [amelia, oliver] = [care.user('amelia')!.id, care.user('oliver')!.id];
    expect((await h.install(CARE, 'amelia')).status).toBe(200);
    const answers = await h.team(CARE).uninstall(CARE);
    expect(answers.every((a) => a.acked)).toBe(true);
    await care.waitFor(async () => (await h!.app.store.getInstallation({ isEnterpriseInstall: false, teamId: CARE })) === null, { message: 'the uninstall' });
    // The uninstall's audit names nobody: Amelia is not remembered as the installer.
    const uninstalls = await h.app.store.listAudit({ teamId: CARE, verb: 'workspace.uninstalled' });
    expect(uninstalls.length).toBeGreaterThanOrEqual(1);
    expect(JSON.stringify(uninstalls)).not.toContain(amelia);

    expect((await h.install(CARE, 'oliver')).status).toBe(200);
    expect(await careCommand(h, CARE, 'oliver', 'admins')).toMatch(/@oliver \(first installed Care Actions\)/);
    expect(await h.app.store.listAudit({ teamId: CARE, verb: 'workspace.reinstalled' })).toEqual([]);
    // Oliver gets the first installer's "what next" DM; Amelia is told nothing.
    await care.waitFor(() => care.dms(oliver).some((m) => /connect your care system/i.test(m.text ?? '')), { message: "Oliver's DM" });
    expect(care.dms(amelia).some((m) => /installed Care Actions again/.test(m.text ?? ''))).toBe(false);
  });
});
