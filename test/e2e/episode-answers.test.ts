/**
 * Issue 33, "From seen to done": "I'm on it" (keeps the assignee, stops the ladder), "I can't" (moves the
 * ladder on when everyone a step reached can't), Undo of "on it" (the ladder goes on), and two-person
 * actions (the alert keeps asking until a second person joins). Through the sandbox over HTTP, the Slack
 * fake and a real SQLite store; clocks: 2027-06-15 09:00 UTC (10:00 in London: the Day shift), moved by hand.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ComposedApp } from '../../src/compose.js';
import { deliveryActionId, deliveryKind, poll } from './fixtures/jobs-support.js';
import { command, linkDirectly, startHarness, webAppAction, type Harness } from './harness.js';

const START = new Date('2027-06-15T09:00:00Z');
const MIN = 60_000;
/** A note that names a resident: never in a channel. */
const NOTE = 'Mrs Whitfield in room 4 is on the floor, I am with her';

type Meta = { metadata?: { event_type?: string; event_payload?: Record<string, unknown> } };
const ofAction = (kind: string, id: string) => (m: Meta) => deliveryKind(m) === kind && deliveryActionId(m) === id;

async function escalate(app: ComposedApp): Promise<void> {
  const run = await app.jobs.runOnce('escalations');
  if (!run.ran) throw new Error('the escalation job did not run');
  const result = run.result as { error?: string } | undefined;
  if (result?.error) throw new Error(`the escalation job failed: ${result.error}`);
}

async function urgentAction(h: Harness, task: string, assignee: string | null = null): Promise<{ id: string; no: string; began: number }> {
  await h.setTime(new Date(h.now().getTime() + 5_000));
  const a = await webAppAction(h, { task, due: new Date(h.now().getTime() + 3 * 60 * MIN), urgent: true, assigned_to: assignee });
  await poll(h);
  return { id: a._id, no: a.action_no, began: Date.parse(String(a.modified)) };
}

const at = (h: Harness, began: number, minutes: number) => h.setTime(new Date(began + minutes * MIN + 2_000));

