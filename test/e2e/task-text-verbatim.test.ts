import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveryActionId, deliveryKind, digestsIn, poll } from './fixtures/jobs-support.js';
import { command, type Harness, linkDirectly, startHarness, webAppAction } from './harness.js';

/**
 * Task text reads as it was typed wherever the app shows it: `*URGENT*` keeps
 * its asterisks instead of turning bold (Slack has no escape for them; the app
 * shows look-alike characters that are no markup: ∗ ＿ ∼ ˋ).
 * Clock: Tuesday 15 June 2027, 10:00 in London.
 */
const TYPED = '*URGENT* check the _night_ fridge ~temps~';
const READ = '\u2217URGENT\u2217 check the \uFF3Fnight\uFF3F fridge \u223Ctemps\u223C';
const BOLDED = 'URGENT check the night fridge';

describe('task text as typed', () => {
  let h: Harness;
  let action: { _id: string; action_no: string };
  const seen = (m: Parameters<Harness['fake']['visibleText']>[0], viewer = 'sophie') => h.fake.visibleText(m, { viewer });

  beforeAll(async () => {
    h = await startHarness({ startAt: new Date('2027-06-15T09:00:00Z'), sandbox: { seed: 'empty' } });
    const sophie = await linkDirectly(h, 'sophie');
    await command(h, 'amelia', '/care digest here urgent-only', { channel: '#care-leads' }); // private: task text shown
    action = await webAppAction(h, { task: TYPED, due: new Date(h.now().getTime() + 2 * 3600_000), assigned_to: sophie });
    await poll(h);
  });
  afterAll(async () => h?.close());

  it('on the card and in lists', async () => {
    for (const line of [`/care show ${action.action_no}`, '/care mine', '/care find fridge']) {
      const { text } = await command(h, 'sophie', line);
      expect(text, line).toContain(READ);
      expect(text, line).not.toContain(BOLDED);
    }
  });

  it('on the Home tab', async () => {
    await h.driver.openHome('sophie');
    const home = await h.fake.waitFor(() => (h.fake.home('sophie') && seen(h.fake.home('sophie')!).includes('fridge') ? h.fake.home('sophie') : undefined), {
      timeoutMs: 10_000,
    });
    expect(seen(home)).toContain(READ);
  });

  it('in an urgent alert and a digest posted in a channel', async () => {
    await h.setTime(new Date(h.now().getTime() + 5_000));
    await h.control(`actions/${action._id}`, { urgent: true }, 'PATCH');
    await poll(h);
    const alert = h.fake.messages('#care-leads').find((m) => deliveryKind(m) === 'urgent' && deliveryActionId(m) === action._id);
    expect(seen(alert!, 'amelia')).toContain(READ);
    expect(seen(alert!, 'amelia')).not.toContain(BOLDED);
    expect((await command(h, 'amelia', '/care digest now', { channel: '#care-leads' })).text).toContain('Digest posted.');
    const digest = digestsIn(h, '#care-leads').at(-1)!;
    expect(seen(digest, 'amelia')).toContain(READ);
    expect(seen(digest, 'amelia')).not.toContain(BOLDED);
  });
});
