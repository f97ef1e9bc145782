/**
 * Notes that become evidence (issue 33): Complete and Take it can carry a short note — `/care done 301 <note>`,
 * or "Complete with note…" / "Take it with note…" in a card's or an alert's "⋯" menu. The note is kept by the app
 * (the care API has none), shown in History with who and when among the other changes, in the evidence CSV only
 * with `--with-tasks`, never in any message; the post says who did it, never the note.
 * Clocks: Tuesday 2026-11-24 (GMT: London reads UTC).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCsv } from '../helpers/csv.js';
import { deliveryActionId, deliveryKind, poll } from './fixtures/jobs-support.js';
import { command, linkDirectly, startHarness, webAppAction, type Harness } from './harness.js';

const NOTES = {
  command: 'Gave Mrs Halloran 2 paracetamol, GP told',
  card: 'Dressing changed on Mr Okafor left heel, photo in file',
  take: 'Going now with the hoist, Mrs Patel room 12',
};

describe('notes on Complete and Take it', () => {
  let h: Harness;
  const care: Record<string, string> = {};
  const at = (hhmm: string) => h.setTime(new Date(`2026-11-24T${hhmm}:00Z`));
  const action = (id: string) => h.control(`actions/${id}`);
  const alertIn = (actionId: string) =>
    h.fake.waitFor(() => h.fake.messages('#care-leads').find((m) => deliveryKind(m) === 'urgent' && deliveryActionId(m) === actionId), { timeoutMs: 10_000 });
  const noteForm = (user: string) =>
    h.fake.waitFor(() => (h.fake.openModal(user)?.view.callback_id === 'care_note_modal' ? h.fake.openModal(user) : undefined), {
      timeoutMs: 10_000,
      message: `${user} saw no note form`,
    });

  /** `user` opens the action's card (`/care show`) and clicks History: the modal's text as they read it. */
  async function historyAs(user: string, actionNo: string): Promise<string> {
    while (h.fake.openModal(user)) await h.driver.modal(user).close();
    await command(h, user, `/care show ${actionNo}`);
    await h.driver.clickButton(user, { ephemeral: true, channel: '#care-team', text: 'History' });
    return h.fake.waitFor(
      () => {
        const m = h.fake.openModal(user);
        const text = m ? h.fake.visibleText(m.view, { viewer: user }) : '';
        return text.includes(`History of action #${actionNo}`) ? text : undefined;
      },
      { timeoutMs: 10_000, message: `${user} saw no history` },
    );
  }

  /** Waits until the action has a note kept (the form's work runs after it closed). */
  const noteKept = (actionId: string) =>
    h.fake.waitFor(async () => ((await h.app.store.listNotes(h.fake.teamId, [actionId])).length ? true : undefined), {
      timeoutMs: 10_000,
      message: 'no note kept',
    });

  /** Everything posted, edited or said in Slack's conversations (channels, DMs, ephemeral answers), as JSON. */
  const everyMessage = () =>
    JSON.stringify([h.fake.state.messages, h.fake.state.ephemerals, h.fake.state.calls.filter((c) => c.method.startsWith('chat.')).map((c) => c.args)]);

  beforeAll(async () => {
    h = await startHarness({ startAt: new Date('2026-11-24T09:00:00Z'), sandbox: { seed: 'empty' } });
    for (const person of ['sophie', 'oliver', 'priya']) care[person] = await linkDirectly(h, person);
    await command(h, 'amelia', '/care digest here urgent-only', { channel: '#care-leads' });
    await poll(h);
  });
  afterAll(async () => h?.close());

  it('`/care done 301 <note>` completes it and keeps the note: History shows it with who and when, right after the completion', async () => {
    await at('10:00');
    const a = await webAppAction(h, { task: 'Evening pain relief, room 4', due: new Date('2026-11-24T12:00:00Z'), assigned_to: care.priya! });
    await at('10:05');
    const reply = await command(h, 'priya', `/care done ${a.action_no} ${NOTES.command}`);
    expect(reply.text).toContain('Completed. Your note is kept with it, in its History.');
    expect((await action(a._id)).completed).not.toBeNull();
    await at('10:10');
    // Oliver reads it in New York: 10:05 in London is 05:05 there.
    const history = await historyAs('oliver', a.action_no);
    expect(history).toContain(`Completed by @priya at 05:05\n:memo: Note by @priya when completing it: “${NOTES.command}” at 05:05`);
  });

  it('`/care done 301 302` is still one action at a time (never a note of "302"), and a note over 500 characters is refused: nothing is completed', async () => {
    await at('10:20');
    const a = await webAppAction(h, { task: 'Weigh Mr Byrne', due: new Date('2026-11-24T15:00:00Z'), assigned_to: care.sophie! });
    const b = await webAppAction(h, { task: 'Weigh Mrs Byrne', due: new Date('2026-11-24T15:00:00Z'), assigned_to: care.sophie! });
    const two = await command(h, 'sophie', `/care done ${a.action_no} ${b.action_no}`);
    expect(two.text).toContain('/care done <action no or Id>');
    expect(two.text).toContain('One action at a time');
    const long = await command(h, 'sophie', `/care done ${a.action_no} ${'word '.repeat(120)}`);
    expect(long.text).toContain('The note is 599 characters long; keep it to 500. Nothing was changed.');
    expect((await action(a._id)).completed).toBeNull();
    expect((await action(b._id)).completed).toBeNull();
    // A note of numbers alone goes after --note.
    expect((await command(h, 'sophie', `/care done ${a.action_no} --note 2`)).text).toContain('Your note is kept');
    expect(await historyAs('sophie', a.action_no)).toContain('Note by @sophie when completing it: “2”');
  });

  it('"Complete with note…" on one’s own card: the form, then the action is complete and the note in History; Complete itself stays one click', async () => {
    await at('11:00');
    const a = await webAppAction(h, { task: 'Change the heel dressing', due: new Date('2026-11-24T14:00:00Z'), assigned_to: care.sophie! });
    const card = await command(h, 'sophie', `/care show ${a.action_no}`);
    expect(card.text).toContain('[Complete]');
    await h.driver.selectOption('sophie', { ephemeral: true, channel: '#care-team', control: 'care_note_menu', option: 'Complete with note…' });
    const form = await noteForm('sophie');
    const asked = h.fake.visibleText(form.view, { viewer: 'sophie' });
    expect(asked).toContain(`Complete action #${a.action_no}, assigned to @sophie, with a note?`);
    expect(asked).toContain('It is never posted in a channel');
    await at('11:02');
    expect((await h.driver.modal('sophie').fill('Note', NOTES.card).submit()).outcome).toBe('closed');
    await h.fake.waitFor(async () => ((await action(a._id)).completed ? true : undefined), { timeoutMs: 10_000, message: 'not completed' });
    await noteKept(a._id);
    const history = await historyAs('sophie', a.action_no);
    expect(history).toContain(`Completed by @sophie at 11:02\n:memo: Note by @sophie when completing it: “${NOTES.card}” at 11:02`);
  });

  it('an empty note is asked again under its field, and nothing is done', async () => {
    await at('11:30');
    const a = await webAppAction(h, { task: 'Fill the water jugs', due: new Date('2026-11-24T14:00:00Z'), assigned_to: care.sophie! });
    await command(h, 'sophie', `/care show ${a.action_no}`);
    await h.driver.selectOption('sophie', { ephemeral: true, channel: '#care-team', control: 'care_note_menu', option: 'Complete with note…' });
    await noteForm('sophie');
    const result = await h.driver.modal('sophie').fill('Note', '   \u0007  ').submit();
    expect(result.outcome).not.toBe('closed');
    expect(h.fake.inlineError('sophie', 'Note')).toBe('The note is empty: write a few words, or complete without one.');
    await h.driver.modal('sophie').close();
    expect((await action(a._id)).completed).toBeNull();
    expect(await h.app.store.listNotes(h.fake.teamId, [a._id])).toEqual([]);
  });

  it('"Take it with note…" on a channel’s urgent alert: the form names the assignee; the post says who took it, never the note; the assignee is told', async () => {
    await at('12:00');
    const a = await webAppAction(h, {
      task: 'Transfer with the hoist, room 12',
      due: new Date('2026-11-24T12:30:00Z'),
      urgent: true,
      assigned_to: care.oliver!,
    });
    await poll(h);
    const post = await alertIn(a._id);
    await h.driver.selectOption('priya', { channel: '#care-leads', ts: post.ts, control: 'care_note_menu', option: 'Take it with note…' });
    const form = await noteForm('priya');
    const asked = h.fake.visibleText(form.view, { viewer: 'priya' });
    expect(asked).toContain(`Action #${a.action_no} is assigned to @oliver. Take it yourself, with a note? They will be told.`);
    expect(asked).toContain('Everyone in this channel will see that you took it (not your note).');
    await at('12:01');
    expect((await h.driver.modal('priya').fill('Note', NOTES.take).submit()).outcome).toBe('closed');
    await h.fake.waitFor(async () => ((await action(a._id)).assigned_to === care.priya ? true : undefined), { timeoutMs: 10_000, message: 'not taken' });
    await noteKept(a._id);
    const seen = await h.fake.waitFor(
      async () => {
        const text = h.fake.visibleText(await alertIn(a._id), { viewer: 'oliver' });
        return text.includes('Taken by') ? text : undefined;
      },
      { timeoutMs: 10_000, message: 'the post does not say who took it' },
    );
    expect(seen).toContain('Taken by @priya');
    expect(seen).not.toContain('hoist, Mrs Patel');
    await h.fake.waitFor(() => h.fake.dms('oliver').find((m) => deliveryKind(m) === 'change' && deliveryActionId(m) === a._id), {
      timeoutMs: 10_000,
      message: 'Oliver was not told',
    });
    expect(await historyAs('sophie', a.action_no)).toContain(`Note by @priya when taking it: “${NOTES.take}” at 12:01`);
  });

  it('the evidence CSV has a Notes column with each note, who and when, only with --with-tasks; without it no note is in the file', async () => {
    await at('16:00');
    const exportAs = async (line: string) => {
      const before = h.fake.files({ dm: 'amelia' }).length;
      await command(h, 'amelia', line, { channel: '#care-team' }, 60_000);
      const file = await h.fake.waitFor(() => h.fake.files({ dm: 'amelia' })[before], { timeoutMs: 60_000, message: 'no file in the DM' });
      return { text: file.text, rows: parseCsv(file.text) };
    };
    const withTasks = await exportAs('/care evidence --with-tasks');
    const [header, ...rows] = withTasks.rows;
    const notesAt = header!.indexOf('Notes');
    expect(header!.slice(-2)).toEqual(['Notes', 'Task']);
    const cells = rows.map((r) => r[notesAt]!).filter(Boolean);
    const priya = h.driver.user('priya').real_name;
    expect(cells).toContain(`2026-11-24T10:05:00+00:00 ${priya} (completing): ${NOTES.command}`);
    expect(cells.join('\n')).toContain(`(taking it): ${NOTES.take}`);
    expect(cells.join('\n')).toContain(NOTES.card);
    const without = await exportAs('/care evidence');
    expect(without.rows[0]).not.toContain('Notes');
    for (const words of [...Object.values(NOTES), 'paracetamol']) expect(without.text).not.toContain(words);
  }, 120_000);

  it('no note reaches any message: channel posts, DMs, ephemeral answers and every chat call', async () => {
    const all = everyMessage();
    for (const words of Object.values(NOTES)) expect(all).not.toContain(words);
    expect(all).not.toContain('Halloran');
  });

  it('no note is in the app’s log, at any level (debug included)', () => {
    const logged = h.logs.join('\n');
    for (const words of [...Object.values(NOTES), 'Halloran', 'Okafor']) expect(logged).not.toContain(words);
  });
});
