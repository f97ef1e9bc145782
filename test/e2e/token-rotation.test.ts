/**
 * Token rotation in a deployment serving many workspaces, one instance (SQLite): the Slack fake issues bot tokens
 * that expire 2 minutes after issue; one stepped clock moves the care system, Slack, the app and its leases
 * (`world.advance`), so minutes pass at once and the machine's clock never matters.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { careCommand, installBoth, linkFirstCareUser, type MultiHarness, seenByPeople, startMultiHarness, webActionIn } from './multi-harness.js';

const CARE = 'T0CARE';
const SUN = 'T0SUN';
const LIFETIME_S = 120;

let h: MultiHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function started(): Promise<MultiHarness> {
  h = await startMultiHarness({ steppedClock: true, tokenRotation: { expiresInSeconds: LIFETIME_S } });
  await installBoth(h);
  return h;
}

/** Slack's `token_expired` answers to the app, in a workspace. */
const expiredAnswers = (m: MultiHarness, teamId: string) =>
  m.fake
    .workspace(teamId)
    .calls()
    .filter((c) => c.result.error === 'token_expired').length;
const refreshes = (m: MultiHarness, teamId: string) => m.fake.workspace(teamId).tokenRefreshes();

/** The person opens the app's Home tab; resolves when it is published after `since` (a call with the bot token). */
async function homeOpened(m: MultiHarness, teamId: string, user: string): Promise<void> {
  const team = m.fake.workspace(teamId);
  const before = team.calls('views.publish').filter((c) => c.result.ok).length;
  await m.team(teamId).openHome(user);
  await team.waitFor(() => team.calls('views.publish').filter((c) => c.result.ok).length > before, { message: `${user}'s Home tab in ${teamId}` });
}

/** Nothing anyone can read, and no log line, tells of an expired token or a failure. */
function nobodySawTokenTrouble(m: MultiHarness) {
  for (const teamId of [CARE, SUN]) {
    const seen = seenByPeople(m.fake.workspace(teamId));
    expect(seen).not.toContain('token_expired');
    expect(seen).not.toContain('Something went wrong');
  }
  expect(m.logs.filter((l) => l.includes('token_expired') || l.includes('unhandled error'))).toEqual([]);
}

describe('token rotation (one instance)', () => {
  it("installs with an expiring token and its refresh token, stored sealed, and Bolt's own refresh never runs", async () => {
    const m = await started();
    const row = await m.app.store.getInstallation({ isEnterpriseInstall: false, teamId: CARE });
    expect(row?.bot?.token).toMatch(/^xoxe\.xoxb-/);
    expect(row?.bot?.refreshToken).toMatch(/^xoxe-1-/);
    const left = row!.bot!.expiresAt! * 1000 - m.world!.now();
    expect(left).toBeGreaterThan((LIFETIME_S - 3) * 1000);
    expect(left).toBeLessThanOrEqual(LIFETIME_S * 1000);
    // Bolt would refresh a token with less than 2 hours left on every request it authorises: it does not.
    for (const [teamId, user] of [
      [CARE, 'amelia'],
      [SUN, 'erin'],
    ] as const) {
      for (let i = 0; i < 3; i++) expect(await careCommand(m, teamId, user, 'whoami')).not.toMatch(/not connected/);
      await homeOpened(m, teamId, user);
    }
    expect(m.fake.tokenRefreshes('all')).toEqual([]);
    nobodySawTokenTrouble(m);
  });

  it("refreshes a workspace's token before it expires, once, and every client goes on with the new one", async () => {
    const m = await started();
    const first = (await m.app.store.getInstallation({ isEnterpriseInstall: false, teamId: CARE }))!.bot!.token;
    await m.world!.advance((LIFETIME_S - 20) * 1000); // 20 s left: less than a fifth of its life
    await homeOpened(m, CARE, 'amelia');
    expect(refreshes(m, CARE)).toEqual([expect.objectContaining({ ok: true })]);
    expect(refreshes(m, SUN)).toEqual([]);
    const stored = (await m.app.store.getInstallation({ isEnterpriseInstall: false, teamId: CARE }))!.bot!;
    expect(stored.token).not.toBe(first);
    // The old token has expired now; the Home tab, a command and Bolt's own client use the new one.
    await m.world!.advance(30_000);
    await homeOpened(m, CARE, 'amelia');
    expect(await careCommand(m, CARE, 'amelia', 'whoami')).not.toMatch(/not connected/);
    expect(refreshes(m, CARE)).toHaveLength(1);
    expect(expiredAnswers(m, CARE)).toBe(0);
    nobodySawTokenTrouble(m);
  });

  it('a workspace idle long past its token’s expiry: its scheduled work refreshes first, and the DM goes out', async () => {
    const m = await started();
    const carer = await linkFirstCareUser(m, CARE, 'amelia', 1);
    expect((await m.app.jobs.runOnce('changes-poll', CARE)).ran).toBe(true); // the app's first look
    await m.world!.advance(10 * 60_000);
    const action = await webActionIn(m, 1, { task: 'Check the bed rails', due: new Date(m.world!.now() + 3600_000), assigned_to: carer });
    expect((await m.app.jobs.runOnce('changes-poll', CARE)).ran).toBe(true);
    const team = m.fake.workspace(CARE);
    await team.waitFor(() => team.dms(team.user('amelia')!.id).find((d) => d.text.includes(`#${action.action_no}`)), { message: 'the assignment DM' });
    expect(refreshes(m, CARE)).toEqual([expect.objectContaining({ ok: true })]);
    expect(expiredAnswers(m, CARE)).toBe(0);
    nobodySawTokenTrouble(m);
  });

  it("an instance whose clock fell behind Slack's: Slack's token_expired is met with one refresh and a retry, and the person never sees it", async () => {
    const m = await started();
    await m.world!.advance(60_000);
    m.appSkewMs = -90_000; // the app's clock jumps 90 s back: it thinks the token has 150 s left, Slack 60 s
    await m.world!.advance(70_000); // Slack: expired 10 s ago; the app: 80 s left, not due
    for (const [teamId, user] of [
      [CARE, 'amelia'],
      [SUN, 'erin'],
    ] as const) {
      await homeOpened(m, teamId, user);
      expect(await careCommand(m, teamId, user, 'whoami')).not.toMatch(/not connected/);
      expect(expiredAnswers(m, teamId)).toBeGreaterThanOrEqual(1);
      expect(refreshes(m, teamId)).toEqual([expect.objectContaining({ ok: true })]);
    }
    nobodySawTokenTrouble(m);
  });
});
