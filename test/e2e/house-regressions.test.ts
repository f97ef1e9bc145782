import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { linkRequestBlocks } from '../../src/slack/views/links.js';
import { careUserIdByEmail, command, type Harness, linkDirectly, startHarness, webAppAction } from './harness.js';

/**
 * Bugs found in the review of the Slack edge, each as people meet them.
 * Slack's users.info slower than a trigger lives (3 s) stands for any Slack call
 * a listener might make before views.open.
 */
describe('the Slack edge: regressions', () => {
  let h: Harness;
  const openForm = (user: string) =>
    h.fake.waitFor(() => (h.fake.openModal(user)?.view.callback_id === 'care_action_modal' ? h.fake.openModal(user) : undefined), { timeoutMs: 15_000 });

  beforeAll(async () => {
    h = await startHarness({ sandbox: { seed: 'empty' } });
    await linkDirectly(h, 'sophie');
    await linkDirectly(h, 'priya');
  });
  afterAll(async () => h?.close());
  beforeEach(async () => {
    h.fake.faults.clear();
    for (const u of ['sophie', 'priya', 'amelia']) while (h.fake.openModal(u)) await h.driver.modal(u).close();
  });

  it('/care new opens the form even when Slack is slower to say who you are than a trigger lives', async () => {
    h.fake.faults.latency(3300, { methods: ['users.info'] });
    await h.driver.slash('sophie', '/care new Ring the pharmacy', { channel: '#care-team' });
    const form = await openForm('sophie');
    const task = form.view.blocks.find((b) => b.block_id === 'task') as { element: { initial_value?: string } };
    expect(task.element.initial_value).toBe('Ring the pharmacy');
  });

  it('the message shortcut opens the form when Slack is slow, and tells the person when the form cannot open', async () => {
    h.fake.faults.latency(3300, { methods: ['users.info'] });
    const msg = h.driver.postAsUser('amelia', '#care-team', 'Order more gloves');
    await h.driver.messageShortcut('priya', 'care_create_from_message', { channel: '#care-team', ts: msg.ts });
    await openForm('priya');
    await h.driver.modal('priya').close();

    h.fake.faults.clear();
    h.fake.faults.failNext('views.open', 1, 'internal_error');
    await h.driver.messageShortcut('priya', 'care_create_from_message', { channel: '#care-team', ts: msg.ts });
    const dm = await h.fake.waitFor(() => h.fake.dms('priya').find((m) => m.text.includes('could not open the form')), { timeoutMs: 10_000 });
    expect(h.fake.visibleText(dm, { viewer: 'priya' })).toContain('Please try again');
  });

  it('says a link request is gone when an admin approves one that no longer exists, instead of "something went wrong"', async () => {
    await h.app.slack.chat.postMessage({ channel: 'U0AMELIA', text: 'A link request', blocks: linkRequestBlocks('987654', { slackUserId: 'U0OLIVER' }) });
    await h.driver.dispatchOn('amelia', { dm: true }, 'linkreq_987654', 'care_link_approve');
    const note = await h.fake.waitFor(() => h.fake.ephemerals('amelia').find((e) => e.text.includes('link request')), { timeoutMs: 10_000 });
    expect(note.text).toContain('That link request no longer exists.');
    expect(note.text).not.toContain('Something went wrong');
    expect(h.fake.openModal('amelia')).toBeUndefined();
  });

  it('never mentions a Slack user of another workspace linked to the same care user', async () => {
    const oliverCareId = await careUserIdByEmail(h, h.driver.user('oliver').profile.email!);
    // Oliver is linked in another workspace only; in this one nobody is linked to his care account.
    await h.app.store.upsertLink({ teamId: 'T0ELSEWHERE', slackUserId: 'U0STRANGER', careUserId: oliverCareId, method: 'admin', linkedBy: 'U0ADMIN' });
    const action = await webAppAction(h, { task: 'Check the fire doors', due: new Date(h.now().getTime() + 3600_000), assigned_to: oliverCareId });
    const { raw, text } = await command(h, 'sophie', `/care show ${action.action_no}`);
    expect(raw).not.toContain('U0STRANGER');
    expect(text).toContain('Oliver');
  });
});
