import { describe, expect, it } from 'vitest';
import { parseActionForm } from '../../src/slack/forms/action-form.js';
import { checkDue, FAR_AHEAD_QUESTION } from '../../src/slack/forms/due-check.js';
import { formStateOf } from '../../src/slack/forms/form-state.js';
import { fitTask, isUntouchedCut } from '../../src/slack/forms/task-limit.js';
import { actionModal, hasMoreOptions } from '../../src/slack/views/action-form-modal.js';

const meta = { mode: 'create' as const, tz: 'Europe/London' };
const inputIds = (blocks: readonly { type: string; block_id?: string }[]) => blocks.flatMap((b) => (b.type === 'input' && b.block_id ? [b.block_id] : []));
const v = (x: Record<string, unknown>) => ({ value: x });

describe('the form drawn again from what was entered', () => {
  it('gives back every entry, so a redraw loses nothing (More options, a reminder’s "when")', () => {
    const first = actionModal(meta, 'sealed', { task: 'Call the GP', dueDate: '2026-03-11', more: true });
    const values = {
      task: v({ type: 'plain_text_input', value: 'Call the GP about bloods' }),
      due_time: v({ type: 'timepicker', selected_time: '15:00' }),
      assignee: v({
        type: 'external_select',
        selected_option: { value: 'c'.repeat(24), text: { type: 'plain_text', text: 'Ben Whitaker — not in Slack: they see it in the care system' } },
      }),
      urgent: v({ type: 'checkboxes', selected_options: [{ value: 'urgent' }] }),
      notify_on_complete: v({
        type: 'multi_external_select',
        selected_options: [{ value: 'a'.repeat(24), text: { type: 'plain_text', text: 'Maintenance' } }],
      }),
      pin_to_calendar: v({ type: 'radio_buttons', selected_option: { value: 'user' } }),
      reminder_1_method: v({ type: 'static_select', selected_option: { value: 'voice' } }),
      reminder_1_when: v({ type: 'static_select', selected_option: { value: 'time' } }),
      subject_type: v({ type: 'radio_buttons', selected_option: { value: 'service_user' } }),
      subject: v({ type: 'plain_text_input', value: 'b'.repeat(24) }),
    };
    const state = formStateOf({ blocks: first.blocks, state: { values } });
    expect(state).toEqual({
      task: 'Call the GP about bloods',
      dueDate: '2026-03-11', // untouched: its initial value
      dueTime: '15:00',
      assignee: { careUserId: 'c'.repeat(24), label: 'Ben Whitaker — not in Slack: they see it in the care system' },
      urgent: true,
      pin: 'user',
      notify: [{ id: 'a'.repeat(24), name: 'Maintenance' }],
      reminders: [{ offset: 'none' }, { method: 'voice', offset: 'time' }],
      subject: { type: 'service_user', id: 'b'.repeat(24) },
      more: true,
    });
    // Drawn again: reminder 2 now has its time picker; the entries are the starting values.
    const again = actionModal(meta, 'sealed', state);
    expect(inputIds(again.blocks)).toContain('reminder_1_time');
    expect(inputIds(again.blocks)).not.toContain('reminder_0_time');
    const task = again.blocks.find((b) => b.block_id === 'task') as { element: { initial_value?: string } };
    expect(task.element.initial_value).toBe('Call the GP about bloods');
  });

  it('reads values only of fields the form showed, and keeps a folded form folded', () => {
    const folded = actionModal(meta, 'sealed', {});
    const values = {
      task: v({ value: 'Mop the hall' }),
      due_date: v({ selected_date: '2026-03-12' }),
      due_time: v({ selected_time: '09:00' }),
      pin_to_calendar: v({ selected_option: { value: 'user' } }),
      reminder_0_method: v({ selected_option: { value: 'telepathy' } }),
    };
    expect(formStateOf({ blocks: folded.blocks, state: { values } })).toMatchObject({ more: false, pin: null, reminders: [] });
    const parsed = parseActionForm(values, 'Europe/London', 'create', new Set(inputIds(folded.blocks)));
    expect(parsed).toMatchObject({ ok: true, value: { task: 'Mop the hall', pin: null, reminders: [] } });
  });

  it('refuses a task over 3,000 characters under the task field, saying its length and the limit', () => {
    const values = { task: v({ value: 'y'.repeat(3510) }), due_date: v({ selected_date: '2026-03-12' }), due_time: v({ selected_time: '09:00' }) };
    expect(parseActionForm(values, 'Europe/London', 'create')).toEqual({
      ok: false,
      errors: { task: 'The task is 3,510 characters; the most is 3,000. Shorten it by 510.' },
    });
  });

  it('puts a task longer than the form holds in it cut, remembers the cut, and knows the cut text when it comes back unchanged', () => {
    const whole = `${'a'.repeat(3505)} tail`;
    const fitted = fitTask(whole);
    expect(fitted.task).toHaveLength(3000);
    expect(fitted.task.endsWith('…')).toBe(true);
    expect(fitted.cut).toEqual({ from: 3510, digest: expect.stringMatching(/^[0-9a-f]{16}$/) });
    expect(isUntouchedCut(fitted.task, fitted.cut)).toBe(true);
    expect(isUntouchedCut(`${fitted.task.slice(0, 2000)}`, fitted.cut)).toBe(false);
    expect(fitTask('Call the GP')).toEqual({ task: 'Call the GP' });
    // The form says so under the task, from the sealed metadata alone (so a redraw keeps it).
    const form = actionModal({ ...meta, taskCut: fitted.cut! }, 'sealed', { task: fitted.task });
    expect(JSON.stringify(form.blocks)).toContain('Your text is 3,510 characters; a task holds at most 3,000.');
    expect(actionModal(meta, 'sealed', { task: 'x' }).blocks.some((b) => b.block_id === 'task_notice')).toBe(false);
  });

  it('opens Edit with More options when pin or a reminder is set', () => {
    expect(hasMoreOptions({ task: 'x' })).toBe(false);
    expect(hasMoreOptions({ pin: 'location' })).toBe(true);
    expect(hasMoreOptions({ reminders: [{ method: 'email', offset: 'none' }] })).toBe(true);
  });

  it('maps a reminder’s when to the care API’s offset; a "time" with no picker shown asks under "when"', () => {
    const shown = new Set(['task', 'due_date', 'due_time', 'reminder_0_method', 'reminder_0_when', 'reminder_1_method', 'reminder_1_when']);
    const base = { task: v({ value: 'x' }), due_date: v({ selected_date: '2026-03-12' }), due_time: v({ selected_time: '09:00' }) };
    const ok = parseActionForm(
      {
        ...base,
        reminder_0_method: v({ selected_option: { value: 'email' } }),
        reminder_0_when: v({ selected_option: { value: 'delta:45' } }),
        reminder_1_method: v({ selected_option: { value: 'none' } }),
        reminder_1_when: v({ selected_option: { value: 'delta:30' } }),
      },
      'Europe/London',
      'edit',
      shown,
    );
    expect(ok).toMatchObject({ ok: true, value: { reminders: [{ method: 'email', offset_type: 'delta', offset_delta: 45 }] } });
    const noPicker = parseActionForm(
      { ...base, reminder_0_method: v({ selected_option: { value: 'voice' } }), reminder_0_when: v({ selected_option: { value: 'time' } }) },
      'Europe/London',
      'edit',
      shown,
    );
    expect(noPicker).toEqual({ ok: false, errors: { reminder_0_when: 'Choose the time of day.' } });
  });
});

