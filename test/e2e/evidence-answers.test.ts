/**
 * The evidence file shows the answers to urgent alerts (issue 33): an "I'm on it", an "I can't" with its reason
 * and a two-person action's two staff are in the CSV with who and when (the Answers and Staff columns, always),
 * and the notes written with them only in the Notes column with `--with-tasks`. Through the sandbox over HTTP,
 * the Slack fake and a real SQLite store; the world clock (2027-06-15 09:00 UTC, 10:00 in London) moved by hand.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCsv } from '../helpers/csv.js';
import { deliveryActionId, deliveryKind, poll } from './fixtures/jobs-support.js';
import { command, linkDirectly, startHarness, webAppAction, type Harness } from './harness.js';

const START = new Date('2027-06-15T09:00:00Z');
const MIN = 60_000;
/** Notes that name residents: in the file only with --with-tasks. */
const ON_IT_NOTE = 'Going to Mrs Whitfield in room 4 now';
const CANT_NOTE = 'Helping Mr Ahmed in the bath';

type Meta = { metadata?: { event_type?: string; event_payload?: Record<string, unknown> } };
const ofAction = (kind: string, id: string) => (m: Meta) => deliveryKind(m) === kind && deliveryActionId(m) === id;

describe('answers and two staff in the evidence file', () => {
  let h: Harness;
  const care: Record<string, string> = {};
  const name = (user: string) => h.driver.user(user).real_name;
  /** To the start of a later minute: the world clock runs on from there, so what follows happens within that minute. */
  const later = (minutes: number) => h.setTime(new Date(Math.floor(h.now().getTime() / MIN) * MIN + minutes * MIN));
  const alert = (id: string) => h.fake.messages('#care-leads').find(ofAction('urgent', id));
  const alertSays = (id: string, words: string) =>
    h.fake.waitFor(
      () => {
        const post = alert(id);
        return post && h.fake.visibleText(post, { viewer: 'amelia' }).includes(words) ? true : undefined;
      },
      { timeoutMs: 10_000, message: `the alert never said “${words}”` },
    );
  const actions: Record<'onIt' | 'cant' | 'two', { id: string; no: string }> = {} as never;
  /** The minute each answer was given in, in London's wall clock (BST): the file says it with its seconds and offset. */
  const when: Record<'onIt' | 'cant' | 'join', string> = {} as never;
  const london = () => new Date(h.now().getTime() + 60 * MIN).toISOString().slice(0, 16);
  /** A cell's line: at `minute` (any second, BST), then the words. */
  const line = (minute: string, words: string) => new RegExp(`^${minute}:\\d\\d\\+01:00 ${words.replace(/[()+]/g, '\\$&')}$`);

  async function urgent(task: string, assignee: string | null = null) {
    await later(1);
    const a = await webAppAction(h, { task, due: new Date(h.now().getTime() + 3 * 60 * MIN), urgent: true, assigned_to: assignee });
    await poll(h);
    await h.fake.waitFor(() => alert(a._id), { timeoutMs: 10_000, message: 'no urgent alert' });
    await later(1);
    return { id: a._id, no: a.action_no };
  }

  async function exportAs(line: string) {
    const before = h.fake.files({ dm: 'amelia' }).length;
    await command(h, 'amelia', line, { channel: '#care-team' }, 60_000);
    const file = await h.fake.waitFor(() => h.fake.files({ dm: 'amelia' })[before], { timeoutMs: 60_000, message: 'no file in the DM' });
    const [header, ...rows] = parseCsv(file.text);
    const cell = (no: string, column: string) => {
      expect(header, `no ${column} column`).toContain(column);
      return rows.find((r) => r[0] === no)![header!.indexOf(column)]!;
    };
    return { text: file.text, header: header!, cell };
  }

  beforeAll(async () => {
    h = await startHarness({ startAt: START, sandbox: { seed: 'empty' } });
    for (const person of ['sophie', 'oliver', 'priya']) care[person] = await linkDirectly(h, person);
    await poll(h);
    await command(h, 'amelia', '/care digest here urgent-only', { channel: '#care-leads' });

    // Priya is on Sophie's action, with a note.
    actions.onIt = await urgent('Mrs Whitfield has fallen', care.sophie!);
    await h.driver.clickButton('priya', { channel: '#care-leads', ts: alert(actions.onIt.id)!.ts, text: 'I’m on it' });
    when.onIt = london();
    await h.driver.modal('priya').fill('Note', ON_IT_NOTE).submit();
    await alertSays(actions.onIt.id, '@priya is on it since');

    // Sophie can't, on break, with a note.
    actions.cant = await urgent('Mr Ahmed needs help to stand');
    await h.driver.clickButton('sophie', { channel: '#care-leads', ts: alert(actions.cant.id)!.ts, text: 'I can’t' });
    when.cant = london();
    await h.driver.modal('sophie').fill('Why?', 'on break').fill('Note', CANT_NOTE).submit();
    await alertSays(actions.cant.id, "@sophie can't: on break");

    // A two-person action: Sophie takes it, Priya joins.
    actions.two = await urgent('Hoist Mr Grant back to bed');
    expect((await command(h, 'priya', `/care two-staff ${actions.two.no} on`)).text).toContain('needs two staff');
    await h.driver.clickButton('sophie', { channel: '#care-leads', ts: alert(actions.two.id)!.ts, text: 'Take it' });
    await alertSays(actions.two.id, '1 of 2: @sophie — need one more');
    await poll(h);
    await later(1);
    await h.driver.clickButton('priya', { channel: '#care-leads', ts: alert(actions.two.id)!.ts, text: 'Join (I’ll be the second)', confirm: 'accept' });
    when.join = london();
    await alertSays(actions.two.id, '@priya joined at');
    await later(5);
  }, 120_000);
  afterAll(async () => h?.close());

  it('without --with-tasks: who was on it, who can’t and why, and the two staff, with when; no note at all', async () => {
    const file = await exportAs('/care evidence');
    expect(file.header.slice(-2)).toEqual(['Answers', 'Staff']);
    expect(file.cell(actions.onIt.no, 'Answers')).toMatch(line(when.onIt, `${name('priya')}: on it`));
    expect(file.cell(actions.cant.no, 'Answers')).toMatch(line(when.cant, `${name('sophie')}: can't (on break)`));
    expect(file.cell(actions.two.no, 'Answers')).toMatch(line(when.join, `${name('priya')}: joined`));
    expect(file.cell(actions.two.no, 'Staff')).toBe(`2 of 2: ${name('sophie')}, ${name('priya')}`);
    // Not a two-person action: no staff count.
    expect(file.cell(actions.onIt.no, 'Staff')).toBe('');
    expect(file.header).not.toContain('Notes');
    for (const words of [ON_IT_NOTE, CANT_NOTE, 'Whitfield', 'Ahmed']) expect(file.text).not.toContain(words);
  }, 90_000);

  it('with --with-tasks: the notes written with the answers are in the Notes column, with who and when', async () => {
    const file = await exportAs('/care evidence --with-tasks');
    expect(file.cell(actions.onIt.no, 'Notes')).toMatch(line(when.onIt, `${name('priya')} (on it): ${ON_IT_NOTE}`));
    expect(file.cell(actions.cant.no, 'Notes')).toMatch(line(when.cant, `${name('sophie')} (can't): ${CANT_NOTE}`));
    // The Answers column still carries no note.
    expect(file.cell(actions.onIt.no, 'Answers')).not.toContain(ON_IT_NOTE);
    expect(file.cell(actions.cant.no, 'Answers')).not.toContain(CANT_NOTE);
    expect(file.cell(actions.two.no, 'Staff')).toBe(`2 of 2: ${name('sophie')}, ${name('priya')}`);
  }, 90_000);
});
