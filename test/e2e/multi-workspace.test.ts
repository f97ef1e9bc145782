import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCareClient } from '../../src/care/index.js';
import { CHANGES_CURSOR } from '../../src/services/admin/poll-cursors.js';
import { SHOW_TASKS_BUTTON } from '../../src/slack/views/show-tasks.js';
import { careCommand, installBoth, type MultiHarness, OAUTH, startMultiHarness } from './multi-harness.js';

let h: MultiHarness | undefined;
const multi = () => {
  if (!h) throw new Error('no harness');
  return h;
};
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const CARE = 'T0CARE';
const SUN = 'T0SUN';

const say = (teamId: string, user: string, line: string) => careCommand(multi(), teamId, user, line);

const homeText = async (teamId: string, user: string, ready: (t: string) => boolean) => {
  const team = h!.fake.workspace(teamId);
  await h!.team(teamId).openHome(user);
  return team.waitFor(
    () => {
      const view = team.home(team.user(user)!.id);
      const text = view ? team.visibleText(view, { viewer: user }) : '';
      return ready(text) ? text : undefined;
    },
    { message: `${user}'s Home tab in ${teamId}` },
  );
};

/** An action made in a care account's own web app (the sandbox's per-account controls). */
async function webAction(account: number, input: { task: string; due: Date; assigned_to?: string; urgent?: boolean }) {
  const res = await fetch(`${h!.sandbox.accounts[account - 1]!.controlsUrl}/actions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...input, due: input.due.toISOString() }),
  });
  if (!res.ok) throw new Error(`web action: ${res.status} ${await res.text()}`);
  return (await res.json()) as { _id: string };
}

/** Link a Slack person to the first care user of an account (where linking is not under test). */
async function linkToFirstCareUser(teamId: string, user: string, account: number): Promise<string> {
  const a = h!.sandbox.accounts[account - 1]!;
  const care = createCareClient({ baseUrl: h!.sandbox.url, accountId: a.accountId, apiKey: a.apiKey, apiSecret: a.apiSecret });
  const page = await care.users.list({ attributes: ['_id', 'email'], per_page: 1 });
  await care.close();
  const careUserId = page.items[0]!._id;
  const slackUserId = h!.fake.workspace(teamId).user(user)!.id;
  await h!.app.store.upsertLink({ teamId, slackUserId, careUserId, method: 'admin', linkedBy: slackUserId });
  return careUserId;
}

describe('installing from Slack and connecting a care account', () => {
  it('installs through the OAuth redirect, DMs the installer, answers every /care with what an admin must do, then works once connected', async () => {
    h = await startMultiHarness();
    const installed = await h.install(CARE, 'amelia');
    expect(installed.status).toBe(200);
    expect(installed.body).toContain('Installed in Brightwater Care');
    const row = await h.app.store.getInstallation({ isEnterpriseInstall: false, teamId: CARE });
    expect(row?.bot?.token).toBe(h.fake.workspace(CARE).botToken);

    const care = h.fake.workspace(CARE);
    const ameliaId = care.user('amelia')!.id;
    const dm = await care.waitFor(() => care.dms(ameliaId).find((m) => /connect your care system/i.test(m.text ?? '')), { message: 'the installer DM' });
    expect(dm.text).toMatch(/Home/);

    for (const line of ['mine', 'due today', 'find dressing', 'new']) {
      expect(await say(CARE, 'sophie', line)).toMatch(/not connected to your care system yet.*Home/s);
    }
    expect(await homeText(CARE, 'sophie', (t) => t.includes('admin needs to connect'))).not.toContain('Connect your care system');

    // The installer connects the care system from the Home tab's form.
    await homeText(CARE, 'amelia', (t) => t.includes('Connect your care system'));
    await h.team(CARE).clickButton('amelia', { home: true, text: 'Connect your care system' });
    await care.waitFor(() => care.openModal(ameliaId)?.view.callback_id === 'connect_care');
    const account = h.sandbox.accounts[0]!;
    await h
      .team(CARE)
      .modal('amelia')
      .fill('API address', 'Another address')
      .fill('Other address', h.sandbox.url)
      .fill('Account Id', account.accountId)
      .fill('API key', account.apiKey)
      .fill('API secret', account.apiSecret)
      .submit();
    await care.waitFor(() => (care.openModal(ameliaId) ? /every permission/.test(care.visibleText(care.openModal(ameliaId)!.view)) : false), {
      message: 'the connect result',
    });
    expect((await h.app.registry.get(CARE)).state).toBe('ready');

    await linkToFirstCareUser(CARE, 'sophie', 1);
    expect(await say(CARE, 'sophie', 'mine')).not.toMatch(/not connected/);
    // The Home tab now shows the admin the connection, with Reconnect and Disconnect.
    const home = await homeText(CARE, 'amelia', (t) => t.includes('Disconnect'));
    expect(home).toContain(account.accountId);
    // A fresh workspace has nobody linked yet: the Team view names each carer as the care system does.
    expect(home).toMatch(/By carer/);
    expect(home).not.toContain('someone not linked to Slack');
  });
});

describe("the app's own install pages", () => {
  beforeEach(async () => {
    h = await startMultiHarness();
  });
  it('refuse a forged or replayed state with a page saying what to do, storing nothing more and asking Slack nothing', async () => {
    const h = multi();
    const page = await fetch(`${h.base}/slack/install`);
    const html = await page.text();
    const state = decodeURIComponent(/[?&;]state=([^&"']+)/.exec(html)?.[1] ?? '');
    const cookie = (page.headers.get('set-cookie') ?? '').split(';')[0]!;
    const code = async () => {
      const url = new URL(h.fake.authorizeUrl);
      for (const [k, v] of Object.entries({ client_id: OAUTH.clientId, scope: 'commands', state, team: SUN, user: 'U0ERIN' })) url.searchParams.set(k, v);
      const res = await fetch(url, { redirect: 'manual' });
      return new URL(res.headers.get('location')!).searchParams.get('code')!;
    };
    const back = (query: string, withCookie: boolean) =>
      fetch(`${h.base}/slack/oauth_redirect?${query}`, { headers: withCookie ? { cookie } : {} }).then(async (r) => ({
        status: r.status,
        text: await r.text(),
      }));
    const exchanges = () => h.fake.calls('oauth.v2.access').length;

    const forged = await back(`code=${await code()}&state=forged.state.value`, true);
    expect(forged.status).toBe(400);
    expect(forged.text).toContain('this install link has expired or was opened in another browser');
    expect(exchanges()).toBe(0);
    expect(await h.app.store.getInstallation({ isEnterpriseInstall: false, teamId: SUN })).toBeNull();

    expect((await back(`code=${await code()}&state=${encodeURIComponent(state)}`, true)).status).toBe(200);
    const first = await h.app.store.getInstallation({ isEnterpriseInstall: false, teamId: SUN });
    expect(first?.bot?.token).toBeTruthy();
    const replay = await back(`code=${await code()}&state=${encodeURIComponent(state)}`, true);
    expect(replay.status).toBe(400);
    expect(exchanges()).toBe(1);
    expect((await h.app.store.getInstallation({ isEnterpriseInstall: false, teamId: SUN }))?.updatedAt).toBe(first?.updatedAt);
  });
});

describe('two care providers on one deployment', () => {
  async function twoProviders() {
    h = await startMultiHarness();
    await installBoth(h);
    const due = new Date(Date.now() + 2 * 3600_000);
    const careUser = await linkToFirstCareUser(CARE, 'amelia', 1);
    const sunUser = await linkToFirstCareUser(SUN, 'erin', 2);
    await webAction(1, { task: 'Brightwater only: check the lift log', due, assigned_to: careUser, urgent: true });
    await webAction(2, { task: 'Sunrise only: order dressings', due, assigned_to: sunUser, urgent: true });
    return { careUser, sunUser };
  }

  it('keeps commands, Home tabs, digests, polls and logs of each to its own care account', async () => {
    await twoProviders();
    const h = multi();
    const mineCare = await say(CARE, 'amelia', 'mine');
    const mineSun = await say(SUN, 'erin', 'mine');
    expect(mineCare).toContain('Brightwater only');
    expect(mineCare).not.toContain('Sunrise only');
    expect(mineSun).toContain('Sunrise only');
    expect(mineSun).not.toContain('Brightwater only');
    expect(await say(CARE, 'amelia', 'find Sunrise')).not.toContain('Sunrise only');
    expect(await say(SUN, 'erin', 'find Brightwater')).not.toContain('Brightwater only');

    expect(await homeText(CARE, 'amelia', (t) => t.includes('Brightwater only'))).not.toContain('Sunrise only');
    expect(await homeText(SUN, 'erin', (t) => t.includes('Sunrise only'))).not.toContain('Brightwater only');

    // Each workspace's channel gets its own digest.
    for (const [teamId, user] of [
      [CARE, 'amelia'],
      [SUN, 'erin'],
    ] as const) {
      expect(await say(teamId, user, 'digest here 08:00 daily --show-tasks')).toMatch(/digest/i);
      // #care-team is public: task text is shown there once an admin confirms (the button under the reply).
      const team = h!.fake.workspace(teamId);
      await h!.team(teamId).clickButton(user, { ephemeral: true, channel: '#care-team', text: SHOW_TASKS_BUTTON });
      await team.waitFor(() => team.ephemerals(user).some((e) => team.visibleText(e).includes('Task text is now shown')), {
        message: `task text shown in ${teamId}`,
      });
      await say(teamId, user, 'digest now');
    }
    for (const teamId of [CARE, SUN]) {
      expect((await h!.app.jobs.runOnce('changes-poll', teamId)).ran).toBe(true);
    }
    const channelText = (teamId: string) => {
      const team = h!.fake.workspace(teamId);
      const id = team.channel('care-team')!.id;
      return team
        .messages(id)
        .flatMap((m) => [m, ...(m.replies ?? [])])
        .map((m) => team.visibleText(m))
        .join('\n');
    };
    await h.fake.workspace(CARE).waitFor(() => channelText(CARE).includes('Brightwater only'), { message: 'the Brightwater digest' });
    await h.fake.workspace(SUN).waitFor(() => channelText(SUN).includes('Sunrise only'), { message: 'the Sunrise digest' });
    expect(channelText(CARE)).not.toContain('Sunrise');
    expect(channelText(SUN)).not.toContain('Brightwater');

    // Each poll has its own cursor; no log line carries either provider's task text or secrets.
    for (const teamId of [CARE, SUN]) expect(await h.app.store.getCursor(`${CHANGES_CURSOR}@${teamId}`)).not.toBeNull();
    expect(await h.app.store.getCursor(CHANGES_CURSOR)).toBeNull();
    const logs = h.logs.join('\n');
    for (const secret of ['Brightwater only', 'Sunrise only', h.sandbox.accounts[0]!.apiSecret, h.sandbox.accounts[1]!.apiSecret])
      expect(logs).not.toContain(secret);
    for (const teamId of [CARE, SUN]) expect(logs).not.toContain(h.fake.workspace(teamId).botToken!);
  });
});
