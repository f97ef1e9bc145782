/**
 * A snooze that brings the due time forward is said as such (issue 32, item 9): "Tomorrow, same time" on an
 * action due in two days, or a picked date before its due time, moves it earlier. The question before it, the
 * post's line, the assignee's DM, History and one's own card say "moved earlier", never "Snoozed".
 * Clocks: Tuesday 2026-11-24 10:00 UTC (10:00 in London, 05:00 in New York).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseApiDateTime } from '../../src/time/slack-date.js';
import { deliveryActionId, deliveryKind, poll } from './fixtures/jobs-support.js';
import { command, linkDirectly, startHarness, webAppAction, type Harness } from './harness.js';

describe('a snooze that brings the due time forward', () => {
  let h: Harness;
  const care: Record<string, string> = {};
  const later = () => h.setTime(new Date(h.now().getTime() + 5_000));
  const alertIn = (actionId: string) =>
    h.fake.waitFor(() => h.fake.messages('#care-leads').find((m) => deliveryKind(m) === 'urgent' && deliveryActionId(m) === actionId), { timeoutMs: 10_000 });
  const seen = async (actionId: string) => h.fake.visibleText(await alertIn(actionId), { viewer: 'priya' });
  const dueOf = async (id: string) => parseApiDateTime((await h.control(`actions/${id}`)).due)?.toISOString();
  const dueBecomes = (id: string, iso: string) =>
    h.fake.waitFor(async () => ((await dueOf(id)) === iso ? true : undefined), { timeoutMs: 10_000, message: `due never became ${iso}` });
  const changeDms = (person: string, actionId: string) => h.fake.dms(person).filter((m) => deliveryKind(m) === 'change' && deliveryActionId(m) === actionId);
  const modalOf = (user: string, callbackId: string) =>
    h.fake.waitFor(() => (h.fake.openModal(user)?.view.callback_id === callbackId ? h.fake.openModal(user) : undefined), { timeoutMs: 10_000 });

  /** `user` opens the action's card (`/care show`) and clicks History on it: the modal's text as they read it. */
  async function historyAs(user: string, actionNo: string): Promise<string> {
    await command(h, user, `/care show ${actionNo}`);
    await h.driver.clickButton(user, { ephemeral: true, channel: '#care-team', text: 'History' });
    const text = await h.fake.waitFor(
      () => {
        const m = h.fake.openModal(user);
        const t = m ? h.fake.visibleText(m.view, { viewer: user }) : '';
        return t.includes(`History of action #${actionNo}`) ? t : undefined;
      },
      { timeoutMs: 10_000, message: `${user} saw no history` },
    );
    while (h.fake.openModal(user)) await h.driver.modal(user).close();
    return text;
  }

  beforeAll(async () => {
    h = await startHarness({ startAt: new Date('2026-11-24T10:00:00Z'), sandbox: { seed: 'empty' } });
    for (const person of ['sophie', 'oliver', 'priya']) care[person] = await linkDirectly(h, person);
    await command(h, 'amelia', '/care digest here urgent-only', { channel: '#care-leads' });
    await poll(h);
  });
  afterAll(async () => h?.close());

  it('"Tomorrow, same time" on a post about an action due in two days: asked as "earlier", then the post, the assignee’s DM and History say "moved earlier"', async () => {
    await later();
    // Due Thursday 08:00; "tomorrow" is Wednesday, so the choice brings it a day forward.
    const a = await webAppAction(h, { task: 'Weekly fire alarm test', due: new Date('2026-11-26T08:00:00Z'), urgent: true, assigned_to: care.oliver! });
    await poll(h);
    const post = await alertIn(a._id);

    await h.driver.selectOption('priya', { channel: '#care-leads', ts: post.ts, control: 'Snooze…', option: 'Tomorrow, same time' });
    const question = await modalOf('priya', 'care_snooze_confirm');
    const asked = h.fake.visibleText(question.view, { viewer: 'priya' });
    expect(asked).toContain(`Move action #${a.action_no}, assigned to @oliver, earlier, to tomorrow at 8:00 AM? It is due Nov 26, 2026 at 8:00 AM now.`);
    expect((await h.driver.modal('priya').submit()).outcome).toBe('closed');
    await dueBecomes(a._id, '2026-11-25T08:00:00.000Z');

    // The post's line.
    const line = await h.fake.waitFor(async () => ((await seen(a._id)).includes('by @priya') ? seen(a._id) : undefined), { timeoutMs: 10_000 });
    expect(line).toContain('Due moved earlier to tomorrow at 8:00 AM by @priya · Undo (for 5 minutes)');
    expect(line).not.toContain('Snoozed');

    // The assignee's DM (Oliver reads it in New York: 08:00 in London is 03:00 there).
    const dm = await h.fake.waitFor(() => changeDms('oliver', a._id)[0], { timeoutMs: 10_000, message: 'Oliver was not told' });
    const told = h.fake.visibleText(dm, { viewer: 'oliver' });
    expect(told).toContain(`@priya moved your action #${a.action_no} earlier. It is now due tomorrow at 3:00 AM.`);
    expect(told).not.toContain('snoozed');
    expect(dm.text).toBe(`<@U0PRIYA> moved your action #${a.action_no} earlier`);

    // Past Undo's five minutes: Undo answers it is too late and leaves the post, still saying "moved earlier".
    await h.setTime(new Date(h.now().getTime() + 6 * 60_000));
    await h.driver.clickButton('priya', { channel: '#care-leads', ts: post.ts, text: 'Undo' });
    const expired = await h.fake.waitFor(async () => (!(await seen(a._id)).includes('[Undo]') ? seen(a._id) : undefined), { timeoutMs: 10_000 });
    expect(expired).toMatch(/Due moved earlier to .+ by @priya/);
    expect(expired).not.toContain('Snoozed');
    expect(await dueOf(a._id)).toBe('2026-11-25T08:00:00.000Z');

    // History.
    const history = await historyAs('priya', a.action_no);
    expect(history).toContain('Due moved earlier by @priya from Thu 26 Nov 08:00 to Wed 25 Nov 08:00');
    expect(history).not.toContain('Snoozed');
  }, 60_000);

  it('a picked date before the due time, on a post: the post and the DM say "moved earlier"; a later one still says "Snoozed"', async () => {
    await later();
    const a = await webAppAction(h, { task: 'Test the nurse call system', due: new Date('2026-11-27T15:00:00Z'), urgent: true, assigned_to: care.sophie! });
    await poll(h);
    await h.driver.selectOption('priya', { channel: '#care-leads', ts: (await alertIn(a._id)).ts, control: 'Snooze…', option: 'Pick a date and time…' });
    await modalOf('priya', 'care_snooze_modal');
    expect((await h.driver.modal('priya').fill('Date', '2026-11-25').fill('Time', '09:30').submit()).outcome).toBe('closed');
    await dueBecomes(a._id, '2026-11-25T09:30:00.000Z');
    const line = await h.fake.waitFor(async () => ((await seen(a._id)).includes('by @priya') ? seen(a._id) : undefined), { timeoutMs: 10_000 });
    expect(line).toContain('Due moved earlier to tomorrow at 9:30 AM by @priya');
    const dm = await h.fake.waitFor(() => changeDms('sophie', a._id)[0], { timeoutMs: 10_000, message: 'Sophie was not told' });
    expect(h.fake.visibleText(dm, { viewer: 'sophie' })).toContain(`@priya moved your action #${a.action_no} earlier. It is now due tomorrow at 9:30 AM.`);

    // Undo, then a date after the due time: that is a snooze, and says so.
    await h.driver.clickButton('priya', { channel: '#care-leads', ts: (await alertIn(a._id)).ts, text: 'Undo' });
    await dueBecomes(a._id, '2026-11-27T15:00:00.000Z');
    await later();
    await h.driver.selectOption('priya', { channel: '#care-leads', ts: (await alertIn(a._id)).ts, control: 'Snooze…', option: 'Pick a date and time…' });
    await modalOf('priya', 'care_snooze_modal');
    expect((await h.driver.modal('priya').fill('Date', '2026-11-28').fill('Time', '09:30').submit()).outcome).toBe('closed');
    await dueBecomes(a._id, '2026-11-28T09:30:00.000Z');
    const snoozed = await h.fake.waitFor(async () => ((await seen(a._id)).includes('Snoozed to') ? seen(a._id) : undefined), { timeoutMs: 10_000 });
    expect(snoozed).toContain('Snoozed to Nov 28, 2026 at 9:30 AM by @priya');
    const history = await historyAs('priya', a.action_no);
    expect(history).toContain('Due moved earlier by @priya from Fri 27 Nov 15:00 to Wed 25 Nov 09:30');
    expect(history).toContain('Snoozed by @priya from Fri 27 Nov 15:00 to Sat 28 Nov 09:30');
  }, 60_000);

  it('on one’s own card (a DM) the quick choice moves it at once and the card says it was brought forward', async () => {
    await later();
    const a = await webAppAction(h, { task: 'Order more gloves', due: new Date('2026-11-27T16:00:00Z'), assigned_to: care.priya! });
    await command(h, 'priya', `/care show ${a.action_no}`, { dm: true });
    await h.driver.selectOption('priya', { ephemeral: true, dm: true, control: 'Snooze…', option: 'Tomorrow, same time' });
    await dueBecomes(a._id, '2026-11-25T16:00:00.000Z');
    const card = await h.fake.waitFor(
      () => h.fake.ephemerals('priya').find((e) => h.fake.visibleText(e, { viewer: 'priya' }).includes('That brings it forward')),
      { timeoutMs: 10_000, message: 'the card did not say it' },
    );
    expect(h.fake.visibleText(card, { viewer: 'priya' })).toContain('That brings it forward: due moved earlier to tomorrow at 4:00 PM.');
  }, 60_000);
});
