import { actionCard } from '../../src/slack/views/action-card.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { linkDirectly, webAppAction, type Harness, startHarness } from './harness.js';

/**
 * The create/edit modal and the "Create care action" message shortcut.
 * Clocks: 2026-03-10 02:00 UTC = 02:00 on the 10th in London, 22:00 on the 9th in New York (EDT).
 */
const START = new Date('2026-03-10T02:00:00Z');
const GROUPS = ['Safeguarding leads', 'Maintenance'];

describe('the action modal through Slack', () => {
  let h: Harness;
  let priyaCareId: string;

  // The form replaces a "Loading…" view once the app knows the person's time zone.
  const openModal = async (user: string) =>
    h.fake.waitFor(() => (h.fake.openModal(user)?.view.callback_id === 'care_action_modal' ? h.fake.openModal(user) : undefined), { timeoutMs: 10_000 });
  const latestCreated = async (slackUserId: string) => {
    const entry = (await h.app.store.listAudit({ limit: 200 })).find((e) => e.verb === 'action.create' && e.userId === slackUserId);
    if (!entry?.actionId) throw new Error(`no action created by ${slackUserId}`);
    return h.control(`actions/${entry.actionId}`);
  };
  const actionCount = async () => (await h.app.care.actions.collect({ filters: { completed: 'unset' }, attributes: ['_id'], limit: 1000 })).length;

  beforeAll(async () => {
    h = await startHarness({ startAt: START, sandbox: { seed: 'empty' } });
    await linkDirectly(h, 'sophie');
    await linkDirectly(h, 'oliver');
    priyaCareId = await linkDirectly(h, 'priya');
  });
  afterAll(async () => h?.close());
  beforeEach(async () => {
    await h.control('faults', { reset: true });
    // Nobody keeps a modal open from an earlier test.
    for (const u of ['sophie', 'oliver', 'priya', 'visitor']) while (h.fake.openModal(u)) await h.driver.modal(u).close();
  });

  it('/care new opens the form with the task filled in, before any call to the care system', async () => {
    await h.control('stats/reset', {});
    await h.driver.slash('sophie', '/care new Call the GP about Mr Ahmed’s bloods', { channel: '#care-team' });
    const modal = await openModal('sophie');
    expect(h.fake.visibleText(modal.view)).toContain('New care action');
    const task = modal.view.blocks.find((b) => b.block_id === 'task') as { element: { initial_value?: string } };
    expect(task.element.initial_value).toBe('Call the GP about Mr Ahmed’s bloods');
    const due = modal.view.blocks.find((b) => b.block_id === 'due_date') as { element: { initial_date?: string } };
    expect(due.element.initial_date).toBe('2026-03-10');
    const time = modal.view.blocks.find((b) => b.block_id === 'due_time') as { hint?: { text: string } };
    expect(time.hint?.text).toContain('Europe/London');
    expect((await h.control('stats')).total).toBe(0);
  });

  it('creates the action with the due time converted from New York to UTC, and confirms it', async () => {
    await h.driver.slash('oliver', '/care new Send the rota to the Gloucester office', { channel: '#care-team' });
    const modal = await openModal('oliver');
    // Today in New York is still the 9th.
    expect((modal.view.blocks.find((b) => b.block_id === 'due_date') as { element: { initial_date?: string } }).element.initial_date).toBe('2026-03-09');
    const result = await h.driver.modal('oliver').fill('Due date', '2026-07-15').fill('Due time', '09:30').submit();
    expect(result.outcome).toBe('closed');

    const created = await h.fake.waitFor(() => latestCreated('U0OLIVER').catch(() => undefined), { timeoutMs: 10_000 });
    expect(created.task).toBe('Send the rota to the Gloucester office');
    expect(created.due).toBe('2026-07-15 13:30:00'); // 09:30 EDT
    const confirmation = await h.fake.waitFor(() => h.fake.ephemerals('oliver').find((e) => e.text.startsWith('Created')), { timeoutMs: 10_000 });
    const seen = h.fake.visibleText(confirmation, { viewer: 'oliver' });
    expect(seen).toContain('Created.');
    expect(seen).toContain('Send the rota to the Gloucester office');
    expect(seen).toContain(`#${created.action_no}`);
    expect(seen).toContain('9:30 AM'); // Oliver reads his own zone
    expect(h.fake.messages('#care-team')).toHaveLength(0); // nobody else saw it

    // Winter time: 09:30 EST = 14:30 UTC.
    await h.driver.slash('oliver', '/care new Winter flu jabs', { channel: '#care-team' });
    await openModal('oliver');
    await h.driver.modal('oliver').fill('Due date', '2026-12-01').fill('Due time', '09:30').submit();
    const winter = await h.fake.waitFor(
      async () => {
        const a = await latestCreated('U0OLIVER');
        return a.task === 'Winter flu jabs' ? a : undefined;
      },
      { timeoutMs: 10_000 },
    );
    expect(winter.due).toBe('2026-12-01 14:30:00');
    const audit = await h.app.store.listAudit({ actionId: winter._id });
    expect(audit.map((e) => [e.verb, e.userId])).toEqual([['action.create', 'U0OLIVER']]);
  });

  it('loads notification groups on demand as the person types (block_suggestion)', async () => {
    await h.driver.slash('sophie', '/care new Check the groups', { channel: '#care-team' });
    const modal = await openModal('sophie');
    const ask = async (value: string) => {
      const answer = await h.driver.sendPayload('block_suggestion', 'value', 'U0SOPHIE', {
        type: 'block_suggestion',
        user: { id: 'U0SOPHIE', name: 'sophie', team_id: 'T0CARE' },
        team: { id: 'T0CARE', domain: 'brightwater' },
        api_app_id: 'A0CAREAPP',
        container: { type: 'view', view_id: modal.view.id },
        view: modal.view,
        block_id: 'notify_on_complete',
        action_id: 'value',
        value,
      });
      expect(answer.status).toBe(200);
      return ((answer.json as { options: { text: { text: string }; value: string }[] }).options ?? []).map((o) => o.text.text);
    };
    const all = await ask('');
    expect(all).toEqual(expect.arrayContaining([...GROUPS, 'Family liaison']));
    expect(all.length).toBeGreaterThanOrEqual(7);
    expect(await ask('safeg')).toEqual(['Safeguarding leads']);
    expect(await ask('no such group')).toEqual([]);
  });

  it('sends every field: assignee, urgent, pin, notify groups, two reminders and a service user', async () => {
    await h.driver.slash('sophie', '/care new Review the care plan with the family', { channel: '#care-team' });
    await openModal('sophie');
    const serviceUser = 'aaaaaaaaaaaaaaaaaaaaaaaa';
    await h.driver
      .modal('sophie')
      .fill('Due date', '2026-03-12')
      .fill('Due time', '14:15')
      .fill('Assignee', 'Priya Sharma')
      .fill('Urgency', ['Urgent (shows at the top of dashboards)'])
      .fill('Notify on completion', GROUPS)
      .clickButton('More options');
    const result = await h.driver
      .modal('sophie')
      .fill('Pin to calendar', "The assignee's calendar")
      .fill('Reminder 1: how', 'Email')
      .fill('Reminder 1: when', '15 minutes before')
      .fill('Reminder 2: how', 'SMS or WhatsApp')
      .fill('Reminder 2: when', 'At a time of day that day')
      .fill('Reminder 2: time of day', '08:00')
      .fill('Relates to', 'A service user')
      .fill('Care enquiry or service user Id', serviceUser)
      .submit();
    expect(result.outcome).toBe('closed');
    const created = await h.fake.waitFor(() => latestCreated('U0SOPHIE').catch(() => undefined), { timeoutMs: 10_000 });
    expect(created).toMatchObject({
      task: 'Review the care plan with the family',
      due: '2026-03-12 14:15:00',
      assigned_to: priyaCareId,
      urgent: true,
      pin_to_calendar: 'user',
    });
    expect(created.notify_on_complete).toHaveLength(2);
    expect(created.reminders).toEqual([
      expect.objectContaining({ method: 'email', offset_type: 'delta', offset_delta: 15 }),
      expect.objectContaining({ method: 'sms_or_whatsapp', offset_type: 'time', offset_time_str: '08:00' }),
    ]);
    expect(JSON.stringify(created.service_users ?? created.service_user)).toContain(serviceUser);
    // The assignee is shown as a mention, and their Home tab is refreshed.
    const confirmation = await h.fake.waitFor(
      () => h.fake.ephemerals('sophie').find((e) => e.text.startsWith('Created: Action') && h.fake.visibleText(e, { viewer: 'sophie' }).includes('care plan')),
      { timeoutMs: 10_000 },
    );
    expect(h.fake.visibleText(confirmation, { viewer: 'sophie' })).toContain('Assigned to\n@priya');
    const home = await h.fake.waitFor(() => h.fake.home('priya'), { timeoutMs: 10_000 });
    expect(h.fake.visibleText(home, { viewer: 'priya' })).toContain('Review the care plan with the family');
  });

  it('offers care users only: someone in Slack with no care account is not among the assignees', async () => {
    await h.driver.slash('sophie', '/care new Cover the night shift', { channel: '#care-team' });
    await openModal('sophie');
    expect(await h.driver.suggestOn('sophie', { modal: true }, 'assignee', 'value', 'Val Visitor')).toEqual([]);
    expect((await h.driver.suggestOn('sophie', { modal: true }, 'assignee', 'value', 'priya')).map((o) => (o.text as { text: string }).text)).toEqual([
      'Priya Sharma',
    ]);
  });

  it('shows its own validation errors inline on the right fields', async () => {
    await h.driver.slash('sophie', '/care new', { channel: '#care-team' });
    await openModal('sophie');
    const modal = h.driver.modal('sophie');
    await modal.clickButton('More options');
    const result = await modal
      .fill('Task', '   \u0007  ')
      .fill('Due date', '2026-02-30')
      .fill('Due time', '10:00')
      .fill('Reminder 1: when', '15 minutes before')
      .fill('Reminder 2: how', 'Email')
      .fill('Relates to', 'A care enquiry')
      .submit();
    expect(result.outcome).toBe('errors');
    expect(modal.errorFor('Task')).toBe('Say what needs doing.');
    expect(modal.errorFor('Due date')).toBe('Pick the day it is due.');
    expect(modal.errorFor('Reminder 1: how')).toContain('Choose how to remind');
    expect(modal.errorFor('Care enquiry or service user Id')).toContain('Give the Id');
    expect(modal.errorFor('Due time')).toBeUndefined();
    // Fixing them lets it through.
    const fixed = await modal
      .fill('Task', 'Fixed task')
      .fill('Due date', '2026-03-20')
      .fill('Reminder 1: how', 'Voice call')
      .fill('Reminder 2: when', '30 minutes before')
      .fill('Relates to', 'Nothing in particular')
      .submit();
    expect(fixed.errors).toEqual({});
    expect(fixed.outcome).toBe('closed');
    const created = await h.fake.waitFor(async () => ((await latestCreated('U0SOPHIE')).task === 'Fixed task' ? latestCreated('U0SOPHIE') : undefined), {
      timeoutMs: 10_000,
    });
    expect(created.reminders).toEqual([
      expect.objectContaining({ method: 'voice', offset_type: 'delta', offset_delta: 15 }),
      expect.objectContaining({ method: 'email', offset_type: 'delta', offset_delta: 30 }),
    ]);
  });

  it("puts the care system's arg_errors inline on the field they belong to", async () => {
    const before = await actionCount();
    await h.driver.slash('sophie', '/care new Deep clean room 12', { channel: '#care-team' });
    await openModal('sophie');
    // A care user the care system no longer knows (deleted since the list was shown, say).
    const gone = { type: 'external_select', selected_option: { text: { type: 'plain_text', text: 'Gone Person' }, value: '0123456789abcdef01234567' } };
    await h.driver.dispatchOn('sophie', { modal: true }, 'assignee', 'value', gone as never);
    const result = await h.driver.modal('sophie').fill('Due time', '11:00').submit();
    expect(result.outcome).toBe('errors');
    expect(h.fake.inlineError('sophie', 'Assignee')).toContain('No user with this Id');
    expect(await actionCount()).toBe(before);
  });

  it('Edit opens a Loading modal at once, then fills it with the action; saving updates the action', async () => {
    const groups = await h.app.care.notificationGroups.collect({ filters: { q: 'Maintenance' }, attributes: ['_id', 'name'], limit: 5 });
    const action = await webAppAction(h, {
      task: 'Service the stair lift',
      due: new Date('2026-03-11T15:45:00Z'),
      assigned_to: priyaCareId,
      urgent: true,
      notify_on_complete: [groups[0]!._id],
    });
    await h.control(
      `actions/${action._id}`,
      { user_tags: ['bbbbbbbbbbbbbbbbbbbbbbbb'], reminders: [{ method: 'email', offset_type: 'delta', offset_delta: 30 }] },
      'PATCH',
    );
    const { text } = await (async () => {
      const sent = await h.driver.slash('oliver', `/care show ${action.action_no}`, { channel: '#care-team' });
      const eph = await h.fake.waitFor(() => h.fake.ephemerals('oliver').find((e) => e.text === `Action ${action.action_no}`), { timeoutMs: 10_000 });
      return { text: h.fake.visibleText(eph), sent };
    })();
    expect(text).toContain('Service the stair lift');
    await h.driver.clickButton('oliver', { ephemeral: true, channel: '#care-team', text: 'Edit' });
    const filled = await h.fake.waitFor(() => (h.fake.openModal('oliver')?.view.callback_id === 'care_action_modal' ? h.fake.openModal('oliver') : undefined), {
      timeoutMs: 10_000,
    });
    expect(h.fake.calls('views.open').at(-1)!.result.ok).toBe(true);
    expect(h.fake.calls('views.update').at(-1)!.result.ok).toBe(true);
    const block = (id: string) => filled.view.blocks.find((b) => b.block_id === id) as unknown as { element: Record<string, any> };
    expect(block('task').element.initial_value).toBe('Service the stair lift');
    // 15:45 UTC is 11:45 in New York.
    expect(block('due_date').element.initial_date).toBe('2026-03-11');
    expect(block('due_time').element.initial_time).toBe('11:45');
    expect(block('assignee').element.initial_option).toMatchObject({ text: { text: 'Priya Sharma' }, value: priyaCareId });
    expect(block('urgent').element.initial_options).toHaveLength(1);
    expect(block('notify_on_complete').element.initial_options.map((o: { text: { text: string } }) => o.text.text)).toEqual(['Maintenance']);
    expect(block('reminder_0_method').element.initial_option.value).toBe('email');
    expect(block('reminder_0_when').element.initial_option.value).toBe('delta:30'); // a reminder set: More options shown
    expect(filled.view.blocks.some((b) => b.block_id === 'subject')).toBe(false); // create only
    expect(h.fake.visibleText(filled.view)).toContain('Edit care action');

    const result = await h.driver
      .modal('oliver')
      .fill('Task', 'Service the stair lift (engineer booked)')
      .fill('Urgency', [])
      .fill('Due time', '12:00')
      .submit();
    expect(result.outcome).toBe('closed');
    const updated = await h.fake.waitFor(
      async () => {
        const a = await h.control(`actions/${action._id}`);
        return a.task.includes('engineer booked') ? a : undefined;
      },
      { timeoutMs: 10_000 },
    );
    expect(updated).toMatchObject({ due: '2026-03-11 16:00:00', urgent: false, assigned_to: priyaCareId, user_tags: ['bbbbbbbbbbbbbbbbbbbbbbbb'] });
    expect(updated.notify_on_complete).toEqual([groups[0]!._id]);
    expect(updated.reminders).toEqual([expect.objectContaining({ method: 'email', offset_delta: 30 })]);
    const audit = await h.app.store.listAudit({ actionId: action._id });
    expect(audit.map((e) => [e.verb, e.userId])).toEqual([['action.update', 'U0OLIVER']]);
    // The answer Oliver clicked Edit on now shows the saved state, in place.
    await h.fake.waitFor(() => h.fake.ephemerals('oliver').find((e) => h.fake.visibleText(e).includes('engineer booked')), { timeoutMs: 10_000 });
  });

  it('Edit on a card in a channel thread updates that card in place once saved', async () => {
    const msg = h.driver.postAsUser('amelia', '#care-leads', 'Fire door on floor 2 sticks');
    await h.driver.messageShortcut('priya', 'care_create_from_message', { channel: '#care-leads', ts: msg.ts });
    await h.fake.waitFor(() => h.fake.openModal('priya'), { timeoutMs: 10_000 });
    expect((await h.driver.modal('priya').fill('Due time', '10:00').submit()).outcome).toBe('closed');
    const card = await h.fake.waitFor(() => h.fake.thread('#care-leads', msg.ts)[0], { timeoutMs: 10_000 });
    const updatesBefore = h.fake.calls('chat.update').length;

    await h.driver.clickButton('priya', { channel: '#care-leads', ts: card.ts, text: 'Edit' });
    await h.fake.waitFor(() => (h.fake.openModal('priya')?.view.callback_id === 'care_action_modal' ? true : undefined), { timeoutMs: 10_000 });
    expect((await h.driver.modal('priya').fill('Task', 'Fire door on floor 2 sticks: carpenter Tuesday').submit()).outcome).toBe('closed');

    await h.fake.waitFor(
      () => (h.fake.visibleText(h.fake.thread('#care-leads', msg.ts)[0]!, { viewer: 'amelia' }).includes('carpenter Tuesday') ? true : undefined),
      { timeoutMs: 10_000 },
    );
    expect(h.fake.thread('#care-leads', msg.ts)).toHaveLength(1); // updated, not posted again
    expect(h.fake.calls('chat.update').length).toBeGreaterThan(updatesBefore);
  });

  it('Edit opens a Loading modal before asking the care system, so a care system slower than the trigger still gets a form', async () => {
    const action = await webAppAction(h, { task: 'Repaint the day room', due: new Date('2026-03-13T10:00:00Z') });
    await h.driver.slash('oliver', `/care show ${action._id}`, { channel: '#care-team' });
    await h.fake.waitFor(() => h.fake.ephemerals('oliver').find((e) => e.text === `Action ${action.action_no}`), { timeoutMs: 10_000 });
    // Every care API answer now takes longer than a trigger_id lives (3 s): asking before views.open would lose the modal.
    await h.control('faults', { latencyMs: 3200 });
    await h.driver.clickButton('oliver', { ephemeral: true, channel: '#care-team', text: 'Edit' });
    const loading = await h.fake.waitFor(() => h.fake.openModal('oliver'), { timeoutMs: 10_000 });
    expect(h.fake.visibleText(loading.view)).toContain('Loading');
    const filled = await h.fake.waitFor(() => (h.fake.openModal('oliver')?.view.callback_id === 'care_action_modal' ? h.fake.openModal('oliver') : undefined), {
      timeoutMs: 15_000,
    });
    expect((filled.view.blocks.find((b) => b.block_id === 'task') as unknown as { element: { initial_value: string } }).element.initial_value).toBe(
      'Repaint the day room',
    );
    expect(filled.stack).toHaveLength(1); // updated in place, not stacked
  });

  it('Edit by someone not linked tells them how to link and opens nothing', async () => {
    const action = await webAppAction(h, { task: 'Water the garden', due: new Date('2026-03-12T09:00:00Z') });
    // A card in a channel (as an urgent alert or a routed notice would post it), seen by someone not linked.
    const [view] = await h.app.deps.actions.views([await h.app.care.actions.retrieve(action._id)]);
    await h.app.slack.chat.postMessage({
      channel: 'C0CARE',
      text: 'card',
      blocks: actionCard(view!, { now: h.now(), timezone: 'Europe/London', showTask: false }),
    });
    await h.driver.clickButton('visitor', { channel: '#care-team', text: 'Edit' });
    const told = await h.fake.waitFor(() => h.fake.ephemerals('visitor').find((e) => e.text.includes('/care link')), { timeoutMs: 10_000 });
    expect(told.text).toContain('linked care account');
    expect(h.fake.openModal('visitor')).toBeUndefined();
  });

  it('/care new by someone not linked tells them how to link and opens nothing', async () => {
    await h.driver.slash('visitor', '/care new Anything', { channel: '#care-team' });
    await h.fake.waitFor(() => h.fake.ephemerals('visitor').find((e) => e.text.includes('Link your care account first')), { timeoutMs: 10_000 });
    expect(h.fake.openModal('visitor')).toBeUndefined();
  });

  it('a save slower than Slack allows shows "Saving…" and then the result', async () => {
    await h.control('faults', { latencyMs: 2600 });
    await h.driver.slash('sophie', '/care new Slow save', { channel: '#care-team' });
    await openModal('sophie');
    const result = await h.driver.modal('sophie').fill('Due time', '13:00').submit();
    expect(result.outcome).toBe('updated');
    expect(h.fake.visibleText(h.fake.openModal('sophie')!.view)).toContain('Saving');
    await h.fake.waitFor(() => (h.fake.visibleText(h.fake.openModal('sophie')?.view ?? { blocks: [] }).includes('Saved') ? true : undefined), {
      timeoutMs: 15_000,
    });
    await h.control('faults', { reset: true });
    await h.fake.waitFor(async () => ((await latestCreated('U0SOPHIE')).task === 'Slow save' ? true : undefined), { timeoutMs: 10_000 });
  });
});

