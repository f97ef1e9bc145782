import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { command, type Harness, linkDirectly, startHarness, webAppAction } from './harness.js';

/**
 * Every refusal or empty answer of `/care` says what to try instead, and a task
 * longer than a Slack form holds is never cut without the person knowing.
 * Clock: Tuesday 10 March 2026, 10:00 in London.
 */
const START = new Date('2026-03-10T10:00:00Z');

describe('answers that say what to do next', () => {
  let h: Harness;
  let sophie: string;

  beforeAll(async () => {
    h = await startHarness({ startAt: START, sandbox: { seed: 'empty' } });
    sophie = await linkDirectly(h, 'sophie');
    await linkDirectly(h, 'oliver');
    await webAppAction(h, { task: 'Return the hoist to the supplier', due: new Date('2026-03-12T10:00:00Z'), assigned_to: sophie });
  });
  afterAll(async () => h?.close());

  it('due someday: the windows it knows, with an example', async () => {
    const { text } = await command(h, 'sophie', '/care due someday');
    expect(text).toContain("I don't know the window someday. /care due knows today, tomorrow, week (the next 7 days) or overdue: e.g. /care due tomorrow");
  });

  it('show 999999: there is no such action, and how to find the right one', async () => {
    const { text } = await command(h, 'sophie', '/care show 999999');
    expect(text).toContain('There is no action #999999. Check the number on its card, or search by words: /care find <words>');
    const byId = (await command(h, 'sophie', '/care done 0123456789abcdef01234567')).text;
    expect(byId).toContain('There is no action with the Id 0123456789abcdef01234567. Search by words instead: /care find <words>');
  });

  it('find with no result says what the search covers and how to widen it', async () => {
    const one = (await command(h, 'sophie', '/care find hoists')).text;
    expect(one).toContain('No actions match “hoists”.');
    expect(one).toContain('The search looks for exactly these letters in task text and action numbers, open and complete');
    expect(one).toContain('try part of the word (/care find hois)');
    const two = (await command(h, 'sophie', '/care find hoist supplier tuesday')).text;
    expect(two).toContain('No actions match “hoist supplier tuesday”.');
    expect(two).toContain('the words are searched as one phrase: try one of them (/care find supplier)');
    // The suggestion works.
    expect((await command(h, 'sophie', '/care find hois')).text).toContain('Return the hoist to the supplier');
  });

  it('an empty list says where else to look', async () => {
    expect((await command(h, 'oliver', '/care mine')).text).toContain(
      'Nothing open for you in the next 7 days. Later ones: /care find <words>; a new one: /care new',
    );
    expect((await command(h, 'sophie', '/care due today')).text).toContain('Nothing open due today for you. Try /care due week or /care due overdue.');
    expect((await command(h, 'sophie', '/care due overdue')).text).toContain('Nothing open is overdue for you. Try /care due today or /care due week.');
  });

  it('a colleague who is not linked: how they can be', async () => {
    const { text } = await command(h, 'sophie', '/care due today <@U0PRIYA|priya>');
    expect(text).toContain('@priya has not linked a care account, so I cannot tell what is theirs. They can type /care link');
  });

  it('admin and account refusals name the next step', async () => {
    expect((await command(h, 'sophie', '/care links')).text).toContain('Only admins can do that. Ask a workspace admin');
    expect((await command(h, 'amelia', '/care route off Night staff')).text).toContain('No route for “Night staff” to remove. /care routes lists the routes');
    expect((await command(h, 'amelia', '/care routes')).text).toContain('/care route <group name> #channel sets one up');
    expect((await command(h, 'amelia', '/care digest off', { channel: '#care-leads' })).text).toContain('/care digest list shows which channels have one');
    expect((await command(h, 'sophie', '/care summary off')).text).toContain('Your morning summary was not on. /care summary 07:30 turns it on');
    expect((await command(h, 'visitor', '/care locations atlantis')).text).toContain(
      'No locations match “atlantis”. Try part of the name, or /care locations alone for all of them.',
    );
    expect((await command(h, 'visitor', '/care literature zzz')).text).toContain(
      'No literature matches “zzz”. Try part of the name, or /care literature alone for all of it.',
    );
  });
});

