/**
 * "History on every card": History shows the clicker alone the action's life
 * as the app knows it — made, snoozed, taken and completed through Slack (who),
 * and what the changes poll saw in the care system ("in the care system") —
 * with times on the reader's clock.
 * Clocks: 2026-03-10 = GMT in London, EDT (UTC-4) in New York (US clocks went forward on 8 March).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { deliveryKind, poll } from './fixtures/jobs-support.js';
import { command, linkDirectly, startHarness, webAppAction, type Harness } from './harness.js';
import { createInSlack as createSlackAction } from './steps.js';

const START = new Date('2026-03-10T09:00:00Z');

describe('History on a card', () => {
  let h: Harness;
  const care: Record<string, string> = {};
  const at = (hhmm: string) => h.setTime(`2026-03-10T${hhmm}:00Z`);

  const createInSlack = (user: string, task: string, urgent = false) => createSlackAction(h, user, task, { urgent });

  /** `user` opens the action's card (`/care show`) and clicks History on it: the modal's text as they read it. */
  async function historyAs(user: string, actionNo: string): Promise<string> {
    await command(h, user, `/care show ${actionNo}`);
    await h.driver.clickButton(user, { ephemeral: true, channel: '#care-team', text: 'History' });
    const modal = await h.fake.waitFor(
      () => {
        const m = h.fake.openModal(user);
        const text = m ? h.fake.visibleText(m.view, { viewer: user }) : '';
        return text.includes(`History of action #${actionNo}`) ? text : undefined;
      },
      { timeoutMs: 10_000, message: `${user} saw no history` },
    );
    return modal;
  }

  beforeAll(async () => {
    h = await startHarness({ startAt: START, sandbox: { seed: 'empty' } });
    for (const person of ['amelia', 'sophie', 'priya', 'oliver']) care[person] = await linkDirectly(h, person);
    await poll(h);
  });
  afterAll(async () => h?.close());
  beforeEach(async () => {
    for (const u of ['amelia', 'sophie', 'priya', 'oliver']) while (h.fake.openModal(u)) await h.driver.modal(u).close();
  });

  it('after a take, a snooze, a completion in Slack and a reopen and completion in the web app: who and when, in the reader’s zone, to the clicker only', async () => {
    await at('09:00');
    await command(h, 'amelia', '/care digest here urgent-only', { channel: '#care-leads' }); // urgent alerts there, with Take it
    const a = await createInSlack('amelia', 'Check the bed rails in room 12', true);

    // Priya takes it (Amelia's, made by the form) on the channel's urgent alert, after the dialog.
    await at('09:10');
    const alert = await h.fake.waitFor(() => h.fake.messages('#care-leads').find((m) => deliveryKind(m) === 'urgent'), {
      timeoutMs: 10_000,
      message: 'no alert',
    });
    await h.driver.clickButton('priya', { channel: '#care-leads', ts: alert.ts, text: 'Take it', confirm: 'accept' });
    await h.fake.waitFor(async () => ((await h.control(`actions/${a._id}`)).assigned_to === care.priya ? true : undefined), { timeoutMs: 10_000 });

    await at('09:20');
    await command(h, 'sophie', `/care show ${a.action_no}`);
    await h.driver.selectOption('sophie', { ephemeral: true, channel: '#care-team', control: 'Snooze…', option: 'Tomorrow, same time' });
    await h.fake.waitFor(async () => ((await h.control(`actions/${a._id}`)).due === '2026-03-11 14:00:00' ? true : undefined), { timeoutMs: 10_000 });

    await at('09:30');
    expect((await command(h, 'priya', `/care done ${a.action_no}`)).text).toContain('by @priya');
    await at('09:40');
    await h.control(`actions/${a._id}/reopen`, {});
    await poll(h);
    await at('09:50');
    await h.control(`actions/${a._id}/complete`, {});
    await poll(h);
    await poll(h); // the overlap reads it again: nothing is written twice
    const audit = await h.app.store.listAudit({ actionId: a._id });
    expect(audit.filter((e) => e.verb.startsWith('seen.')).map((e) => [e.verb, e.userId])).toEqual([
      ['seen.complete', ''],
      ['seen.reopen', ''],
    ]);
    expect(JSON.stringify(audit)).not.toContain('bed rails'); // ids, people and times only

    await at('10:00');
    const channelPosts = h.fake.messages('#care-team').length + h.fake.messages('#care-leads').length;
    const sophiesEphemerals = h.fake.ephemerals('sophie').length;
    const seen = await historyAs('amelia', a.action_no);
    const lines = [
      '*Tuesday 10 March 2026*',
      'Created by @amelia in Slack, assigned to @amelia, urgent at 09:00',
      'Taken by @priya from @amelia at 09:10',
      'Snoozed by @sophie from Tue 10 Mar 14:00 to Wed 11 Mar 14:00 at 09:20',
      'Completed by @priya at 09:30',
      'Reopened in the care system at 09:40',
      'Completed in the care system at 09:50',
    ];
    expect(seen.replace(/\*/g, '')).toContain(lines.join('\n').replace(/\*/g, ''));
    expect(seen).toContain('Times are in Europe/London');
    expect(seen).not.toContain('bed rails'); // no task text in the history
    // Only Amelia sees it: no post, nobody else's modal or message.
    expect(h.fake.messages('#care-team').length + h.fake.messages('#care-leads').length).toBe(channelPosts);
    expect(h.fake.ephemerals('sophie')).toHaveLength(sophiesEphemerals);
    for (const other of ['sophie', 'priya', 'oliver']) expect(h.fake.openModal(other)).toBeUndefined();

    // Oliver reads it in New York (EDT): the same changes on his clock.
    const his = await historyAs('oliver', a.action_no);
    expect(his).toContain('Created by @amelia in Slack, assigned to @amelia, urgent at 05:00');
    expect(his).toContain('Snoozed by @sophie from Tue 10 Mar 10:00 to Wed 11 Mar 10:00 at 05:20');
    expect(his).toContain('Completed in the care system at 05:50');
    expect(his).toContain('Times are in America/New_York');
  });

  it('an action made in the web app, assigned and made urgent there: each change "in the care system"', async () => {
    await at('11:00');
    const a = await webAppAction(h, { task: 'Replace the call bell batteries', due: new Date('2026-03-10T16:00:00Z') });
    await poll(h);
    await at('11:10');
    await h.control(`actions/${a._id}`, { assigned_to: care.sophie, urgent: true }, 'PATCH');
    await poll(h);
    await poll(h);
    await at('11:20');
    const seen = await historyAs('sophie', a.action_no);
    expect(seen).toContain(
      'Created in the care system at 11:00\nAssigned to @sophie in the care system (was nobody) at 11:10\nMade urgent in the care system at 11:10',
    );
  });
});