describe('checks on the due time', () => {
  const now = new Date('2026-03-10T14:05:30Z');
  it('refuses the past with the time now in the person’s zone, under the time (or the date, for an earlier day)', () => {
    expect(checkDue(new Date('2026-03-10T14:00:00Z'), now, 'Europe/London')).toEqual({
      kind: 'refuse',
      block: 'due_time',
      message: 'That is in the past: it is now 14:05 (Europe/London), Tuesday 10 March. Pick a later time.',
    });
    // 22:30 on the 9th in Kolkata, where it is already 19:35 on the 10th.
    expect(checkDue(new Date('2026-03-09T17:00:00Z'), now, 'Asia/Kolkata')).toMatchObject({
      block: 'due_date',
      message: expect.stringContaining('it is now 19:35 (Asia/Kolkata), Tuesday 10 March'),
    });
    expect(checkDue(new Date('2026-03-10T14:05:00Z'), now, 'Europe/London')).toEqual({ kind: 'ok' }); // this minute
  });

  it('lets an edit keep the due time the action had, even when past', () => {
    const was = new Date('2026-03-01T09:00:00Z');
    expect(checkDue(was, now, 'Europe/London', { dueWas: was.toISOString() })).toEqual({ kind: 'ok' });
    expect(checkDue(new Date('2026-03-01T10:00:00Z'), now, 'Europe/London', { dueWas: was.toISOString() }).kind).toBe('refuse');
  });

  it('asks about more than a year ahead once; the same instant confirmed passes', () => {
    const far = new Date('2027-03-10T15:00:00Z');
    expect(checkDue(new Date('2027-03-10T14:00:00Z'), now, 'Europe/London')).toEqual({ kind: 'ok' }); // a year ahead to the hour
    expect(checkDue(far, now, 'Europe/London')).toEqual({ kind: 'ask', message: FAR_AHEAD_QUESTION });
    expect(checkDue(far, now, 'Europe/London', { farAheadOk: far.toISOString() })).toEqual({ kind: 'ok' });
    expect(checkDue(new Date('2027-04-10T15:00:00Z'), now, 'Europe/London', { farAheadOk: far.toISOString() }).kind).toBe('ask');
  });
});