describe('a task longer than a Slack form holds (3,000 characters)', () => {
  let h: Harness;
  let sophie: string;
  const long = (n: number) => `Handover notes: ${'x'.repeat(n - 'Handover notes: '.length - ' END'.length)} END`;
  const openForm = async (user: string) =>
    h.fake.waitFor(
      () => {
        const m = h.fake.openModal(user);
        return m?.view.callback_id === 'care_action_modal' && m.view.blocks.some((b) => b.block_id === 'task') ? m : undefined;
      },
      { timeoutMs: 10_000 },
    );
  const created = async () => (await h.app.store.listAudit({ limit: 50 })).filter((e) => e.verb === 'action.create');

  beforeAll(async () => {
    h = await startHarness({ startAt: START, sandbox: { seed: 'empty' } });
    sophie = await linkDirectly(h, 'sophie');
  });
  afterAll(async () => h?.close());
  beforeEach(async () => {
    while (h.fake.openModal('sophie')) await h.driver.modal('sophie').close();
  });

  it('/care new with 3,510 characters: the form says so, and saving the cut text is an inline error with the length and the limit', async () => {
    await h.driver.slash('sophie', `/care new ${long(3510)}`, { channel: '#care-team' });
    const modal = await openForm('sophie');
    expect(h.fake.visibleText(modal.view)).toContain('Your text is 3,510 characters; a task holds at most 3,000. Only the first 3,000 are in the box');
    const form = h.driver.modal('sophie');
    const refused = await form.fill('Due time', '17:00').submit();
    expect(refused.outcome).toBe('errors');
    expect(h.fake.inlineError('sophie', 'Task')).toBe(
      'This is the first 3,000 of 3,510 characters: the end is cut off. Shorten it to at most 3,000 yourself, then save.',
    );
    expect(await created()).toEqual([]);

    // Shortened by the person: saved as they left it.
    const shortened = `${long(3510).slice(0, 2990)} END`;
    expect((await form.fill('Task', shortened).submit()).outcome).toBe('closed');
    const [entry] = await h.fake.waitFor(async () => ((await created()).length ? await created() : undefined), { timeoutMs: 10_000 });
    expect((await h.control(`actions/${entry!.actionId}`)).task).toBe(shortened);
  });

  it('editing an action whose task is 3,510 characters never cuts it: saving it untouched is refused, the care system keeps all of it', async () => {
    const task = long(3510);
    const action = await webAppAction(h, { task, due: new Date('2026-03-12T10:00:00Z'), assigned_to: sophie });
    const card = await command(h, 'sophie', `/care show ${action.action_no}`);
    await h.driver.clickButton('sophie', { ephemeral: true, channel: '#care-team', ts: card.message.ts, text: 'Edit' });
    const modal = await openForm('sophie');
    expect(h.fake.visibleText(modal.view)).toContain('This action’s task is 3,510 characters; a task here holds at most 3,000');
    const refused = await h.driver.modal('sophie').fill('Urgency', ['Urgent (shows at the top of dashboards)']).submit();
    expect(refused.outcome).toBe('errors');
    expect(h.fake.inlineError('sophie', 'Task')).toContain('first 3,000 of 3,510 characters');
    const kept = await h.control(`actions/${action._id}`);
    expect([kept.task, kept.urgent]).toEqual([task, false]);
  });

  it('a message of 3,510 characters made into an action is told the same way', async () => {
    const msg = h.driver.postAsUser('priya', '#care-team', long(3510));
    await h.driver.messageShortcut('sophie', 'care_create_from_message', { channel: '#care-team', ts: msg.ts });
    const modal = await openForm('sophie');
    expect(h.fake.visibleText(modal.view)).toContain('Your text is 3,510 characters');
  });

  it('a task typed over the limit is stopped by Slack itself (the field holds 3,000), before the app hears of it', async () => {
    await h.driver.slash('sophie', '/care new', { channel: '#care-team' });
    await openForm('sophie');
    const result = await h.driver.modal('sophie').fill('Task', 'y'.repeat(3200)).fill('Due time', '17:00').submit();
    expect(result.outcome).toBe('client_errors');
    expect(h.fake.inlineError('sophie', 'Task')).toBe('Please enter no more than 3000 characters.');
    expect(await created()).toHaveLength(1);
  });
});
