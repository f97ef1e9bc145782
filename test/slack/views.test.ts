import { describe, expect, it } from 'vitest';
import { argErrorsToFields, parseActionForm } from '../../src/slack/forms/action-form.js';
import { renderActionGroups } from '../../src/slack/views/action-list.js';
import { actionCard } from '../../src/slack/views/action-card.js';
import { actionModal } from '../../src/slack/views/action-form-modal.js';
import { homeView } from '../../src/slack/views/home-view.js';
import { renderMorningSummary } from '../../src/slack/views/morning-summary.js';
import { createSignedMetadata, metadataKey } from '../../src/slack/sealed/signed-metadata.js';
import type { ActionView } from '../../src/services/action-model.js';

const now = new Date('2026-11-21T10:00:00Z');
const ctx = { now, timezone: 'Europe/London', showTask: true };
const action = (i: number, extra: Partial<ActionView> = {}): ActionView => ({
  id: i.toString(16).padStart(24, '0'),
  actionNo: String(1000 + i),
  task: `Task ${i}`,
  due: new Date(now.getTime() - 3600_000),
  urgent: false,
  completed: null,
  assignee: { slackUserId: 'U1' },
  ...extra,
});
const text = (blocks: unknown) => JSON.stringify(blocks);

describe('action card', () => {
  it('escapes what a person typed, so a task cannot ping the channel', () => {
    const card = actionCard(action(1, { task: 'Ring <!channel> & <@U999> now' }), ctx);
    expect(text(card)).toContain('Ring &lt;!channel&gt; &amp; &lt;@U999&gt; now');
    expect(text(card)).not.toContain('<!channel>');
  });

  it('hides task text where it may not be shown, but keeps number, due and assignee', () => {
    const card = text(actionCard(action(2, { task: 'Mrs B needs her insulin' }), { ...ctx, showTask: false }));
    expect(card).not.toContain('insulin');
    expect(card).toContain('#1002');
    expect(card).toContain('<!date^');
    expect(card).toContain('<@U1>');
  });

  it('offers Complete and Edit on an open action and Reopen on a complete one, marking overdue and urgent', () => {
    const open = text(actionCard(action(3, { urgent: true }), ctx));
    expect(open).toContain('"Complete"');
    expect(open).toContain('Overdue');
    expect(open).toContain('Urgent');
    const done = text(actionCard(action(3, { completed: now }), ctx));
    expect(done).toContain('"Reopen"');
    expect(done).not.toContain('"Complete"');
  });
});

describe('lists within Block Kit limits', () => {
  it('never exceeds the block budget and says how many did not fit', () => {
    const many = Array.from({ length: 300 }, (_, i) => action(i));
    const list = renderActionGroups([{ label: 'Overdue', actions: many }], ctx, { maxBlocks: 50, buttons: 'full' });
    expect(list.blocks.length).toBeLessThanOrEqual(50);
    expect(list.shown + list.hidden).toBe(300);
    expect(text(list.blocks)).toContain(`${list.hidden} more`);
  });

  it('the Home tab stays under 100 blocks and offers more', () => {
    const many = Array.from({ length: 120 }, (_, i) => action(i));
    const view = homeView({ linked: true, groups: [{ label: 'Overdue', actions: many }], limit: 500 }, ctx);
    expect(view.blocks.length).toBeLessThanOrEqual(100);
    expect(text(view.blocks)).toContain('Show more');
  });
});

