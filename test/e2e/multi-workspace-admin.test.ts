import { randomBytes } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { KeyRing } from '../../src/crypto/key-ring.js';
import { careCommand, installBoth, type MultiHarness, startMultiHarness } from './multi-harness.js';

const CARE = 'T0CARE';
const SUN = 'T0SUN';
const opened: MultiHarness[] = [];
afterEach(async () => {
  for (const h of opened.reverse()) await h.close();
  opened.length = 0;
});

async function start(options: Parameters<typeof startMultiHarness>[0] = {}) {
  const h = await startMultiHarness(options);
  opened.push(h);
  return h;
}

/** Both providers installed and connected (multi-harness.ts). */
async function twoProviders(options: Parameters<typeof startMultiHarness>[0] = {}) {
  const h = await start(options);
  await installBoth(h);
  return h;
}

const say = careCommand;

const dump = async (dir: string) => Buffer.concat(await Promise.all((await readdir(dir)).map((name) => readFile(join(dir, name)))));

describe('a workspace uninstalled', () => {
  it('forgets its tokens and care secrets, stops its jobs, keeps its audit; the other workspace goes on', async () => {
    const h = await twoProviders();
    expect((await h.app.jobs.tick('changes-poll')).ran).toBe(2);

    const answers = await h.team(SUN).uninstall(SUN);
    expect(answers.every((a) => a.acked)).toBe(true);
    await h.fake.waitFor(async () => (await h.app.store.getInstallation({ isEnterpriseInstall: false, teamId: SUN })) === null);
    expect(await h.app.store.getCareConnection(SUN)).toBeNull();
    expect((await h.app.store.listAudit({ teamId: SUN, verb: 'workspace.uninstalled' })).length).toBeGreaterThanOrEqual(1);
    expect(await h.app.registry.connected()).toEqual([CARE]);
    expect(await h.app.jobs.tick('changes-poll')).toMatchObject({ ran: 1, failed: 0 });
    expect(await say(h, CARE, 'amelia', 'whoami')).not.toMatch(/not connected/);
  });
});

describe('secrets at rest', () => {
  it('keeps no token or care secret readable in the database files, and rotating the key keeps every workspace working', async () => {
    const oldKey = randomBytes(32);
    const h = await twoProviders({ keyRing: new KeyRing([oldKey]) });
    const secrets = [h.fake.workspace(CARE).botToken!, h.fake.workspace(SUN).botToken!, ...h.sandbox.accounts.flatMap((a) => [a.apiKey, a.apiSecret])];
    const files = await dump(h.dataDir);
    for (const secret of secrets) expect(files.includes(Buffer.from(secret)), secret.slice(0, 6)).toBe(false);

    // Rotate: a new key first, the old one still opening; rewrite every row; then an instance with the new key alone.
    const newKey = randomBytes(32);
    const result = await h.app.store.reencryptAll(new KeyRing([newKey, oldKey]));
    expect(result.tables.slack_installations.rewritten + result.tables.care_connections.rewritten).toBe(4);
    const next = await start({ beside: h, dataDir: h.dataDir, keyRing: new KeyRing([newKey]) });
    for (const [teamId, user] of [
      [CARE, 'amelia'],
      [SUN, 'erin'],
    ] as const)
      expect(await say(next, teamId, user, 'whoami')).not.toMatch(/not connected|could not/i);
    expect(await next.app.jobs.tick('changes-poll')).toMatchObject({ ran: 2, failed: 0 });
  });
});

