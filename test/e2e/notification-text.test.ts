/**
 * The notification text rule (issue 28): the `text` of every message the app sends through chat.postMessage,
 * chat.update and chat.postEphemeral — what a locked phone and notifications show — names no resident and
 * carries no task text (Block Kit blocks may carry task text where the channel's rule allows it).
 *
 * One realistic day drives every kind of message the app sends through the harness; then every call the
 * Slack fake recorded is checked with neutralTextProblems, and every kind in KINDS must have been seen.
 * A new kind of message: add a row to KINDS (how to tell its calls apart) and, in the day, what sends it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallRecord } from '../../dev/slack-fake/index.js';
import { neutralTextProblems } from '../helpers/neutral-text.js';
import { deliveryActionId, deliveryKind, digestTickAt, poll } from './fixtures/jobs-support.js';
import { command, linkDirectly, startHarness, webAppAction, type Harness } from './harness.js';

const START = new Date('2026-03-10T06:00:00Z'); // a Tuesday, 06:00 in London
const MINUTE = 60_000;

const RESIDENTS = ['Edith Clarke', 'Harold Finch', 'Margaret Oyelaran'];
const TASK_PATTERNS = [
  'Medication review for {name} with the GP',
  'Update the care plan for {name}',
  'Order a pressure-relieving mattress for {name}',
  'Falls risk assessment for {name} after the night',
];
const CREATED_TASK = 'Book the chiropodist for Harold Finch next week';
const CREATED_IN_DM_TASK = 'Ring the optician about Edith Clarke';
const MOVED_EARLIER_TASK = 'Collect the new hearing aid for Margaret Oyelaran';

/** One message the app sent, as the fake recorded the call. */
interface Sent {
  method: string;
  text: string;
  /** The delivery kind in the message's metadata, when it is a ledger delivery. */
  deliveryKind: string | undefined;
  /** The blocks as sent (JSON), to tell an update's kind by what it shows. */
  blocks: string;
}