describe('the action modal and its form', () => {
  it('fits Slack modal limits', () => {
    const meta = {
      mode: 'edit' as const,
      actionId: 'a'.repeat(24),
      tz: 'America/Argentina/ComodRivadavia',
      channelId: 'C0123456789AB',
      threadTs: '1773136800.123456',
      origin: {
        channel: 'C0123456789AB',
        responseUrl: `https://hooks.slack.com/actions/T0123456789/${'9'.repeat(16)}/${'x'.repeat(24)}`,
        blockId: `list~${'w'.repeat(200)}~card_${'a'.repeat(24)}`,
      },
    };
    const sealed = createSignedMetadata({ key: metadataKey('secret'), now: () => now }).encode(meta, { teamId: 'T1', userId: 'U1', form: 'care_action_modal' });
    const view = actionModal(meta, sealed, { task: 'x'.repeat(5000) });
    expect(view.title.text.length).toBeLessThanOrEqual(24);
    expect(view.private_metadata!.length).toBeLessThanOrEqual(3000);
    expect(view.blocks.length).toBeLessThanOrEqual(100);
  });

  const filled = (over: Record<string, unknown> = {}) => ({
    task: { value: { value: '  Call the GP  ' } },
    due_date: { value: { selected_date: '2026-03-29' } },
    due_time: { value: { selected_time: '09:00' } },
    urgent: { value: { selected_options: [{ value: 'urgent' }] } },
    reminder_0_method: { value: { selected_option: { value: 'email' } } },
    reminder_0_when: { value: { selected_option: { value: 'delta:15' } } },
    ...over,
  });

  it('turns the local due date and time into UTC in the person’s zone (after the spring change)', () => {
    const r = parseActionForm(filled(), 'Europe/London', 'create');
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.due.toISOString()).toBe('2026-03-29T08:00:00.000Z');
    expect(r.value.task).toBe('Call the GP');
    expect(r.value.urgent).toBe(true);
    expect(r.value.reminders).toEqual([{ method: 'email', offset_type: 'delta', offset_delta: 15 }]);
  });

  it('puts an error under each wrong field', () => {
    const r = parseActionForm(
      filled({
        task: { value: { value: '   ' } },
        due_time: { value: {} },
        reminder_0_when: { value: { selected_option: { value: 'delta:7' } } },
        subject: { value: { value: 'zzz' } },
      }),
      'Europe/London',
      'create',
    );
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(Object.keys(r.errors).sort()).toEqual(['due_time', 'reminder_0_when', 'subject', 'task']);
  });

  it('survives a damaged or hostile submission', () => {
    expect(parseActionForm('nonsense', 'Europe/London', 'edit').ok).toBe(false);
    expect(parseActionForm({ task: { value: { value: 42 } } }, 'Europe/London', 'edit').ok).toBe(false);
  });

  it('maps the API’s arg_errors onto the modal fields', () => {
    expect(argErrorsToFields({ due: ['Not a valid date.'], 'reminders_1-offset_delta': ['Not a valid choice.'], weird: ['x'] })).toEqual({
      due_date: 'Not a valid date.',
      reminder_1_when: 'Not a valid choice.',
      task: 'x',
    });
  });
});

describe('a morning summary DM', () => {
  const content = (n: number) => ({
    title: 'Saturday 21 November',
    overdue: n,
    today: 0,
    urgent: 0,
    groups: [{ label: ':warning: Overdue', actions: Array.from({ length: n }, (_, i) => action(i)) }],
    schedule: { time: '07:30', days: 'weekdays' as const, timezone: 'Europe/London' },
  });

  it('a long list fits one message, says how many more, and points to /care mine', () => {
    const dm = renderMorningSummary(content(120), ctx);
    expect(dm.blocks!.length).toBeLessThanOrEqual(50);
    const shown = text(dm.blocks);
    expect(shown).toMatch(/and \d+ more not shown here/);
    expect(shown).toContain('/care mine');
    expect(dm.text).not.toContain('Task');
  });

  it('an empty day is one friendly line with how to change it', () => {
    const dm = renderMorningSummary(content(0), ctx);
    expect(text(dm.blocks)).toContain('Nothing overdue or due today');
    expect(text(dm.blocks)).toContain('07:30 on weekdays (Europe/London)');
    expect(text(dm.blocks)).toContain('/care summary off');
  });
});
