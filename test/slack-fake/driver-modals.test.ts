import type { App, ViewOutput } from '@slack/bolt';
import { afterEach, describe, expect, it } from 'vitest';
import { manualClock, REQUIRED_FIELD, startSlackFake, TROUBLE_CONNECTING, type SlackFake, type SlackFakeOptions } from '../../dev/slack-fake/index.js';
import { startBoltApp } from './bolt-app.js';

const plain = (text: string) => ({ type: 'plain_text' as const, text });
const option = (text: string, value: string) => ({ text: plain(text), value });
const input = (blockId: string, label: string, element: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  type: 'input',
  block_id: blockId,
  label: plain(label),
  element: { action_id: 'v', ...element },
  ...extra,
});

const newActionModal = {
  type: 'modal' as const,
  callback_id: 'new_action',
  title: plain('New action'),
  submit: plain('Create'),
  close: plain('Cancel'),
  blocks: [
    input('title', 'Title', { type: 'plain_text_input', max_length: 80 }),
    input('due', 'Due date', { type: 'datepicker' }),
    input('notes', 'Notes', { type: 'plain_text_input', multiline: true }, { optional: true }),
  ],
};

let fake: SlackFake;
let stop: (() => Promise<void>) | undefined;
afterEach(async () => {
  await stop?.();
  stop = undefined;
  await fake.close();
});

async function boot(register: (app: App) => void, options: SlackFakeOptions = {}) {
  fake = await startSlackFake({ postRateLimit: false, ...options });
  const started = await startBoltApp(fake, (app) => {
    app.command('/care', async ({ ack, command, client }) => {
      await ack();
      await client.views.open({ trigger_id: command.trigger_id, view: newActionModal as never });
    });
    register(app);
  });
  stop = started.stop;
  return started.driver;
}

