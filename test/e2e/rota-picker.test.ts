import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_USERS } from '../../dev/sandbox/index.js';
import { deliveryKind } from './fixtures/jobs-support.js';
import { careUserIdByEmail, type Harness, linkDirectly, startHarness } from './harness.js';

/**
 * "Everyone on the rota": the action form's assignee picker offers every care
 * user of the care system, not only those linked to Slack; one not in Slack is
 * marked so, and can be assigned (no DM; the confirmation says where they see it).
 * Clock: Tuesday 10 March 2026, 09:00 UTC = 09:00 in London (GMT).
 */
const START = new Date('2026-03-10T09:00:00Z');
const NOT_IN_SLACK = 'not in Slack: they see it in the care system';

describe('the assignee picker: everyone on the rota', () => {
  let h: Harness;

  const openForm = async (user: string) =>
    h.fake.waitFor(() => (h.fake.openModal(user)?.view.callback_id === 'care_action_modal' ? h.fake.openModal(user) : undefined), { timeoutMs: 10_000 });
  const pickerOptions = async (user: string, typed: string) =>
    (await h.driver.suggestOn(user, { modal: true }, 'assignee', 'value', typed)).map((o) => String((o.text as { text: string }).text));

  beforeAll(async () => {
    h = await startHarness({ startAt: START, sandbox: { seed: 'empty' } });
    for (const person of ['sophie', 'priya', 'oliver', 'amelia']) await linkDirectly(h, person);
  });
  afterAll(async () => h?.close());
  beforeEach(async () => {
    for (const u of ['sophie']) while (h.fake.openModal(u)) await h.driver.modal(u).close();
  });

  it('offers all the care system’s carers, the ones not in Slack marked so', async () => {
    await h.driver.slash('sophie', '/care new Check the fire doors', { channel: '#care-team' });
    await openForm('sophie');
    const all = await pickerOptions('sophie', '');
    // Every carer of the demo: 4 in Slack, 16 not (before, only the 4 linked could be chosen).
    expect(all).toHaveLength(DEMO_USERS.length);
    expect(all.filter((t) => t.includes(NOT_IN_SLACK))).toHaveLength(DEMO_USERS.length - 4);
    expect(all).toContain('Oliver Bennett');
    expect(all).toContain(`Ben Whitaker — ${NOT_IN_SLACK}`);
    // Typing narrows by name.
    expect(await pickerOptions('sophie', 'whit')).toEqual([`Ben Whitaker — ${NOT_IN_SLACK}`]);
    // The form starts with the person creating it, as the picker names them.
    const assignee = ((h.fake.openModal('sophie')?.view.blocks ?? []) as any[]).find((b) => b.block_id === 'assignee');
    expect(assignee.element.type).toBe('external_select');
    expect(assignee.element.initial_option.text.text).toBe('Sophie Marsh');
  });

  it('assigns to a carer not in Slack: saved in the care system, no DM to anyone, and the confirmation says where they see it', async () => {
    const ben = await careUserIdByEmail(h, DEMO_USERS.find((u) => u.first_name === 'Ben')!.email);
    const dmsBefore = ['sophie', 'priya', 'oliver', 'amelia'].map((p) => h.fake.dms(p).length);
    await h.driver.slash('sophie', '/care new Check the fire doors on the first floor', { channel: '#care-team' });
    await openForm('sophie');
    const result = await h.driver.modal('sophie').fill('Due date', '2026-03-10').fill('Due time', '15:00').fill('Assignee', ben).submit();
    expect(result.errors ?? {}).toEqual({});
    const confirmation = await h.fake.waitFor(() => h.fake.ephemerals('sophie').find((e) => h.fake.visibleText(e, { viewer: 'sophie' }).includes('Created.')), {
      timeoutMs: 10_000,
    });
    expect(h.fake.visibleText(confirmation, { viewer: 'sophie' })).toContain('Ben Whitaker is not in Slack: they will see it in the care system.');
    const entry = await h.fake.waitFor(async () => (await h.app.store.listAudit({ limit: 50 })).find((e) => e.verb === 'action.create'), { timeoutMs: 5_000 });
    const saved = await h.control(`actions/${entry.actionId}`);
    expect(saved.assigned_to).toBe(ben);
    expect(saved.task).toBe('Check the fire doors on the first floor');
    // Nobody in Slack was told of an assignment (Ben has no Slack to be told in).
    await new Promise((r) => setTimeout(r, 300));
    expect(['sophie', 'priya', 'oliver', 'amelia'].map((p) => h.fake.dms(p).filter((m) => deliveryKind(m) === 'assignment').length)).toEqual([0, 0, 0, 0]);
    expect(['sophie', 'priya', 'oliver', 'amelia'].map((p) => h.fake.dms(p).length)).toEqual(dmsBefore);
  });
});
