import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { command, dayOn, type Harness, linkDirectly, startHarness, webAppAction } from './harness.js';

/**
 * The create/edit form at a glance: default assignee, "More options", a
 * reminder as how + when, checks on the due time, and `/care new` reading the
 * due time from the task's words.
 * Clock: Tuesday 10 March 2026, 14:05 UTC = 14:05 in London (GMT), 10:05 in New York (EDT).
 */
const START = new Date('2026-03-10T14:05:00Z');

type Block = { type: string; block_id?: string; element?: Record<string, any>; elements?: Record<string, any>[] };

describe('the action form', () => {
  let h: Harness;
  let sophieCareId: string;

  const openForm = async (user: string) =>
    h.fake.waitFor(() => (h.fake.openModal(user)?.view.callback_id === 'care_action_modal' ? h.fake.openModal(user) : undefined), { timeoutMs: 10_000 });
  const blocks = (user: string) => (h.fake.openModal(user)?.view.blocks ?? []) as unknown as Block[];
  const block = (user: string, id: string) => blocks(user).find((b) => b.block_id === id);
  const labels = (user: string) => blocks(user).flatMap((b) => (b.type === 'input' ? [String((b as { label?: { text?: string } }).label?.text)] : []));
  const created = async (slackUserId: string, task: string) =>
    h.fake.waitFor(
      async () => {
        const entries = (await h.app.store.listAudit({ limit: 200 })).filter((e) => e.verb === 'action.create' && e.userId === slackUserId);
        for (const e of entries) {
          const a = await h.control(`actions/${e.actionId}`);
          if (a.task === task) return a;
        }
        return undefined;
      },
      { timeoutMs: 10_000 },
    );

  beforeAll(async () => {
    h = await startHarness({ startAt: START, sandbox: { seed: 'empty' } });
    sophieCareId = await linkDirectly(h, 'sophie');
    await linkDirectly(h, 'oliver');
  });
  afterAll(async () => h?.close());
  beforeEach(async () => {
    await h.setTime(START);
    for (const u of ['sophie', 'oliver']) while (h.fake.openModal(u)) await h.driver.modal(u).close();
  });

  it('starts with the person creating it as the assignee, so it shows in their own list', async () => {
    await h.driver.slash('sophie', '/care new Restock the dressing trolley', { channel: '#care-team' });
    await openForm('sophie');
    expect(block('sophie', 'assignee')?.element?.initial_option).toMatchObject({ text: { text: 'Sophie Marsh' }, value: sophieCareId });
    expect((await h.driver.modal('sophie').fill('Due time', '17:00').submit()).outcome).toBe('closed');
    expect((await created('U0SOPHIE', 'Restock the dressing trolley')).assigned_to).toBe(sophieCareId);
    const { text } = await command(h, 'sophie', '/care mine');
    expect(text).toContain('Restock the dressing trolley');

    // The New button and the message shortcut start the same way.
    const msg = h.driver.postAsUser('priya', '#care-team', 'Bin store gate is broken');
    await h.driver.messageShortcut('oliver', 'care_create_from_message', { channel: '#care-team', ts: msg.ts });
    await openForm('oliver');
    expect(block('oliver', 'assignee')?.element?.initial_option?.text?.text).toBe('Oliver Bennett');
  });

  it('shows task, due, assignee, urgent and notify at a glance; More options adds the rest and keeps what was typed', async () => {
    await h.driver.slash('sophie', '/care new', { channel: '#care-team' });
    await openForm('sophie');
    expect(labels('sophie')).toEqual(['Task', 'Due date', 'Due time', 'Assignee', 'Urgency', 'Notify on completion']);
    expect(h.fake.visibleText(h.fake.openModal('sophie')!.view)).toContain('[More options]');

    const modal = h.driver.modal('sophie');
    await modal
      .fill('Task', 'Check the fire doors on floor 2')
      .fill('Due date', '2026-03-12')
      .fill('Due time', '09:30')
      .fill('Assignee', 'Oliver Bennett')
      .fill('Urgency', ['Urgent (shows at the top of dashboards)'])
      .fill('Notify on completion', ['Maintenance'])
      .clickButton('More options');
    await h.fake.waitFor(() => (labels('sophie').includes('Pin to calendar') ? true : undefined), { timeoutMs: 10_000 });
    expect(labels('sophie')).toEqual([
      'Task',
      'Due date',
      'Due time',
      'Assignee',
      'Urgency',
      'Notify on completion',
      'Pin to calendar',
      'Reminder 1: how',
      'Reminder 1: when',
      'Reminder 2: how',
      'Reminder 2: when',
      'Two staff',
      'Relates to',
      'Care enquiry or service user Id',
    ]);
    expect(h.fake.visibleText(h.fake.openModal('sophie')!.view)).not.toContain('[More options]');
    // What was typed is still there, and is what gets saved.
    expect(block('sophie', 'task')?.element?.initial_value).toBe('Check the fire doors on floor 2');
    expect(block('sophie', 'assignee')?.element?.initial_option?.text?.text).toBe('Oliver Bennett');
    expect(block('sophie', 'notify_on_complete')?.element?.initial_options.map((o: { text: { text: string } }) => o.text.text)).toEqual(['Maintenance']);
    const twoStaff = 'Needs two staff (its urgent alert asks until two people answer)';
    expect((await modal.fill('Pin to calendar', "The location's calendar").fill('Two staff', [twoStaff]).submit()).outcome).toBe('closed');
    const action = await created('U0SOPHIE', 'Check the fire doors on floor 2');
    expect(action).toMatchObject({ due: '2026-03-12 09:30:00', urgent: true, pin_to_calendar: 'location' });
    expect(action.notify_on_complete).toHaveLength(1);
    // Two staff is the app's own mark (issue 33), audited.
    await h.fake.waitFor(async () => ((await h.app.store.twoStaffMark(h.fake.teamId, String(action._id))) ? true : undefined), {
      timeoutMs: 10_000,
      message: 'not marked two staff',
    });
    expect((await h.app.store.listAudit({ actionId: String(action._id), verb: 'two-staff' }))[0]).toMatchObject({ userId: 'U0SOPHIE', details: { on: true } });
  });

  it('a reminder is how and when; "at a time of day" brings a time picker, and each maps to the care system’s reminder', async () => {
    await h.driver.slash('sophie', '/care new Weigh Mr Patel', { channel: '#care-team' });
    await openForm('sophie');
    const modal = h.driver.modal('sophie');
    await modal.fill('Due date', '2026-03-11').fill('Due time', '10:00').clickButton('More options');
    await h.fake.waitFor(() => (labels('sophie').includes('Reminder 1: when') ? true : undefined), { timeoutMs: 10_000 });
    const when = block('sophie', 'reminder_0_when')!;
    expect(when.element!.options.map((o: { text: { text: string } }) => o.text.text)).toEqual([
      'At the due time',
      '15 minutes before',
      '30 minutes before',
      '1 hour before',
      'At a time of day that day',
    ]);
    expect(block('sophie', 'reminder_0_method')!.element!.options.map((o: { text: { text: string } }) => o.text.text)).toEqual([
      'No reminder',
      'Email',
      'SMS or WhatsApp',
      'Voice call',
      "The person's preference",
    ]);
    expect(labels('sophie')).not.toContain('Reminder 1: time of day');

    await modal.fill('Reminder 1: how', 'Voice call').fill('Reminder 1: when', 'At a time of day that day').filled();
    await h.fake.waitFor(() => (labels('sophie').includes('Reminder 1: time of day') ? true : undefined), { timeoutMs: 10_000 });
    // Changing its mind takes the picker away again; choosing it once more brings it back.
    await modal.fill('Reminder 1: when', '1 hour before').filled();
    await h.fake.waitFor(() => (labels('sophie').includes('Reminder 1: time of day') ? undefined : true), { timeoutMs: 10_000 });
    await modal.fill('Reminder 1: when', 'At a time of day that day').fill('Reminder 1: time of day', '07:30');
    await modal.fill('Reminder 2: how', "The person's preference").fill('Reminder 2: when', 'At the due time');
    expect((await modal.submit()).outcome).toBe('closed');
    const action = await created('U0SOPHIE', 'Weigh Mr Patel');
    expect(action.reminders).toEqual([
      expect.objectContaining({ method: 'voice', offset_type: 'time', offset_time_str: '07:30' }),
      expect.objectContaining({ method: 'user_pref', offset_type: 'none' }),
    ]);
  });

  it('Edit opens with More options shown when pin or a reminder is set, keeps a 10-minute reminder, and can clear one', async () => {
    const plain = await webAppAction(h, { task: 'Water the plants', due: new Date('2026-03-12T09:00:00Z') });
    await command(h, 'sophie', `/care show ${plain.action_no}`);
    await h.driver.clickButton('sophie', { ephemeral: true, channel: '#care-team', text: 'Edit' });
    await openForm('sophie');
    expect(labels('sophie')).not.toContain('Pin to calendar');
    expect(h.fake.visibleText(h.fake.openModal('sophie')!.view)).toContain('[More options]');
    await h.driver.modal('sophie').close();

    const withReminders = await webAppAction(h, { task: 'Change the dressing', due: new Date('2026-03-12T11:00:00Z') });
    await h.control(
      `actions/${withReminders._id}`,
      {
        reminders: [
          { method: 'sms_or_whatsapp', offset_type: 'delta', offset_delta: 10 },
          { method: 'email', offset_type: 'delta', offset_delta: 60 },
        ],
      },
      'PATCH',
    );
    await command(h, 'sophie', `/care show ${withReminders.action_no}`);
    await h.driver.clickButton('sophie', { ephemeral: true, channel: '#care-team', text: 'Edit' });
    await openForm('sophie');
    expect(labels('sophie')).toContain('Reminder 1: when');
    expect(labels('sophie')).not.toContain('Relates to'); // create only
    const first = block('sophie', 'reminder_0_when')!.element!;
    expect(first.initial_option.text.text).toBe('10 minutes before');
    expect(first.options.map((o: { text: { text: string } }) => o.text.text)).toContain('10 minutes before');
    expect(block('sophie', 'reminder_1_when')!.element!.options.map((o: { text: { text: string } }) => o.text.text)).not.toContain('10 minutes before');

    // Saving a task change keeps the 10 minutes; "No reminder" clears the second.
    const result = await h.driver.modal('sophie').fill('Task', 'Change the dressing (left leg)').fill('Reminder 2: how', 'No reminder').submit();
    expect(result.outcome).toBe('closed');
    const saved = await h.fake.waitFor(
      async () => {
        const a = await h.control(`actions/${withReminders._id}`);
        return a.task.includes('left leg') ? a : undefined;
      },
      { timeoutMs: 10_000 },
    );
    expect(saved.reminders).toEqual([expect.objectContaining({ method: 'sms_or_whatsapp', offset_type: 'delta', offset_delta: 10 })]);
  });

  it('refuses a due time in the past inline, saying what time it is now in the person’s zone', async () => {
    await h.driver.slash('sophie', '/care new Call the pharmacy', { channel: '#care-team' });
    await openForm('sophie');
    const modal = h.driver.modal('sophie');
    expect((await modal.fill('Due time', '13:00').submit()).outcome).toBe('errors');
    expect(modal.errorFor('Due time')).toMatch(/^That is in the past: it is now 14:0\d \(Europe\/London\), Tuesday 10 March\./);
    expect((await modal.fill('Due date', '2026-03-09').submit()).outcome).toBe('errors');
    expect(modal.errorFor('Due date')).toContain('That is in the past');
    expect((await modal.fill('Due date', '2026-03-10').fill('Due time', '15:00').submit()).outcome).toBe('closed');
    expect((await created('U0SOPHIE', 'Call the pharmacy')).due).toBe('2026-03-10 15:00:00');

    // Oliver reads his own zone's time.
    await h.driver.slash('oliver', '/care new Call the optician', { channel: '#care-team' });
    await openForm('oliver');
    expect((await h.driver.modal('oliver').fill('Due time', '09:00').submit()).outcome).toBe('errors');
    expect(h.fake.inlineError('oliver', 'Due time')).toMatch(/it is now 10:0\d \(America\/New_York\), Tuesday 10 March/);
  });

  it('an overdue action can still be edited without moving its due time', async () => {
    const overdue = await webAppAction(h, { task: 'Order incontinence pads', due: new Date('2026-03-09T09:00:00Z') });
    await command(h, 'sophie', `/care show ${overdue.action_no}`);
    await h.driver.clickButton('sophie', { ephemeral: true, channel: '#care-team', text: 'Edit' });
    await openForm('sophie');
    expect((await h.driver.modal('sophie').fill('Task', 'Order incontinence pads (size M)').submit()).outcome).toBe('closed');
    const saved = await h.fake.waitFor(
      async () => {
        const a = await h.control(`actions/${overdue._id}`);
        return a.task.includes('size M') ? a : undefined;
      },
      { timeoutMs: 10_000 },
    );
    expect(saved.due).toBe('2026-03-09 09:00:00');
  });

  it('asks once about a due time more than a year ahead; the same time submitted again is kept', async () => {
    await h.driver.slash('sophie', '/care new Renew the lift certificate', { channel: '#care-team' });
    await openForm('sophie');
    const modal = h.driver.modal('sophie');
    const creates = async () => (await h.app.store.listAudit({ limit: 500 })).filter((e) => e.verb === 'action.create').length;
    const before = await creates();
    const first = await modal.fill('Due date', '2027-06-01').fill('Due time', '10:00').fill('Urgency', ['Urgent (shows at the top of dashboards)']).submit();
    expect(first.outcome).toBe('updated');
    const asked = h.fake.openModal('sophie')!.view;
    expect(h.fake.visibleText(asked)).toContain('More than a year ahead: check the date. Submit again to keep it.');
    // Nothing typed is lost.
    expect(block('sophie', 'due_date')?.element?.initial_date).toBe('2027-06-01');
    expect(block('sophie', 'urgent')?.element?.initial_options).toHaveLength(1);
    expect(await creates()).toBe(before); // nothing saved yet

    // Another far date is asked about again; the confirmed one goes through.
    expect((await modal.fill('Due date', '2027-07-01').submit()).outcome).toBe('updated');
    expect((await modal.submit()).outcome).toBe('closed');
    expect(await created('U0SOPHIE', 'Renew the lift certificate')).toMatchObject({ due: '2027-07-01 09:00:00', urgent: true });
  });

  it('draws the form again only from hidden form data sealed for that person', async () => {
    await h.driver.slash('oliver', '/care new Oliver’s form', { channel: '#care-team' });
    const olivers = (await openForm('oliver')).view.private_metadata;
    await h.driver.slash('sophie', '/care new Sophie’s form', { channel: '#care-team' });
    await openForm('sophie');
    // Sophie's client sends Oliver's sealed metadata with her click.
    h.fake.store.state.modals.U0SOPHIE!.at(-1)!.view.private_metadata = olivers;
    await h.driver.modal('sophie').clickButton('More options');
    await h.fake.waitFor(() => (h.fake.visibleText(h.fake.openModal('sophie')!.view).includes('arrived damaged or expired') ? true : undefined), {
      timeoutMs: 10_000,
    });
    expect(labels('sophie')).toEqual([]);
  });

  it('/care new Call the GP tomorrow 3pm prefills the due date and time and leaves the words out of the task', async () => {
    await h.driver.slash('sophie', '/care new Call the GP tomorrow 3pm', { channel: '#care-team' });
    await openForm('sophie');
    expect(block('sophie', 'task')?.element?.initial_value).toBe('Call the GP');
    expect(block('sophie', 'due_date')?.element?.initial_date).toBe('2026-03-11');
    expect(block('sophie', 'due_time')?.element?.initial_time).toBe('15:00');
    expect((await h.driver.modal('sophie').submit()).outcome).toBe('closed');
    expect((await created('U0SOPHIE', 'Call the GP')).due).toBe('2026-03-11 15:00:00');

    // In New York, "tues 9am" is next Tuesday 09:00 there (9am today has passed); words that are not a date stay.
    await h.driver.slash('oliver', '/care new Sat with Mrs Jones re physio tues 9am', { channel: '#care-team' });
    await openForm('oliver');
    expect(block('oliver', 'task')?.element?.initial_value).toBe('Sat with Mrs Jones re physio');
    expect(block('oliver', 'due_date')?.element?.initial_date).toBe('2026-03-17');
    expect(block('oliver', 'due_time')?.element?.initial_time).toBe('09:00');
  });

  describe('typed due times that would go wrong without a word', () => {
    const formText = (user: string) => h.fake.visibleText(h.fake.openModal(user)!.view, { viewer: user });
    /** A day `days` from today as a British person types it: 8/3. */
    const typedDay = (days: number) => {
      const [, m, d] = dayOn(h, days).split('-').map(Number) as [number, number, number];
      return `${d}/${m}`;
    };

    it('words after /care that are no command are read as /care new, and the form says so', async () => {
      await h.driver.slash('sophie', '/care Call the GP tomorrow 3pm', { channel: '#care-team' });
      await openForm('sophie');
      expect(formText('sophie')).toContain('Read as /care new: “Call” is not a /care command (/care help lists them).');
      expect(block('sophie', 'task')?.element?.initial_value).toBe('Call the GP');
      expect(block('sophie', 'due_date')?.element?.initial_date).toBe(dayOn(h, 1));
      expect(block('sophie', 'due_time')?.element?.initial_time).toBe('15:00');
      expect((await h.driver.modal('sophie').submit()).outcome).toBe('closed');
      expect((await created('U0SOPHIE', 'Call the GP')).due).toBe(`${dayOn(h, 1)} 15:00:00`);
    });

    it('a date just gone stays that date and is shown as past, not moved a year on; saving it says the time now', async () => {
      const typed = `${typedDay(-2)} 14:00`;
      await h.driver.slash('sophie', `/care new Check fridge temps ${typed}`, { channel: '#care-team' });
      await openForm('sophie');
      expect(block('sophie', 'task')?.element?.initial_value).toBe('Check fridge temps');
      expect(block('sophie', 'due_date')?.element?.initial_date).toBe(dayOn(h, -2));
      expect(block('sophie', 'due_time')?.element?.initial_time).toBe('14:00');
      expect(formText('sophie')).toMatch(new RegExp(`“${typed}” has passed: it is now 14:0\\d \\(Europe/London\\), Tuesday 10 March\\. Pick a later time\\.`));
      const modal = h.driver.modal('sophie');
      expect((await modal.submit()).outcome).toBe('errors');
      expect(modal.errorFor('Due date')).toMatch(/^That is in the past: it is now 14:0\d \(Europe\/London\), Tuesday 10 March\./);
    });

    it('“yesterday 3pm” is read (and said to have passed) instead of staying in the task with no time', async () => {
      await h.driver.slash('sophie', '/care new Ring the family yesterday 3pm', { channel: '#care-team' });
      await openForm('sophie');
      expect(block('sophie', 'task')?.element?.initial_value).toBe('Ring the family');
      expect(block('sophie', 'due_date')?.element?.initial_date).toBe(dayOn(h, -1));
      expect(block('sophie', 'due_time')?.element?.initial_time).toBe('15:00');
      expect(formText('sophie')).toContain('“yesterday 3pm” has passed: it is now');
    });

    it('taking the words out leaves the rest as typed: “Check :fire: doors” keeps its space', async () => {
      await h.driver.slash('sophie', '/care new Check :fire: doors, bay 2 tomorrow 10am', { channel: '#care-team' });
      await openForm('sophie');
      expect(block('sophie', 'task')?.element?.initial_value).toBe('Check :fire: doors, bay 2');
    });

    it('words that look like a date but were not read are left in the task, and the form says which', async () => {
      await h.driver.slash('sophie', '/care new Give 2 tablets at 8 tomorrow', { channel: '#care-team' });
      await openForm('sophie');
      expect(block('sophie', 'task')?.element?.initial_value).toBe('Give 2 tablets at 8 tomorrow');
      expect(formText('sophie')).toContain('Not read as a date: “at 8 tomorrow”. They are left in the task; set the due date and time here.');
      // Still said after More options draws the form again.
      await h.driver.modal('sophie').clickButton('More options');
      await h.fake.waitFor(() => (labels('sophie').includes('Pin to calendar') ? true : undefined), { timeoutMs: 10_000 });
      expect(formText('sophie')).toContain('Not read as a date: “at 8 tomorrow”.');
    });
  });
});
