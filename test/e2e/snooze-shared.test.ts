/**
 * Issue 23, item 5: Snooze on a shared post. In #care-leads Priya (not the
 * assignee) picked Snooze → Next Monday on Oliver's urgent, overdue "Weekly fire
 * alarm test": it moved at once, unasked, unsaid, and Oliver was not told. Now a
 * channel post asks first (the action, its assignee, the new time), then says
 * "Snoozed to … by @priya · Undo", and Oliver gets one DM; Undo puts the due
 * time back. Cards of one's own still snooze at once.
 * Clocks: Tuesday 2026-11-24 10:00 UTC (10:00 in London, 05:00 in New York).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseApiDateTime } from '../../src/time/slack-date.js';
import { deliveryActionId, deliveryKind, poll } from './fixtures/jobs-support.js';
import { command, linkDirectly, startHarness, webAppAction, type Harness } from './harness.js';

describe('Snooze on a channel post (issue 23, item 5)', () => {
  let h: Harness;
  const care: Record<string, string> = {};
  const later = () => h.setTime(new Date(h.now().getTime() + 5_000));
  const alertIn = (actionId: string) =>
    h.fake.waitFor(() => h.fake.messages('#care-leads').find((m) => deliveryKind(m) === 'urgent' && deliveryActionId(m) === actionId), { timeoutMs: 10_000 });
  const seen = async (actionId: string) => h.fake.visibleText(await alertIn(actionId), { viewer: 'priya' });
  const dueOf = async (id: string) => parseApiDateTime((await h.control(`actions/${id}`)).due)?.toISOString();
  const changeDms = (person: string, actionId: string) => h.fake.dms(person).filter((m) => deliveryKind(m) === 'change' && deliveryActionId(m) === actionId);
  const openQuestion = () =>
    h.fake.waitFor(() => (h.fake.openModal('priya')?.view.callback_id === 'care_snooze_confirm' ? h.fake.openModal('priya') : undefined), {
      timeoutMs: 10_000,
    });

  beforeAll(async () => {
    h = await startHarness({ startAt: new Date('2026-11-24T10:00:00Z'), sandbox: { seed: 'empty' } });
    for (const person of ['sophie', 'oliver', 'priya']) care[person] = await linkDirectly(h, person);
    await command(h, 'amelia', '/care digest here urgent-only', { channel: '#care-leads' });
    await poll(h);
  });
  afterAll(async () => h?.close());

  it('asks first naming the action, its assignee and the new time; then the post says who snoozed it, with Undo, and the assignee is told once; Undo puts the due time back, Overdue and all', async () => {
    await later();
    const a = await webAppAction(h, { task: 'Weekly fire alarm test', due: new Date('2026-11-24T08:00:00Z'), urgent: true, assigned_to: care.oliver! });
    await poll(h);
    const post = await alertIn(a._id);

    // Cancel: nothing changes.
    await h.driver.selectOption('priya', { channel: '#care-leads', ts: post.ts, control: 'Snooze…', option: 'Next Monday, same time' });
    const question = await openQuestion();
    expect(h.fake.visibleText(question.view, { viewer: 'priya' })).toContain(`Snooze action #${a.action_no}, assigned to @oliver, to Nov 30, 2026 at 8:00 AM?`);
    expect(h.fake.visibleText(question.view, { viewer: 'priya' })).toContain('Everyone in this channel will see that you snoozed it');
    await h.driver.modal('priya').close();
    expect(await dueOf(a._id)).toBe('2026-11-24T08:00:00.000Z');
    expect((await alertIn(a._id)).edited).toBeFalsy();

    // Snooze: Monday 30 November, 08:00 as it was due (London).
    await h.driver.selectOption('priya', { channel: '#care-leads', ts: post.ts, control: 'Snooze…', option: 'Next Monday, same time' });
    await openQuestion();
    expect((await h.driver.modal('priya').submit()).outcome).toBe('closed');
    await h.fake.waitFor(async () => ((await dueOf(a._id)) === '2026-11-30T08:00:00.000Z' ? true : undefined), { timeoutMs: 10_000, message: 'not snoozed' });
    const snoozed = await h.fake.waitFor(async () => ((await seen(a._id)).includes('Snoozed to') ? seen(a._id) : undefined), { timeoutMs: 10_000 });
    expect(snoozed).toContain('Snoozed to Nov 30, 2026 at 8:00 AM by @priya · Undo (for 5 minutes)');
    // Still an urgent alert (its heading and Take it), not redrawn as a plain card.
    expect(snoozed).toContain(`Urgent action #${a.action_no}`);
    expect(snoozed).toContain('[Take it]');
    expect(snoozed).toContain('[Undo]');
    expect(snoozed).not.toContain('Overdue');

    const dm = await h.fake.waitFor(() => changeDms('oliver', a._id)[0], { timeoutMs: 10_000, message: 'Oliver was not told' });
    // Oliver reads it in New York: 08:00 in London is 03:00 there.
    expect(h.fake.visibleText(dm, { viewer: 'oliver' })).toContain(`@priya snoozed your action #${a.action_no}. It is now due Nov 30, 2026 at 3:00 AM.`);
    await poll(h);
    await poll(h);
    expect(changeDms('oliver', a._id)).toHaveLength(1);
    expect(changeDms('priya', a._id)).toEqual([]);

    // Undo: due at 08:00 today again, so overdue again; Oliver is told that too.
    await h.driver.clickButton('priya', { channel: '#care-leads', ts: post.ts, text: 'Undo' });
    await h.fake.waitFor(async () => ((await dueOf(a._id)) === '2026-11-24T08:00:00.000Z' ? true : undefined), {
      timeoutMs: 10_000,
      message: 'Undo did not put it back',
    });
    const undone = await h.fake.waitFor(async () => ((await seen(a._id)).includes('Undone by @priya') ? seen(a._id) : undefined), { timeoutMs: 10_000 });
    expect(undone).toContain('Overdue');
    expect(undone).not.toContain('[Undo]');
    await h.fake.waitFor(() => (changeDms('oliver', a._id).length === 2 ? true : undefined), { timeoutMs: 10_000, message: 'the undo was not told' });
    expect(h.fake.visibleText(changeDms('oliver', a._id)[1]!, { viewer: 'oliver' })).toContain(
      `@priya undid the snooze of your action #${a.action_no}. It is due today at 3:00 AM again.`,
    );
    const snoozes = (await h.app.store.listAudit({ actionId: a._id }))
      .filter((e) => e.verb === 'action.snooze')
      .map((e) => [e.userId, e.details.undo ?? false]);
    expect(snoozes.reverse()).toEqual([
      ['U0PRIYA', false],
      ['U0PRIYA', true],
    ]);
  });

  it('"Pick a date and time…" on a channel post names the assignee, and the post then says who snoozed it, with Undo', async () => {
    await later();
    const a = await webAppAction(h, { task: 'Test the nurse call system', due: new Date('2026-11-24T15:00:00Z'), urgent: true, assigned_to: care.sophie! });
    await poll(h);
    await h.driver.selectOption('priya', { channel: '#care-leads', ts: (await alertIn(a._id)).ts, control: 'Snooze…', option: 'Pick a date and time…' });
    const form = await h.fake.waitFor(() => (h.fake.openModal('priya')?.view.callback_id === 'care_snooze_modal' ? h.fake.openModal('priya') : undefined), {
      timeoutMs: 10_000,
    });
    expect(h.fake.visibleText(form.view, { viewer: 'priya' })).toContain(`When should #${a.action_no}, assigned to @sophie, be due?`);
    expect((await h.driver.modal('priya').fill('Date', '2026-11-26').fill('Time', '09:30').submit()).outcome).toBe('closed');
    await h.fake.waitFor(async () => ((await dueOf(a._id)) === '2026-11-26T09:30:00.000Z' ? true : undefined), { timeoutMs: 10_000 });
    const post = await h.fake.waitFor(async () => ((await seen(a._id)).includes('Snoozed to') ? seen(a._id) : undefined), { timeoutMs: 10_000 });
    expect(post).toContain('Snoozed to Nov 26, 2026 at 9:30 AM by @priya · Undo (for 5 minutes)');
    await h.fake.waitFor(() => changeDms('sophie', a._id)[0], { timeoutMs: 10_000, message: 'Sophie was not told' });
  });

  it("one's own card (a DM) still snoozes at once, without asking, and nobody is DMed about it", async () => {
    await later();
    const a = await webAppAction(h, { task: 'Order more gloves', due: new Date('2026-11-24T16:00:00Z'), assigned_to: care.oliver! });
    const card = await command(h, 'oliver', `/care show ${a.action_no}`, { dm: true });
    expect(card.text).toContain('[Snooze… ▾]');
    await h.driver.selectOption('oliver', { ephemeral: true, dm: true, control: 'Snooze…', option: '+1 hour' });
    await h.fake.waitFor(async () => ((await dueOf(a._id)) === '2026-11-24T17:00:00.000Z' ? true : undefined), { timeoutMs: 10_000 });
    expect(h.fake.openModal('oliver')).toBeUndefined();
    expect(changeDms('oliver', a._id)).toEqual([]);
  });
});
