/**
 * Issue 23, "harm in one click" on care accounts: a Slack person linked to
 * someone else's care account (item 4), Unlink without a second thought (item
 * 9), and the Home tab of someone whose link request waits for an admin.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { command, type Harness, linkDirectly, startHarness } from './harness.js';

const dmText = (h: Harness, user: string) => h.fake.dms(user).map((m) => h.fake.visibleText(m, { viewer: user }));

describe('Unlink in /care links (issue 23, item 9)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ sandbox: { seed: 'empty' } });
    await linkDirectly(h, 'priya');
  });
  afterAll(async () => h?.close());

  it('asks first, naming the Slack person and the care user; Cancel keeps the link, Unlink removes it', async () => {
    const links = await command(h, 'amelia', '/care links');
    expect(links.text).toContain('@priya → Priya Sharma');
    const cancelled = await h.driver.clickButton('amelia', { ephemeral: true, channel: '#care-team', text: 'Unlink', confirm: 'cancel' });
    expect(cancelled.cancelled).toBe(true);
    const dialog = h.fake.confirmations('amelia').at(-1)!;
    expect(dialog).toMatchObject({ title: 'Unlink Priya Sharma?', confirmLabel: 'Unlink', denyLabel: 'Cancel', answer: 'deny' });
    expect(dialog.text).toBe(
      "Priya Sharma's Slack account will no longer be linked to care user Priya Sharma (priya.sharma@brightwatercare.example). Until it is linked again, they cannot see or change care actions in Slack.",
    );
    expect(await h.app.store.getLinkBySlackUser('T0CARE', 'U0PRIYA')).not.toBeNull();

    await h.driver.clickButton('amelia', { ephemeral: true, channel: '#care-team', text: 'Unlink', confirm: 'accept' });
    await h.fake.waitFor(() => h.fake.ephemerals('amelia').find((e) => e.text === '<@U0PRIYA> is unlinked.'), { timeoutMs: 10_000 });
    expect(await h.app.store.getLinkBySlackUser('T0CARE', 'U0PRIYA')).toBeNull();
  });
});

describe('the Home tab of someone whose link request is waiting', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ sandbox: { seed: 'empty' }, adminSlackUserIds: ['U0AMELIA', 'U0PRIYA'] });
  });
  afterAll(async () => h?.close());

  it('says the request is waiting for an admin and which admins were asked, not "Type /care link"; after a Reject it says how to link again', async () => {
    expect((await command(h, 'visitor', '/care link')).text).toContain('asked an admin');
    await h.driver.openHome('visitor');
    const home = await h.fake.waitFor(
      () => {
        const text = h.fake.home('visitor') && h.fake.visibleText(h.fake.home('visitor')!, { viewer: 'visitor' });
        return text?.includes('waiting') ? text : undefined;
      },
      { timeoutMs: 10_000 },
    );
    expect(home).toContain('Your request to link your care account, sent today at');
    expect(home).toContain('is waiting for an admin (asked: @amelia, @priya). You will get a message when it is decided; nothing more to do meanwhile.');
    expect(home).not.toContain('Type /care link');

    await h.driver.clickButton('amelia', { dm: true, text: 'Reject' });
    await h.fake.waitFor(() => dmText(h, 'visitor').find((t) => t.includes('did not approve')), { timeoutMs: 10_000 });
    await h.fake.waitFor(() => (h.fake.visibleText(h.fake.home('visitor')!).includes('Type /care link') ? true : undefined), { timeoutMs: 10_000 });
  });
});