describe('answers to an urgent alert (issue 33)', () => {
  let h: Harness;
  const care: Record<string, string> = {};
  const alert = (id: string) => h.fake.messages('#care-leads').find(ofAction('urgent', id));
  const alertText = (id: string) => {
    const a = alert(id);
    return a ? h.fake.visibleText(a, { viewer: 'amelia' }) : '';
  };
  const reminders = (id: string) => (alert(id)?.replies ?? []).filter(ofAction('escalation', id));
  const seniorDms = (user: string, id: string) => h.fake.dms(user).filter(ofAction('escalation', id));
  const managersPosts = (id: string) => h.fake.messages('#general').filter(ofAction('escalation', id));
  const waitForAlert = (id: string, words: string | RegExp, message: string) =>
    h.fake.waitFor(() => ((typeof words === 'string' ? alertText(id).includes(words) : words.test(alertText(id))) ? true : undefined), {
      timeoutMs: 10_000,
      message,
    });

  beforeAll(async () => {
    h = await startHarness({ startAt: START, sandbox: { seed: 'empty' } });
    for (const person of ['sophie', 'oliver', 'priya']) care[person] = await linkDirectly(h, person);
    await poll(h); // the app's first look: what is already so is not news
    await command(h, 'amelia', '/care digest here urgent-only', { channel: '#care-leads' });
    await command(h, 'amelia', '/care escalation after 15');
    await command(h, 'amelia', '/care escalation steps thread,seniors,managers');
    await command(h, 'amelia', '/care escalation managers <#C0GENERAL|general>');
    await command(h, 'amelia', '/care escalation seniors Day <@U0PRIYA|priya> <@U0OLIVER|oliver>');
  });
  afterAll(async () => h?.close());

  it('"I\'m on it" by someone other than the assignee keeps the assignee, tells them once, and stops the ladder, while an untouched action escalates', async () => {
    const a = await urgentAction(h, 'Mrs Patel has not had her insulin', care.sophie!);
    const untouched = await urgentAction(h, 'Call the GP about the rash');
    await at(h, a.began, 4);

    await h.driver.clickButton('priya', { channel: '#care-leads', ts: alert(a.id)!.ts, text: 'I’m on it' });
    const form = h.driver.modal('priya');
    await form.fill('Note', 'Going now').submit();
    await waitForAlert(a.id, /@priya is on it since \d\d:\d\d/, 'the alert never said Priya is on it');

    // The assignee is kept in the care system, and told once (a DM naming who is on it).
    expect((await h.control(`actions/${a.id}`)).assigned_to).toBe(care.sophie);
    const told = await h.fake.waitFor(
      () => {
        const dms = h.fake.dms('sophie').filter(ofAction('answer', a.id));
        return dms.length ? dms : undefined;
      },
      { timeoutMs: 10_000, message: 'the assignee was never told' },
    );
    expect(h.fake.visibleText(told[0]!, { viewer: 'sophie' })).toContain('@priya is on it since');
    expect(JSON.stringify(told)).not.toContain('Going now');
    // Priya is told privately, with her note and Undo.
    await h.fake.waitFor(
      () => (h.fake.ephemerals('priya', { channel: '#care-leads' }).some((e) => /You’re on it.*Undo.*Going now/s.test(JSON.stringify(e))) ? true : undefined),
      { timeoutMs: 10_000, message: 'Priya was never told privately, with her note and Undo' },
    );

    for (const minutes of [15, 30, 45, 60]) {
      await at(h, a.began, minutes);
      await escalate(h.app);
    }
    expect(reminders(a.id)).toHaveLength(0);
    expect(seniorDms('oliver', a.id)).toHaveLength(0);
    expect(managersPosts(a.id)).toHaveLength(0);
    expect(reminders(untouched.id)).toHaveLength(1);
    expect(seniorDms('oliver', untouched.id)).toHaveLength(1);
    expect(managersPosts(untouched.id)).toHaveLength(1);
    expect(h.fake.dms('sophie').filter(ofAction('answer', a.id))).toHaveLength(1);

    const audit = await h.app.store.listAudit({ actionId: a.id, verb: 'on-it' });
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ userId: 'U0PRIYA', details: expect.objectContaining({ note: true }) });
    expect(JSON.stringify(audit)).not.toContain('insulin');
    expect(JSON.stringify(audit)).not.toContain('Going now');
  });

  it("\"I can't\" from everyone the seniors' step reached brings the managers' step at the next run, not at its time; the note is in no channel", async () => {
    const c = await urgentAction(h, 'Mr Ahmed needs help to stand');
    for (const minutes of [15, 30]) {
      await at(h, c.began, minutes);
      await escalate(h.app);
    }
    expect(seniorDms('priya', c.id)).toHaveLength(1);
    expect(seniorDms('oliver', c.id)).toHaveLength(1);

    await at(h, c.began, 31);
    await h.driver.clickButton('priya', { dm: true, ts: seniorDms('priya', c.id)[0]!.ts, text: 'I can’t' });
    await h.driver.modal('priya').fill('Why?', 'with another resident').fill('Note', NOTE).submit();
    await waitForAlert(c.id, "@priya can't: with another resident", 'the alert never said Priya can’t');
    // One senior of two can't: the managers wait for their time.
    await escalate(h.app);
    expect(managersPosts(c.id)).toHaveLength(0);

    await h.driver.clickButton('oliver', { dm: true, ts: seniorDms('oliver', c.id)[0]!.ts, text: 'I can’t' });
    await h.driver.modal('oliver').fill('Why?', 'on break').submit();
    await waitForAlert(c.id, "@oliver can't: on break", 'the alert never said Oliver can’t');
    // Both seniors can't: the next run (minute 31, the managers' time is 45) tells the managers.
    await escalate(h.app);
    expect(managersPosts(c.id)).toHaveLength(1);
    const managers = (await h.app.store.listAudit({ actionId: c.id, verb: 'escalate' })).find((e) => e.details.step === 'managers');
    expect(managers?.details).toMatchObject({ early: true, to: ['C0GENERAL'] });
    await at(h, c.began, 45);
    await escalate(h.app);
    expect(managersPosts(c.id)).toHaveLength(1);

    // The note is kept for History and the evidence export, and in no channel message (alerts, threads, the managers' post).
    const answers = await h.app.store.listEpisodeAnswers(h.fake.teamId, c.id);
    expect(answers.find((x) => x.slackUserId === 'U0PRIYA')).toMatchObject({ answer: 'cant', reason: 'with-resident', note: NOTE });
    const channels = Object.entries(h.fake.store.state.messages).filter(([id]) => !id.startsWith('D'));
    expect(channels.length).toBeGreaterThan(1);
    expect(JSON.stringify(channels)).not.toContain('Whitfield');
    expect(JSON.stringify(await h.app.store.listAudit({ actionId: c.id }))).not.toContain('Whitfield');

    // History (the clicker's alone) says who can't and why, with the note.
    await command(h, 'priya', `/care show ${c.no}`, { channel: '#care-leads' });
    await h.driver.clickButton('priya', { ephemeral: true, channel: '#care-leads', text: 'History' });
    const history = await h.fake.waitFor(
      () => {
        const m = h.fake.openModal('priya');
        const text = m ? h.fake.visibleText(m.view, { viewer: 'priya' }) : '';
        return text.includes(`History of action #${c.no}`) ? text : undefined;
      },
      { timeoutMs: 10_000, message: 'Priya saw no history' },
    );
    expect(history).toContain(`Can’t by @priya (with another resident): “${NOTE}”`);
    expect(history).toContain('Can’t by @oliver (on break)');
    expect(history).toMatch(/Escalated to #general \(the managers’ channel\)/);
  });

  it('one "I can\'t" on the alert in a channel brings the thread reminder at the next run', async () => {
    const d = await urgentAction(h, 'Bring the spare hoist battery');
    await at(h, d.began, 3);
    await h.driver.clickButton('sophie', { channel: '#care-leads', ts: alert(d.id)!.ts, text: 'I can’t' });
    await h.driver.modal('sophie').fill('Why?', 'not trained / need two').submit();
    await waitForAlert(d.id, "@sophie can't: not trained / need two", 'the alert never said Sophie can’t');
    await escalate(h.app);
    expect(reminders(d.id)).toHaveLength(1);
    expect(seniorDms('priya', d.id)).toHaveLength(0);
  });

  it('Undo of "I\'m on it" lets the ladder go on where its timetable is', async () => {
    const e = await urgentAction(h, 'Refill the oxygen for room 9');
    await at(h, e.began, 13);
    await h.driver.clickButton('oliver', { channel: '#care-leads', ts: alert(e.id)!.ts, text: 'I’m on it' });
    await h.driver.modal('oliver').fill('Note', 'on my way').submit();
    await waitForAlert(e.id, /@oliver is on it since/, 'the alert never said Oliver is on it');
    await at(h, e.began, 15);
    await escalate(h.app);
    expect(reminders(e.id)).toHaveLength(0);

    await at(h, e.began, 16);
    // Oliver is not in the private #care-leads: he was told by DM, with Undo.
    const undo = h.fake
      .dms('oliver')
      .filter((x) => JSON.stringify(x).includes('You’re on it'))
      .at(-1)!;
    await h.driver.clickButton('oliver', { dm: true, ts: undo.ts, text: 'Undo' });
    await h.fake.waitFor(() => (alertText(e.id).includes('is on it') ? undefined : true), {
      timeoutMs: 10_000,
      message: 'the alert still says Oliver is on it',
    });
    // Its Undo is once: a second press changes nothing.
    await h.driver.clickButton('oliver', { dm: true, ts: undo.ts, text: 'Undo' });
    expect((await h.app.store.listAudit({ actionId: e.id, verb: 'on-it.undo' })).length).toBe(1);

    // The reminder was due at 15: it comes at the next run, and the seniors at 30 as before.
    await escalate(h.app);
    expect(reminders(e.id)).toHaveLength(1);
    expect(seniorDms('priya', e.id)).toHaveLength(0);
    await at(h, e.began, 30);
    await escalate(h.app);
    expect(seniorDms('priya', e.id)).toHaveLength(1);
  });

  it('a two-person action stays open to alerts after the first taker and closes after the second joins', async () => {
    const t = await urgentAction(h, 'Hoist Mr Grant back to bed');
    const marked = await command(h, 'priya', `/care two-staff ${t.no} on`);
    expect(marked.text).toContain('needs two staff');
    await at(h, t.began, 2);
    await h.driver.clickButton('sophie', { channel: '#care-leads', ts: alert(t.id)!.ts, text: 'Take it' });
    await waitForAlert(t.id, '1 of 2: @sophie — need one more', 'the alert never said 1 of 2');
    expect(alertText(t.id)).toContain('[Join (I’ll be the second)]');
    await poll(h);

    // Taken by one of two: the ladder goes on.
    await at(h, t.began, 15);
    await escalate(h.app);
    expect(reminders(t.id)).toHaveLength(1);

    await at(h, t.began, 16);
    await h.driver.clickButton('priya', { channel: '#care-leads', ts: alert(t.id)!.ts, text: 'Join (I’ll be the second)', confirm: 'accept' });
    await waitForAlert(t.id, '@priya joined at', 'the alert never said Priya joined');
    expect(alertText(t.id)).not.toContain('need one more');
    expect(alertText(t.id)).not.toContain('[Join');
    for (const minutes of [30, 45]) {
      await at(h, t.began, minutes);
      await escalate(h.app);
    }
    expect(seniorDms('oliver', t.id)).toHaveLength(0);
    expect(managersPosts(t.id)).toHaveLength(0);
    // Both are kept: who took it (the audit) and who joined.
    expect((await h.app.store.listEpisodeAnswers(h.fake.teamId, t.id)).map((x) => [x.slackUserId, x.answer])).toEqual([['U0PRIYA', 'join']]);
    expect((await h.app.store.listAudit({ actionId: t.id, verb: 'action.assign' }))[0]?.userId).toBe('U0SOPHIE');
  });
});