/** Every kind of message the app sends, and how its calls are told apart. Extend this table for a new kind. */
const KINDS: { kind: string; is: (m: Sent) => boolean }[] = [
  { kind: 'assignment DM', is: (m) => m.deliveryKind === 'assignment' },
  { kind: 'urgent alert', is: (m) => m.deliveryKind === 'urgent' },
  { kind: 'completion notice', is: (m) => m.deliveryKind === 'completion' },
  { kind: 'change notice (someone else completed your action)', is: (m) => m.deliveryKind === 'change' },
  { kind: 'change notice: someone else edited your action', is: (m) => m.deliveryKind === 'change' && /edited your action/.test(m.text) },
  { kind: 'change notice: an edit took your action away', is: (m) => m.deliveryKind === 'change' && /away from you/.test(m.text) },
  { kind: 'urgent alert updated: "Edited by"', is: (m) => m.method === 'chat.update' && /^Urgent action/.test(m.text) && /Edited by/.test(m.blocks) },
  { kind: 'channel digest', is: (m) => m.deliveryKind === 'digest' },
  { kind: "channel digest's thread", is: (m) => m.deliveryKind === 'digest-part' },
  { kind: 'morning summary', is: (m) => m.deliveryKind === 'summary' },
  { kind: "admins' trouble DM", is: (m) => m.deliveryKind === 'workspace-trouble' },
  { kind: "admins' recovered DM", is: (m) => m.deliveryKind === 'workspace-recovered' },
  { kind: 'link request DM to admins', is: (m) => m.method === 'chat.postMessage' && /asks to link/.test(m.text) },
  { kind: 'created-action confirmation', is: (m) => m.method === 'chat.postEphemeral' && /^Created: Action/.test(m.text) },
  { kind: 'created-action confirmation in the DM', is: (m) => m.method === 'chat.postMessage' && /^Created: Action/.test(m.text) },
  { kind: 'change notice: a snooze that moved it earlier', is: (m) => m.deliveryKind === 'change' && /moved your action #\d+ earlier$/.test(m.text) },
  { kind: 'redaction (retention)', is: (m) => m.method === 'chat.update' && /— completed; details in the care system$/.test(m.text) },
  { kind: 'handover post', is: (m) => m.deliveryKind === 'handover' && m.method === 'chat.postMessage' },
  { kind: 'handover post, accepted', is: (m) => m.method === 'chat.update' && /^Handover/.test(m.text) },
  { kind: 'handover not accepted: the managers told', is: (m) => m.deliveryKind === 'handover-unaccepted' },
  { kind: 'escalation step (thread reminder, seniors, managers)', is: (m) => m.deliveryKind === 'escalation' },
  { kind: 'urgent alert updated with its escalation line', is: (m) => m.method === 'chat.update' && /^Urgent action/.test(m.text) },
  { kind: "admins' notice: an escalation step had nobody to reach", is: (m) => m.deliveryKind === 'escalation-gap' },
  { kind: "creator's completion DM", is: (m) => m.deliveryKind === 'creator' },
  { kind: 'reassign summary DM', is: (m) => m.deliveryKind === 'reassign-summary' },
  { kind: 'reassign result DM to the admin (with Undo)', is: (m) => m.deliveryKind === 'reassign-result' },
  { kind: 'file message: evidence export', is: (m) => m.method === 'files.completeUploadExternal' && /on time|evidence/i.test(m.text) },
  { kind: 'file message: person-data export', is: (m) => m.method === 'files.completeUploadExternal' && /data export/i.test(m.text) },
];

/** The methods that send a message someone may be notified of. */
const SENDING = new Set(['chat.postMessage', 'chat.update', 'chat.postEphemeral', 'files.completeUploadExternal']);

function sentOf(call: CallRecord): Sent | null {
  if (!SENDING.has(call.method) || call.result.ok !== true) return null;
  let metadata = call.args.metadata as unknown;
  if (typeof metadata === 'string') {
    try {
      metadata = JSON.parse(metadata);
    } catch {
      metadata = undefined;
    }
  }
  const meta = metadata as { event_type?: string; event_payload?: { kind?: unknown } } | undefined;
  return {
    method: call.method,
    // A file's message: its comment is what the DM shows and notifies with.
    text: typeof call.args.text === 'string' ? call.args.text : typeof call.args.initial_comment === 'string' ? call.args.initial_comment : '',
    deliveryKind: meta?.event_type === 'care_delivery' ? String(meta.event_payload?.kind) : undefined,
    blocks: typeof call.args.blocks === 'string' ? call.args.blocks : JSON.stringify(call.args.blocks ?? ''),
  };
}

describe('the text of every message the app sends (what a locked phone shows)', () => {
  let h: Harness;
  const tasks: string[] = [CREATED_TASK, CREATED_IN_DM_TASK, MOVED_EARLIER_TASK];
  const later = (ms: number) => h.setTime(new Date(h.now().getTime() + ms));

  beforeAll(async () => {
    h = await startHarness({ startAt: START, sandbox: { seed: 'empty' }, retentionDays: 0, adminSlackUserIds: ['U0AMELIA'] });
    const priya = await linkDirectly(h, 'priya');
    await linkDirectly(h, 'sophie');
    await linkDirectly(h, 'amelia');
    // Urgent alerts and routed completion notices in a private channel (task text shown in its blocks);
    // a daily digest in a public one; Priya's own morning summary.
    await command(h, 'amelia', '/care digest here urgent-only', { channel: '#care-leads' });
    await command(h, 'amelia', '/care route Heather Lodge nurses <#C0LEADS|care-leads>', { channel: '#care-team' });
    await command(h, 'amelia', '/care digest here 08:00 daily --show-tasks', { channel: '#care-team' });
    await command(h, 'priya', '/care summary 07:30');
    // Handovers at each shift change: #care-leads (private, task text) and #care-team (none); the ladder for urgent work.
    await command(h, 'amelia', '/care handover here --show-tasks', { channel: '#care-leads' });
    await command(h, 'amelia', '/care handover here', { channel: '#care-team' });
    await command(h, 'amelia', '/care escalation seniors Day <@U0PRIYA|priya>');
    await command(h, 'amelia', '/care escalation managers <#C0GENERAL|general>');
    const groups = await h.app.care.notificationGroups.collect({ attributes: ['_id', 'name'], per_page: 100, limit: 100 });
    const notify = ['Heather Lodge nurses', 'Willow Bank seniors'].map((n) => groups.find((g) => g.name === n)!._id);
    await poll(h); // the first look

    // A busy day: more due today than a digest's message holds (its thread lists the rest), some urgent.
    const due = new Date(START.getTime() + 6 * 60 * MINUTE);
    const actions: Awaited<ReturnType<typeof webAppAction>>[] = [];
    for (let i = 0; i < 14; i++) {
      const task = TASK_PATTERNS[i % TASK_PATTERNS.length]!.replace('{name}', RESIDENTS[i % RESIDENTS.length]!);
      tasks.push(task);
      actions.push(await webAppAction(h, { task, due, assigned_to: priya, urgent: i < 3, notify_on_complete: notify }));
    }
    // Assignment DMs and urgent alerts: fourteen DMs to Priya queue for Slack's one post a second in her DM, so the
    // one clock runs ten times as fast while they do (Slack's limits and the app's pacing hold on it as before).
    await h.fastForward(() => poll(h));

    await h.setTime('2026-03-10T07:30:00Z');
    expect((await h.app.jobs.runOnce('summaries')).ran).toBe(true); // Priya's morning summary
    await digestTickAt(h, '2026-03-10T08:00:00Z'); // the digest and its thread

    // The 07:00 handover; Priya accepts the one in #care-leads; nobody accepts #care-team's, so at +30 minutes the managers are told.
    expect((await h.app.jobs.runOnce('handovers')).ran).toBe(true);
    const handover = await h.fake.waitFor(() => h.fake.messages('#care-leads').find((m) => /^Handover/.test(m.text ?? '')), {
      timeoutMs: 10_000,
      message: 'no handover post',
    });
    await h.driver.clickButton('priya', { channel: '#care-leads', ts: handover.ts, text: 'Accept handover', confirm: 'accept' });
    await h.setTime('2026-03-10T08:31:00Z');
    expect((await h.app.jobs.runOnce('handovers')).ran).toBe(true);
    // The urgent actions nobody took since 06:00: the ladder's three steps, one a run.
    for (let i = 0; i < 3; i++) expect((await h.app.jobs.runOnce('escalations')).ran).toBe(true);

    // Completed in the care system's web app: completion notices.
    await h.control(`actions/${actions[0]!._id}/complete`, {});
    await later(5_000);
    await poll(h);
    // Amelia completes Priya's action through Slack: notices, and Priya is told (a change notice).
    expect((await command(h, 'amelia', `/care done ${actions[1]!.action_no}`)).text).toMatch(/completed/i);
    await h.fake.waitFor(() => h.fake.state.calls.some((c) => sentOf(c)?.deliveryKind === 'change') || undefined, { timeoutMs: 10_000 });
    // Amelia edits Priya's urgent action from its alert (asked once, then saved): the post says so, Priya is told what changed.
    const alert = h.fake.messages('#care-leads').find((m) => deliveryKind(m) === 'urgent' && deliveryActionId(m) === actions[2]!._id);
    await h.driver.clickButton('amelia', { channel: '#care-leads', ts: alert!.ts, text: 'Edit' });
    await h.fake.waitFor(() => (h.fake.openModal('amelia')?.view.callback_id === 'care_action_modal' ? true : undefined), { timeoutMs: 10_000 });
    expect((await h.driver.modal('amelia').fill('Due time', '13:00').submit()).outcome).toBe('updated');
    expect((await h.driver.modal('amelia').submit()).outcome).toBe('closed');
    await h.fake.waitFor(() => h.fake.state.calls.some((c) => /edited your action/.test(sentOf(c)?.text ?? '')) || undefined, { timeoutMs: 10_000 });
    // Then, from her own card, gives it to Sophie: Priya is told it was taken away.
    await command(h, 'amelia', `/care show ${actions[2]!.action_no}`, { dm: true });
    await h.driver.clickButton('amelia', { ephemeral: true, dm: true, text: 'Edit' });
    await h.fake.waitFor(() => (h.fake.openModal('amelia')?.view.callback_id === 'care_action_modal' ? true : undefined), { timeoutMs: 10_000 });
    expect((await h.driver.modal('amelia').fill('Assignee', 'Sophie Marsh').submit()).outcome).toBe('closed');
    await h.fake.waitFor(() => h.fake.state.calls.some((c) => /away from you/.test(sentOf(c)?.text ?? '')) || undefined, { timeoutMs: 10_000 });

    // Someone not linked asks to be: the admins get a DM.
    await command(h, 'visitor', '/care link');
    // Sophie creates an action naming a resident through the form: her confirmation.
    await h.driver.slash('sophie', `/care new ${CREATED_TASK}`, { channel: '#care-team' });
    await h.fake.waitFor(() => (h.fake.openModal('sophie')?.view.callback_id === 'care_action_modal' ? true : undefined), { timeoutMs: 10_000 });
    // Assigned to Priya, so Sophie is told as its creator (an assignee hears of it as their own work).
    expect((await h.driver.modal('sophie').fill('Due time', '21:00').fill('Assignee', 'Priya Sharma').submit()).outcome).toBe('closed');
    const created = await h.fake.waitFor(() => h.fake.ephemerals('sophie').find((e) => e.text.startsWith('Created: Action')), { timeoutMs: 10_000 });
    // Amelia completes it: Sophie, who created it through Slack, is told.
    const createdNo = /#(\d+)/.exec(created.text)?.[1];
    expect((await command(h, 'amelia', `/care done ${createdNo}`)).text).toMatch(/completed/i);
    await h.fake.waitFor(() => h.fake.state.calls.some((c) => sentOf(c)?.deliveryKind === 'creator') || undefined, {
      timeoutMs: 10_000,
      message: 'no creator DM',
    });
    // Sophie creates one in her DM with the app: the confirmation there is a post (recorded, edited by retention).
    await h.driver.slash('sophie', `/care new ${CREATED_IN_DM_TASK}`, { dm: true });
    await h.fake.waitFor(() => (h.fake.openModal('sophie')?.view.callback_id === 'care_action_modal' ? true : undefined), { timeoutMs: 10_000 });
    expect((await h.driver.modal('sophie').fill('Due time', '21:00').submit()).outcome).toBe('closed');
    await h.fake.waitFor(() => h.fake.dms('sophie').find((m) => m.text.startsWith('Created: Action')), { timeoutMs: 10_000, message: 'no DM confirmation' });
    // Sophie moves Priya's action due in three days to tomorrow from her own card: Priya is told it was moved earlier.
    const soon = await webAppAction(h, { task: MOVED_EARLIER_TASK, due: new Date(START.getTime() + 3 * 24 * 60 * MINUTE), assigned_to: priya });
    await command(h, 'sophie', `/care show ${soon.action_no}`);
    await h.driver.selectOption('sophie', { ephemeral: true, channel: '#care-team', control: 'Snooze…', option: 'Tomorrow, same time' });
    await h.fake.waitFor(() => h.fake.state.calls.some((c) => /moved your action #\d+ earlier$/.test(sentOf(c)?.text ?? '')) || undefined, {
      timeoutMs: 10_000,
      message: 'Priya was not told it was moved earlier',
    });
    // Priya is off sick: her open work goes to Sophie, one summary DM each.
    await h.driver.slash('amelia', '/care reassign @priya to @sophie', { channel: '#care-team' });
    const modalText = () => {
      const modal = h.fake.openModal('amelia');
      return modal ? h.fake.visibleText(modal.view, { viewer: 'amelia' }) : '';
    };
    await h.fake.waitFor(() => /Move \d+ open action/.test(modalText()) || undefined, { timeoutMs: 10_000, message: 'no reassign question' });
    await h.driver.modal('amelia').submit();
    await h.fake.waitFor(() => /moved from/.test(modalText()) || undefined, { timeoutMs: 60_000, message: `no reassign result: ${modalText()}` });
    await h.fake.waitFor(() => h.fake.state.calls.some((c) => sentOf(c)?.deliveryKind === 'reassign-summary') || undefined, {
      timeoutMs: 10_000,
      message: 'no reassign summary DM',
    });
    while (h.fake.openModal('amelia')) await h.driver.modal('amelia').close();
    // The admin's files: the evidence export and one person's data.
    await command(h, 'amelia', '/care evidence');
    await command(h, 'amelia', '/care export <@U0OLIVER|oliver>');

    // Retention at 0 days: the completed actions' messages are edited down (edits queue for Slack's 50 a minute:
    // on the ten-times clock).
    await later(5_000);
    await h.fastForward(async () => {
      await poll(h);
      expect((await h.app.jobs.runOnce('retention')).ran).toBe(true);
    });

    // The care API key is revoked for a while: the admins are told, then told it works again.
    await h.control('keys', { apiKey: h.sandbox.credentials.apiKey, apiSecret: 'revoked-by-the-provider' });
    for (let i = 0; i < 4; i++) {
      await h.app.jobs.tick('changes-poll');
      await later(31 * MINUTE);
    }
    await h.control('keys', { apiKey: h.sandbox.credentials.apiKey, apiSecret: h.sandbox.credentials.apiSecret });
    for (let i = 0; i < 4; i++) {
      await h.app.jobs.tick('changes-poll');
      await later(MINUTE);
    }
    await h.fake.waitFor(() => h.fake.state.calls.some((c) => sentOf(c)?.deliveryKind === 'workspace-recovered') || undefined, { timeoutMs: 10_000 });

    // At night nobody is named as senior: an urgent action nobody takes skips them (the managers' post says why),
    // and the admins are told once how to name them.
    await h.setTime('2026-03-10T20:00:00Z');
    const nightTask = 'Check Margaret Oyelaran’s breathing overnight';
    tasks.push(nightTask);
    const night = await webAppAction(h, { task: nightTask, due: new Date('2026-03-10T23:00:00Z'), urgent: true });
    await poll(h);
    for (const at of ['2026-03-10T20:16:00Z', '2026-03-10T20:31:00Z']) {
      await h.setTime(at);
      expect((await h.app.jobs.runOnce('escalations')).ran).toBe(true);
    }
    await h.fake.waitFor(() => h.fake.state.calls.some((c) => sentOf(c)?.deliveryKind === 'escalation-gap') || undefined, {
      timeoutMs: 10_000,
      message: `no admins' notice of the Night shift's missing seniors (action ${night.action_no})`,
    });
  }, 180_000);
  afterAll(async () => h?.close());

  const sent = () => h.fake.state.calls.flatMap((c) => sentOf(c) ?? []);

  it('sent every kind of message in the table (a kind never sent would be a walk that proves nothing)', () => {
    const messages = sent();
    expect(KINDS.filter((k) => !messages.some(k.is)).map((k) => `${k.kind}: never sent`)).toEqual([]);
  });

  it('names no resident and carries no task text in any message text', () => {
    const messages = sent();
    expect(messages.length).toBeGreaterThan(40);
    const problems = messages.flatMap((m) => neutralTextProblems(m.text, { residents: RESIDENTS, tasks }).map((p) => `${m.method} "${m.text}": ${p}`));
    expect(problems).toEqual([]);
  });

  it('while the blocks of the private channel and DMs do carry the task (so the check above looks at real task text)', () => {
    const blocks = h.fake.state.calls
      .filter((c) => c.method === 'chat.postMessage' && c.result.ok === true)
      .map((c) => String(c.args.blocks ?? ''))
      .join('\n');
    expect(blocks).toContain('Edith Clarke');
  });
});