describe("a workspace's own admins and settings", () => {
  it('lets the installer add admins, refuses others, and applies a time zone and a web link to that workspace only', async () => {
    const h = await twoProviders();
    expect(await say(h, CARE, 'amelia', 'admins')).toMatch(/@amelia.*installed Care Actions/s);
    expect(await say(h, CARE, 'sophie', 'settings timezone America/New_York')).toMatch(/Only this workspace's Care Actions admins/);
    expect(await say(h, CARE, 'amelia', 'admins add <@U0SOPHIE>')).toMatch(/is now a Care Actions admin here/);
    expect(await say(h, CARE, 'sophie', 'settings timezone Mars/Olympus')).toMatch(/not a time zone I know/);
    expect(await say(h, CARE, 'sophie', 'settings timezone America/New_York')).toMatch(/time zone is now America\/New_York/);
    expect(await say(h, CARE, 'sophie', 'settings web-link https://care.example/actions/{id}')).toMatch(/Cards now link/);
    expect(await say(h, CARE, 'amelia', 'settings')).toMatch(/America\/New_York.*care\.example/s);
    expect(await say(h, CARE, 'amelia', 'settings')).toMatch(/edited down to a neutral line 30 days after the action is completed \(the default\)/);
    expect(await say(h, CARE, 'sophie', 'settings retention 0')).toMatch(/now edited down to a neutral line as soon as the action is completed/);
    expect(await say(h, CARE, 'sophie', 'settings retention off')).toMatch(/now kept forever/);
    expect(await say(h, CARE, 'amelia', 'settings')).toMatch(/are kept forever\. Change it/);
    expect((await h.app.store.getWorkspaceSettings(CARE))?.retentionDays).toBe('off');
    expect(await say(h, SUN, 'erin', 'settings')).toMatch(/30 days after the action is completed \(the default\)/);

    const care = await h.app.registry.get(CARE);
    const sun = await h.app.registry.get(SUN);
    expect(care.state === 'ready' && care.workspace.deps.timezone).toBe('America/New_York');
    expect(sun.state === 'ready' && sun.workspace.deps.timezone).toBe('Europe/London');
    expect(await say(h, SUN, 'erin', 'settings')).not.toContain('care.example');
    expect(await say(h, CARE, 'amelia', 'admins remove <@U0SOPHIE>')).toMatch(/no longer/);
    expect(await say(h, CARE, 'sophie', 'settings timezone Europe/London')).toMatch(/Only this workspace's Care Actions admins/);
  });
});

describe('Slack admins and owners of another organisation, and guests', () => {
  it("are not this workspace's admins, whatever their own flags say", async () => {
    const h = await twoProviders();
    const care = h.fake.workspace(CARE);
    // Slack's view of two people: Priya joined through Slack Connect from an agency she administers; Sophie is a guest.
    Object.assign(care.state.users.find((u) => u.id === 'U0PRIYA')!, { team_id: 'T0AGENCY', is_admin: true, is_owner: true });
    Object.assign(care.state.users.find((u) => u.id === 'U0SOPHIE')!, { is_admin: true, is_restricted: true });
    for (const who of ['priya', 'sophie']) {
      expect(await say(h, CARE, who, 'admins add <@U0OLIVER>')).toMatch(/Only this workspace's Care Actions admins/);
      expect(await say(h, CARE, who, 'settings timezone America/New_York')).toMatch(/Only this workspace's Care Actions admins/);
    }
    expect((await h.app.store.getWorkspaceSettings(CARE))?.adminUserIds ?? []).toEqual([]);
  });
});

describe('a workspace whose care system fails', () => {
  it('is backed off without delaying the other, and its admins are told once, then once when it works again', async () => {
    const h = await twoProviders();
    const sun = h.sandbox.accounts[1]!;
    const setKey = (apiSecret: string) =>
      fetch(`${sun.controlsUrl}/keys`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ apiKey: sun.apiKey, apiSecret }),
      });
    expect((await setKey('revoked-by-the-provider')).ok).toBe(true);

    for (let i = 0; i < 3; i++) {
      expect((await h.app.jobs.runOnce('changes-poll', SUN, { force: true })).failed).toBe(true);
      expect((await h.app.jobs.runOnce('changes-poll', CARE)).failed).toBeFalsy();
    }
    // The next scheduled tick skips the failing workspace (backed off) and runs the other.
    expect(await h.app.jobs.tick('changes-poll')).toMatchObject({ ran: 1, skipped: 1 });

    const team = h.fake.workspace(SUN);
    const erin = team.user('erin')!.id;
    const told = () => team.dms(erin).filter((m) => /cannot work with your care system/.test(m.text ?? ''));
    await team.waitFor(() => told().length === 1, { message: 'the trouble DM' });
    expect(told()[0]!.text).toMatch(/reconnects it from the app's \*Home\* tab/);
    expect(
      h.fake
        .workspace(CARE)
        .dms(h.fake.workspace(CARE).user('amelia')!.id)
        .some((m) => /cannot work/.test(m.text ?? '')),
    ).toBe(false);

    expect((await setKey(sun.apiSecret)).ok).toBe(true);
    expect((await h.app.jobs.runOnce('changes-poll', SUN, { force: true })).failed).toBeFalsy();
    await team.waitFor(() => team.dms(erin).some((m) => /works with your care system again/.test(m.text ?? '')), { message: 'the recovered DM' });
    expect(told()).toHaveLength(1);
  });
});