describe('a note on an answer follows the retention of task text (issue 33)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ startAt: START, sandbox: { seed: 'empty' }, retentionDays: 0 });
    await linkDirectly(h, 'priya');
    await poll(h);
    await command(h, 'amelia', '/care digest here urgent-only', { channel: '#care-leads' });
  });
  afterAll(async () => h?.close());

  it('cleared once the action’s messages are edited down; who answered what, and when, stay', async () => {
    const a = await urgentAction(h, 'Mrs Whitfield needs her dressing changed');
    const alert = h.fake.messages('#care-leads').find(ofAction('urgent', a.id))!;
    await h.setTime(new Date(a.began + 2 * MIN));
    await h.driver.clickButton('priya', { channel: '#care-leads', ts: alert.ts, text: 'I can’t' });
    await h.driver.modal('priya').fill('Why?', 'with another resident').fill('Note', NOTE).submit();
    await h.fake.waitFor(async () => ((await h.app.store.listEpisodeAnswers(h.fake.teamId, a.id)).length ? true : undefined), { timeoutMs: 10_000 });
    expect((await h.app.store.listEpisodeAnswers(h.fake.teamId, a.id))[0]?.note).toBe(NOTE);

    await h.control(`actions/${a.id}/complete`, {});
    await h.setTime(new Date(a.began + 10 * MIN));
    await poll(h);
    const run = await h.app.jobs.runOnce('retention');
    expect(run.ran).toBe(true);
    const [kept] = await h.app.store.listEpisodeAnswers(h.fake.teamId, a.id);
    expect(kept).toMatchObject({ slackUserId: 'U0PRIYA', answer: 'cant', reason: 'with-resident', note: null });
  });
});
