/**
 * A single-workspace deployment runs its jobs through the same scheduler as a
 * deployment of many (a registry of one): when its care API key is revoked,
 * its changes poll is backed off and its admins are told once, not at every
 * tick; once the key works again, they are told once more. Through the real
 * sandbox over HTTP and the Slack fake, on the harness's one clock.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from './harness.js';
import { poll } from './fixtures/jobs-support.js';

const MINUTE = 60_000;

describe('a single workspace whose care API key is revoked', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ sandbox: { seed: 'empty' }, adminSlackUserIds: ['U0AMELIA', 'U0PRIYA'] });
  });
  afterAll(async () => h?.close());

  /** The key as the care system knows it: its real secret, or another (revoked: every signed request is refused). */
  const setSecret = (apiSecret: string) => h.control('keys', { apiKey: h.sandbox.credentials.apiKey, apiSecret });
  const later = (ms: number) => h.setTime(new Date(h.now().getTime() + ms));
  const troubleDms = (user: string) => h.fake.dms(user).filter((m) => /cannot work with your care system/.test(m.text ?? ''));
  const recoveredDms = (user: string) => h.fake.dms(user).filter((m) => /works with your care system again/.test(m.text ?? ''));

  it('tells its admins once what went wrong and what to do, backs the poll off, and tells them once when it works again', async () => {
    await poll(h); // the app's first look, with a key that works
    await setSecret('revoked-by-the-provider');

    // Four scheduled ticks, each past the previous one's back-off (at most 30 minutes): four failed polls.
    for (let i = 0; i < 4; i++) {
      expect(await h.app.jobs.tick('changes-poll')).toMatchObject({ ran: 1, failed: 1 });
      // The next tick a moment later skips the workspace: it is backed off.
      await later(5_000);
      expect(await h.app.jobs.tick('changes-poll')).toMatchObject({ ran: 0, skipped: 1 });
      await later(31 * MINUTE);
    }
    for (const admin of ['amelia', 'priya']) {
      await h.fake.waitFor(() => troubleDms(admin).length >= 1 || undefined, { message: `${admin}'s trouble DM` });
      expect(troubleDms(admin)).toHaveLength(1);
    }
    const told = troubleDms('amelia')[0]!.text ?? '';
    expect(told).toMatch(/cannot work with your care system since \d\d:\d\d on \w{3} \d{1,2} \w{3}: .+/); // what went wrong, and since when
    expect(told).toMatch(/401 unauthorized/); // the care API's own answer
    expect(told).toMatch(/whoever runs Care Actions sets the new key and secret \(CARE_API_KEY, CARE_API_SECRET\) and restarts it/); // what to do
    expect(told).not.toMatch(/Home\* tab/); // a single workspace has no connect card
    expect(troubleDms('sophie')).toHaveLength(0); // admins only

    await setSecret(h.sandbox.credentials.apiSecret);
    expect(await h.app.jobs.tick('changes-poll')).toMatchObject({ ran: 1, failed: 0 });
    for (let i = 0; i < 3; i++) {
      await later(MINUTE);
      expect(await h.app.jobs.tick('changes-poll')).toMatchObject({ ran: 1, failed: 0 });
    }
    for (const admin of ['amelia', 'priya']) {
      await h.fake.waitFor(() => recoveredDms(admin).length >= 1 || undefined, { message: `${admin}'s recovered DM` });
      expect(recoveredDms(admin)).toHaveLength(1);
      expect(troubleDms(admin)).toHaveLength(1);
    }
  });
});
