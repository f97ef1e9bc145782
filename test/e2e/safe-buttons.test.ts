/**
 * Issue 14, "blind one-click Complete": buttons on posts everyone in a channel
 * sees. Where task text is hidden a post carries View (the card, to the clicker
 * only), never Complete; Complete and Reopen on a channel post ask first, naming
 * the action and its assignee. Clocks: 2027-06-15 09:00 UTC (10:00 in London).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveryActionId, deliveryKind, poll } from './fixtures/jobs-support.js';
import { command, linkDirectly, startHarness, webAppAction, type Harness } from './harness.js';

type Element = { type: string; action_id?: string; text?: { text: string }; confirm?: { title: { text: string }; text: { text: string } } };

/** Every interactive element of a message (accessories and actions blocks). */
function elementsOf(m: { blocks?: unknown[] }): Element[] {
  return (m.blocks ?? []).flatMap((b) => {
    const block = b as { accessory?: Element; elements?: Element[]; type: string };
    return [...(block.accessory ? [block.accessory] : []), ...(block.type === 'actions' ? (block.elements ?? []) : [])];
  });
}
const buttonNamed = (m: { blocks?: unknown[] }, label: string) => elementsOf(m).find((e) => e.type === 'button' && e.text?.text === label);

describe('safe buttons on channel posts (issue 14)', () => {
  let h: Harness;
  const care: Record<string, string> = {};
  const later = () => h.setTime(new Date(h.now().getTime() + 5_000));
  const posted = (channel: string, kind: string, actionId: string) =>
    h.fake.messages(channel).filter((m) => deliveryKind(m) === kind && deliveryActionId(m) === actionId);

  beforeAll(async () => {
    h = await startHarness({ startAt: new Date('2027-06-15T09:00:00Z'), sandbox: { seed: 'empty' } });
    for (const person of ['sophie', 'oliver', 'priya']) care[person] = await linkDirectly(h, person);
    await command(h, 'amelia', '/care digest here urgent-only', { channel: '#care-leads' }); // private: task text shown
    await command(h, 'amelia', '/care digest here urgent-only', { channel: '#care-team' }); // public: task text hidden
    await poll(h);
  });
  afterAll(async () => h?.close());

  it('an urgent alert where task text is hidden offers View, not Complete; where shown, Complete asks first naming the action and assignee', async () => {
    await later();
    const a = await webAppAction(h, { task: 'Check the medication chart', due: new Date('2027-06-15T15:00:00Z'), urgent: true, assigned_to: care.oliver! });
    await poll(h);
    const hidden = await h.fake.waitFor(() => posted('#care-team', 'urgent', a._id)[0], { timeoutMs: 10_000 });
    expect(buttonNamed(hidden, 'Complete')).toBeUndefined();
    expect(buttonNamed(hidden, 'Reopen')).toBeUndefined();
    expect(buttonNamed(hidden, 'View')).toMatchObject({ action_id: 'care_view' });

    const shown = await h.fake.waitFor(() => posted('#care-leads', 'urgent', a._id)[0], { timeoutMs: 10_000 });
    const complete = buttonNamed(shown, 'Complete');
    expect(complete?.confirm?.text.text).toContain(`#${a.action_no}`);
    expect(complete?.confirm?.text.text).toContain('<@U0OLIVER>');
  });

  it('a routed completion notice: View where hidden, and Reopen asks first where shown', async () => {
    const groups = await h.app.care.notificationGroups.collect({ attributes: ['_id', 'name'], per_page: 100, limit: 100 });
    const group = (name: string) => groups.find((g) => g.name === name)!._id;
    expect((await command(h, 'amelia', '/care route Willow Bank seniors <#C0LEADS|care-leads>')).text).toContain('will also be posted in');
    expect((await command(h, 'amelia', '/care route Home care coordinators <#C0CARE|care-team>')).text).toContain('will also be posted in');
    await later();
    const b = await webAppAction(h, {
      task: 'Fit the new door lock',
      due: new Date('2027-06-15T15:00:00Z'),
      assigned_to: care.oliver!,
      notify_on_complete: [group('Willow Bank seniors'), group('Home care coordinators')],
    });
    await h.control(`actions/${b._id}/complete`, {});
    await poll(h);
    const hidden = await h.fake.waitFor(() => posted('#care-team', 'completion', b._id)[0], { timeoutMs: 10_000 });
    expect(buttonNamed(hidden, 'Reopen')).toBeUndefined();
    expect(buttonNamed(hidden, 'View')).toBeDefined();
    const shown = await h.fake.waitFor(() => posted('#care-leads', 'completion', b._id)[0], { timeoutMs: 10_000 });
    expect(buttonNamed(shown, 'Reopen')?.confirm?.text.text).toContain(`#${b.action_no}`);
  });
});
