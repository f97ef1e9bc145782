/**
 * Every message true: an assignment DM or an urgent alert goes out only for a
 * real change (assigned to someone new; not urgent -> urgent), whoever made
 * it, and never for what was already so when the app first looked.
 * Clocks: Wednesday 2026-11-25 10:00 UTC = 10:00 in London (GMT).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveryActionId, deliveryKind, poll } from './fixtures/jobs-support.js';
import { careUserIdByEmail, command, dayOn, linkDirectly, startHarness, webAppAction, type Harness } from './harness.js';

const START = new Date('2026-11-25T10:00:00Z');
const inHours = (h: Harness, hours: number) => new Date(h.now().getTime() + hours * 3_600_000);

describe('only true assignment DMs and urgent alerts', () => {
  let h: Harness;
  const care: Record<string, string> = {};
  const old: Record<string, { _id: string; action_no: string }> = {};

  const assignmentDms = (person: string, actionId: string) =>
    h.fake.dms(person).filter((m) => deliveryKind(m) === 'assignment' && deliveryActionId(m) === actionId);
  const alerts = (actionId: string) => h.fake.messages('#care-leads').filter((m) => deliveryKind(m) === 'urgent' && deliveryActionId(m) === actionId);
  /** A later second on every clock, so the next change has a `modified` of its own. */
  const later = () => h.setTime(new Date(h.now().getTime() + 5_000));
  const snoozedCount = async (actionId: string) => (await h.app.store.listAudit({ actionId })).filter((e) => e.verb === 'action.snooze').length;
  const snoozeOnCard = async (user: string, action: { _id: string; action_no: string }) => {
    const before = await snoozedCount(action._id);
    const card = await command(h, user, `/care show ${action.action_no}`);
    await h.driver.selectOption(user, { ephemeral: true, channel: '#care-team', ts: card.message.ts, control: 'Snooze…', option: '+1 hour' });
    await h.fake.waitFor(async () => ((await snoozedCount(action._id)) > before ? true : undefined), { timeoutMs: 10_000, message: 'not snoozed' });
  };

  beforeAll(async () => {
    // No scheduled poll during the test: each poll below is run by the test.
    h = await startHarness({ startAt: START, sandbox: { seed: 'empty' }, jobs: { pollSeconds: 3600 } });
    for (const person of ['sophie', 'priya', 'amelia']) care[person] = await linkDirectly(h, person);
    care.oliver = await careUserIdByEmail(h, h.driver.user('oliver').profile.email!);
    await command(h, 'amelia', '/care digest here urgent-only', { channel: '#care-leads' });
    // What the care home already had before the app first looked: none of it is news.
    old.sophiesUrgent = await webAppAction(h, { task: 'Check the pressure mattress', due: inHours(h, 2), assigned_to: care.sophie!, urgent: true });
    old.nobodysUrgent = await webAppAction(h, { task: 'Call the out-of-hours GP', due: inHours(h, 3), urgent: true });
    old.oliversA = await webAppAction(h, { task: 'Order incontinence pads', due: inHours(h, 24), assigned_to: care.oliver! });
    old.oliversB = await webAppAction(h, { task: 'Book the chiropodist', due: inHours(h, 26), assigned_to: care.oliver! });
    old.sophiesPlain = await webAppAction(h, { task: 'Update the falls diary', due: inHours(h, 5), assigned_to: care.sophie! });
    await later();
    await poll(h); // the app's first look
  });
  afterAll(async () => h?.close());

  it('snoozing your own urgent action sends you no "You were assigned" DM and posts no new urgent alert', async () => {
    await snoozeOnCard('sophie', old.sophiesUrgent!);
    expect(await snoozedCount(old.sophiesUrgent!._id)).toBe(1);
    await later();
    await poll(h);
    await later();
    await poll(h);
    expect(assignmentDms('sophie', old.sophiesUrgent!._id)).toEqual([]);
    expect(alerts(old.sophiesUrgent!._id)).toEqual([]);
  });

  it('a colleague snoozes someone’s action; when that person links, they are not told it was assigned to them', async () => {
    await snoozeOnCard('sophie', old.oliversA!);
    await later();
    await poll(h);
    await linkDirectly(h, 'oliver');
    await poll(h); // the snoozed action is still inside the poll's overlap: read again
    expect(assignmentDms('oliver', old.oliversA!._id)).toEqual([]);
  });

  it('Take it on an urgent action nobody had posts no second alert and tells the taker nothing', async () => {
    await command(h, 'amelia', '/care digest now', { channel: '#care-leads' });
    await h.driver.clickButton('priya', { channel: '#care-leads', text: 'Take it' });
    await h.fake.waitFor(async () => ((await h.control(`actions/${old.nobodysUrgent!._id}`)).assigned_to === care.priya ? true : undefined), {
      timeoutMs: 10_000,
    });
    await later();
    await poll(h);
    expect(alerts(old.nobodysUrgent!._id)).toEqual([]);
    expect(assignmentDms('priya', old.nobodysUrgent!._id)).toEqual([]);
  });

  it('real changes in the web app are still told: a reassignment DMs the new assignee, made urgent alerts once', async () => {
    await h.control(`actions/${old.oliversB!._id}`, { assigned_to: care.sophie }, 'PATCH');
    await h.control(`actions/${old.sophiesPlain!._id}`, { urgent: true }, 'PATCH');
    await later();
    await poll(h);
    await later();
    await poll(h);
    expect(assignmentDms('sophie', old.oliversB!._id)).toHaveLength(1);
    expect(alerts(old.sophiesPlain!._id)).toHaveLength(1);
    // A new action made in the web app after the app first looked is news too.
    const fresh = await webAppAction(h, { task: 'Restock the first-aid box', due: inHours(h, 4), assigned_to: care.sophie!, urgent: true });
    await later();
    await poll(h);
    expect(assignmentDms('sophie', fresh._id)).toHaveLength(1);
    expect(alerts(fresh._id)).toHaveLength(1);
  });

  it('an urgent action made in Slack is alerted at once, without waiting for the poll; the poll finds it sent', async () => {
    await h.driver.slash('sophie', '/care new Replace the call bell in room 6', { channel: '#care-team' });
    await h.fake.waitFor(() => h.fake.openModal('sophie'), { timeoutMs: 10_000 });
    const result = await h.driver
      .modal('sophie')
      .fill('Due date', dayOn(h, 1))
      .fill('Due time', '09:00')
      .fill('Urgency', ['Urgent (shows at the top of dashboards)'])
      .submit();
    expect(result.outcome).toBe('closed');
    const created = await h.fake.waitFor(
      async () => (await h.app.store.listAudit({ limit: 20 })).find((e) => e.verb === 'action.create' && e.userId === 'U0SOPHIE'),
      { timeoutMs: 10_000 },
    );
    // No poll has run since: the alert came with the create.
    await h.fake.waitFor(() => (alerts(created.actionId!).length === 1 ? true : undefined), { timeoutMs: 5_000, message: 'no urgent alert without a poll' });
    await later();
    await poll(h);
    expect(alerts(created.actionId!)).toHaveLength(1);
  });
});