describe('modals', () => {
  it('opens with views.open, shows inline errors from the app, then closes on success', async () => {
    const submissions: ViewOutput[] = [];
    const driver = await boot((app) =>
      app.view('new_action', async ({ ack, view, client, body }) => {
        submissions.push(view);
        const due = view.state.values.due?.v?.selected_date ?? '';
        if (due < '2026-01-01') return void (await ack({ response_action: 'errors', errors: { due: 'Pick a date from today on' } }));
        await ack();
        await client.chat.postMessage({ channel: body.user.id, text: `Created ${view.state.values.title?.v?.value} due ${due}` });
      }),
    );
    await driver.slash('bob', '/care new');
    const first = await driver.modal('bob').fill('Title', 'Call GP').fill('Due date', '2025-11-22').submit();
    expect(first.outcome).toBe('errors');
    expect(fake.inlineError('bob', 'Due date')).toBe('Pick a date from today on');
    expect(fake.inlineError('bob', 'Title')).toBeUndefined();
    expect(fake.openModal('bob')?.view.title?.text).toBe('New action');

    const second = await driver.modal('bob').fill('Due date', '2026-11-22').submit();
    expect(second.outcome).toBe('closed');
    expect(fake.openModal('bob')).toBeUndefined();
    await fake.waitFor(() => fake.dms('bob').length === 1);
    expect(fake.dms('bob')[0]?.text).toBe('Created Call GP due 2026-11-22');
    expect(submissions[1]?.state.values).toEqual({
      title: { v: { type: 'plain_text_input', value: 'Call GP' } },
      due: { v: { type: 'datepicker', selected_date: '2026-11-22' } },
      notes: { v: { type: 'plain_text_input', value: null } },
    });
  });

  it("keeps a required field check on Slack's side: an empty required input never reaches the app", async () => {
    let called = 0;
    const driver = await boot((app) =>
      app.view('new_action', async ({ ack }) => {
        called += 1;
        await ack();
      }),
    );
    await driver.slash('bob', '/care new');
    const result = await driver.modal('bob').fill('Title', 'Call GP').submit();
    expect(result).toMatchObject({ outcome: 'client_errors', errors: { due: REQUIRED_FIELD } });
    expect(fake.inlineError('bob', 'Due date')).toBe(REQUIRED_FIELD);
    expect(called).toBe(0);
    expect(fake.acks().filter((a) => a.kind === 'view_submission')).toEqual([]);
    await expect(driver.modal('bob').fill('Title', 'x'.repeat(81)).fill('Due date', '2026-01-02').submit()).resolves.toMatchObject({
      outcome: 'client_errors',
    });
  });

  it("builds view.state.values in Slack's shape for every kind of input, external options included", async () => {
    let values: unknown;
    fake = await startSlackFake({ postRateLimit: false });
    const started = await startBoltApp(fake, (app) => {
      app.shortcut('everything', async ({ ack, shortcut, client }) => {
        await ack();
        await client.views.open({
          trigger_id: shortcut.trigger_id,
          view: {
            type: 'modal',
            callback_id: 'everything',
            title: plain('Everything'),
            submit: plain('Save'),
            blocks: [
              input('when', 'Time', { type: 'timepicker', timezone: 'Europe/London' }),
              input('at', 'Starts', { type: 'datetimepicker' }),
              input('who', 'Assignee', { type: 'users_select' }),
              input('team', 'Watchers', { type: 'multi_users_select' }),
              input('urgency', 'Urgency', { type: 'static_select', options: [option('Low', 'low'), option('High', 'high')] }),
              input('tags', 'Tags', { type: 'multi_static_select', options: [option('Meds', 'meds'), option('Visit', 'visit'), option('Call', 'call')] }),
              input('flags', 'Flags', { type: 'checkboxes', options: [option('Private', 'private'), option('Recurring', 'recurring')] }),
              input('remind', 'Reminder', { type: 'radio_buttons', options: [option('None', 'none'), option('1 day before', '1d')] }),
              input('location', 'Location', { type: 'external_select', min_query_length: 0 }),
              input('where', 'Post in', { type: 'conversations_select' }),
            ] as never,
          },
        });
      });
      app.options('v', async ({ ack, options }) => {
        const all = [option('Ward A', 'loc-a'), option('Ward B', 'loc-b')];
        await ack({ options: all.filter((o) => o.text.text.toLowerCase().includes(options.value.toLowerCase())) });
      });
      app.view('everything', async ({ ack, view }) => {
        values = view.state.values;
        await ack();
      });
    });
    stop = started.stop;
    const driver = started.driver;
    await driver.globalShortcut('alice', 'everything');
    const outcome = await driver
      .modal('alice')
      .fill('Time', '09:30')
      .fill('Starts', new Date('2026-11-22T09:00:00Z'))
      .fill('Assignee', 'carol')
      .fill('Watchers', ['bob', 'dan@example.org'])
      .fill('Urgency', 'High')
      .fill('Tags', ['Meds', 'Call'])
      .fill('Flags', ['Recurring'])
      .fill('Reminder', '1 day before')
      .fill('Location', 'Ward B')
      .fill('Post in', '#care-team')
      .submit();
    expect(outcome.outcome).toBe('closed');
    expect(values).toEqual({
      when: { v: { type: 'timepicker', selected_time: '09:30', timezone: 'Europe/London' } },
      at: { v: { type: 'datetimepicker', selected_date_time: 1795338000 } },
      who: { v: { type: 'users_select', selected_user: 'U0CAROL' } },
      team: { v: { type: 'multi_users_select', selected_users: ['U0BOB', 'U0DAN'] } },
      urgency: { v: { type: 'static_select', selected_option: option('High', 'high') } },
      tags: { v: { type: 'multi_static_select', selected_options: [option('Meds', 'meds'), option('Call', 'call')] } },
      flags: { v: { type: 'checkboxes', selected_options: [option('Recurring', 'recurring')] } },
      remind: { v: { type: 'radio_buttons', selected_option: option('1 day before', '1d') } },
      location: { v: { type: 'external_select', selected_option: option('Ward B', 'loc-b') } },
      where: { v: { type: 'conversations_select', selected_conversation: 'C0CARE' } },
    });
    expect(fake.acks().find((a) => a.kind === 'block_suggestion')).toMatchObject({ name: 'v', acked: true });
  });

  it("applies update, push and clear answers; errors for a non-input block show Slack's general error", async () => {
    const step = (title: string) => ({
      type: 'modal' as const,
      callback_id: 'new_action',
      title: plain(title),
      submit: plain('Next'),
      blocks: [input('title', 'Title', { type: 'plain_text_input' })],
    });
    const driver = await boot((app) =>
      app.view('new_action', async ({ ack, view }) => {
        const text = view.state.values.title?.v?.value;
        if (text === 'update') await ack({ response_action: 'update', view: step('Updated') });
        else if (text === 'push') await ack({ response_action: 'push', view: step('Pushed') });
        else if (text === 'bad') await ack({ response_action: 'errors', errors: { no_such_block: 'x' } });
        else await ack({ response_action: 'clear' });
      }),
    );
    await driver.slash('bob', '/care new');
    const modal = driver.modal('bob');
    expect((await modal.fill('Title', 'update').fill('Due date', '2026-11-22').submit()).outcome).toBe('updated');
    expect(fake.openModal('bob')?.stack.map((v) => v.title?.text)).toEqual(['Updated']);
    expect((await modal.fill('Title', 'push').submit()).outcome).toBe('pushed');
    expect(fake.openModal('bob')?.stack.map((v) => v.title?.text)).toEqual(['Updated', 'Pushed']);
    const bad = await modal.fill('Title', 'bad').submit();
    expect(bad.outcome).toBe('invalid_ack');
    expect(fake.openModal('bob')?.generalError).toBe(TROUBLE_CONNECTING);
    expect((await modal.fill('Title', 'done').submit()).outcome).toBe('cleared');
    expect(fake.openModal('bob')).toBeUndefined();
  });

  it('sends view_closed when the person cancels a view that asked for it', async () => {
    const closed: boolean[] = [];
    const driver = await boot((app) => {
      app.shortcut('ask', async ({ ack, shortcut, client }) => {
        await ack();
        await client.views.open({ trigger_id: shortcut.trigger_id, view: { ...newActionModal, callback_id: 'ask', notify_on_close: true } as never });
      });
      app.view({ callback_id: 'ask', type: 'view_closed' }, async ({ ack, body }) => {
        await ack();
        closed.push(body.type === 'view_closed' && body.is_cleared === false);
      });
    });
    await driver.globalShortcut('carol', 'ask');
    await driver.modal('carol').fill('Title', 'Half typed').close();
    expect(closed).toEqual([true]);
    expect(fake.openModal('carol')).toBeUndefined();
  });

  it('a trigger used more than 3 s later (fake clock) fails with expired_trigger_id', async () => {
    const clock = manualClock();
    const errors: string[] = [];
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => (release = r));
    fake = await startSlackFake({ clock });
    const started = await startBoltApp(fake, (app) =>
      app.command('/slow', async ({ ack, command, client }) => {
        await ack();
        await gate;
        await client.views
          .open({ trigger_id: command.trigger_id, view: newActionModal as never })
          .catch((e: { data?: { error: string } }) => errors.push(e.data?.error ?? 'unknown'));
      }),
    );
    stop = started.stop;
    await started.driver.slash('bob', '/slow');
    clock.advance(3001);
    release();
    await fake.waitFor(() => errors.length > 0);
    expect(errors).toEqual(['expired_trigger_id']);
    expect(fake.openModal('bob')).toBeUndefined();
  });
});