describe('the "Create care action" message shortcut', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ startAt: START, sandbox: { seed: 'empty' } });
    await linkDirectly(h, 'priya');
  });
  afterAll(async () => h?.close());

  it('prefills the task from the message and confirms in its thread (task shown in a private channel)', async () => {
    const msg = h.driver.postAsUser('amelia', '#care-leads', 'Mrs Jones’s hearing aid needs new batteries <!channel>');
    await h.driver.messageShortcut('priya', 'care_create_from_message', { channel: '#care-leads', ts: msg.ts });
    const modal = await h.fake.waitFor(() => (h.fake.openModal('priya')?.view.callback_id === 'care_action_modal' ? h.fake.openModal('priya') : undefined), {
      timeoutMs: 10_000,
    });
    const task = modal.view.blocks.find((b) => b.block_id === 'task') as { element: { initial_value?: string } };
    expect(task.element.initial_value).toBe('Mrs Jones’s hearing aid needs new batteries <!channel>');
    expect((await h.driver.modal('priya').fill('Due time', '16:00').submit()).outcome).toBe('closed');

    const reply = await h.fake.waitFor(() => h.fake.thread('#care-leads', msg.ts)[0], { timeoutMs: 10_000 });
    const seen = h.fake.visibleText(reply, { viewer: 'amelia' });
    expect(seen).toContain('Created by @priya');
    expect(seen).toContain('Mrs Jones’s hearing aid needs new batteries');
    expect(seen).toContain('[Complete] [Edit]');
    // The message's own text was escaped on its way back into Slack.
    expect(JSON.stringify(reply)).not.toContain('<!channel>');
    expect(h.fake.messages('#care-leads')).toHaveLength(1); // only the original; the confirmation is in the thread
  });

  it('hides the task text in a public channel that has not opted in', async () => {
    const msg = h.driver.postAsUser('sophie', '#care-team', 'Mr Evans fell in the lounge, needs a falls review');
    await h.driver.messageShortcut('priya', 'care_create_from_message', { channel: '#care-team', ts: msg.ts });
    await h.fake.waitFor(() => h.fake.openModal('priya'), { timeoutMs: 10_000 });
    expect((await h.driver.modal('priya').fill('Due time', '16:00').submit()).outcome).toBe('closed');
    const reply = await h.fake.waitFor(() => h.fake.thread('#care-team', msg.ts)[0], { timeoutMs: 10_000 });
    const seen = h.fake.visibleText(reply, { viewer: 'sophie' });
    expect(seen).toContain('Created by @priya');
    expect(seen).toContain('Task text hidden in this channel');
    expect(JSON.stringify(reply)).not.toContain('Mr Evans');
  });

  it('tells someone not linked how to link, in a DM, and opens nothing', async () => {
    const msg = h.driver.postAsUser('sophie', '#care-team', 'Order more gloves');
    await h.driver.messageShortcut('visitor', 'care_create_from_message', { channel: '#care-team', ts: msg.ts });
    await h.fake.waitFor(() => h.fake.dms('visitor').find((m) => m.text.includes('/care link')), { timeoutMs: 10_000 });
    expect(h.fake.openModal('visitor')).toBeUndefined();
  });
});
