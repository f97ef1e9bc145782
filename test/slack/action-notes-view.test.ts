/** Notes (issue 33), the pure parts: `/care done … <note>`, the note's limits, its History line, its menu and its CSV cell. */
import { describe, expect, it } from 'vitest';
import { withNotes, type HistoryEntry } from '../../src/services/actions/action-history.js';
import type { ActionView } from '../../src/services/action-model.js';
import { checkNote, NOTE_MAX } from '../../src/services/actions/action-notes.js';
import { evidenceCsv, notesCell } from '../../src/services/evidence/evidence-csv.js';
import type { EvidenceRow } from '../../src/services/evidence/evidence-rows.js';
import type { ActionNote } from '../../src/store/index.js';
import { parseCommand } from '../../src/slack/commands/parse.js';
import { cardButtons } from '../../src/slack/views/action-card.js';
import { historyLines } from '../../src/slack/views/action-history.js';
import { noteMenu, offerTakeNote, parseNoteOption } from '../../src/slack/views/note-menu.js';
import { parseCsv } from '../helpers/csv.js';

const ID = 'a'.repeat(24);

describe('/care done with a note', () => {
  it('reads the words after the one action as its note, and keeps `/care done 301` as it was', () => {
    expect(parseCommand('done 301')).toEqual({ kind: 'done', ref: { type: 'no', no: '301' } });
    expect(parseCommand('done #301 gave 2 tablets, GP told')).toEqual({ kind: 'done', ref: { type: 'no', no: '301' }, note: 'gave 2 tablets, GP told' });
    expect(parseCommand(`done ${ID} all   done`)).toEqual({ kind: 'done', ref: { type: 'id', id: ID }, note: 'all   done' });
    // A note that begins with a number is a note when words follow it.
    expect(parseCommand('done 301 2 tablets at 10:05')).toMatchObject({ kind: 'done', note: '2 tablets at 10:05' });
  });

  it('never reads more action numbers as a note: one action at a time; numbers alone go after --note', () => {
    for (const line of ['done 301 302', 'done 301 #302 303', `done 301 ${ID}`]) {
      const parsed = parseCommand(line);
      expect(parsed.kind, line).toBe('error');
      expect((parsed as { message: string }).message).toContain('One action at a time');
    }
    expect(parseCommand('done 301 --note 302')).toEqual({ kind: 'done', ref: { type: 'no', no: '301' }, note: '302' });
    expect(parseCommand('done 301 --note')).toEqual({ kind: 'error', message: 'The note is empty: write a few words, or complete without one.' });
  });

  it('refuses a note longer than 500 characters, saying how long it was; reopen and show still take one action only', () => {
    const long = parseCommand(`done 301 ${'x'.repeat(NOTE_MAX + 1)}`);
    expect(long).toEqual({ kind: 'error', message: 'The note is 501 characters long; keep it to 500. Nothing was changed.' });
    expect(parseCommand(`done 301 ${'x'.repeat(NOTE_MAX)}`)).toMatchObject({ kind: 'done' });
    expect(parseCommand('reopen 301 oops').kind).toBe('error');
    expect(parseCommand('show 301 302').kind).toBe('error');
  });
});

describe('a note as kept', () => {
  it('is trimmed, its control characters made spaces (line ends kept), counted in characters not UTF-16 units', () => {
    expect(checkNote('  gave\u0007 tablets\r\nGP told  ')).toEqual({ ok: true, text: 'gave  tablets\nGP told' });
    expect(checkNote(' \t ')).toEqual({ ok: false, message: 'The note is empty: write a few words, or complete without one.' });
    expect(checkNote('😀'.repeat(NOTE_MAX)).ok).toBe(true);
  });
});

describe('a note in History', () => {
  const at = (iso: string) => new Date(iso);
  const note = (over: Partial<ActionNote>): ActionNote => ({
    id: 1,
    actionId: ID,
    verb: 'complete',
    slackUserId: 'U0PRIYA',
    careUserId: null,
    text: 'gave *2* tablets\nGP told <b>',
    createdAt: Date.UTC(2026, 10, 24, 10, 5),
    ...over,
  });

  it('is a line of its own after the change it went with, who and when, its words without markup on one line', () => {
    const entries: HistoryEntry[] = [
      { at: at('2026-11-24T09:00:00Z'), verb: 'care.create', by: null, details: {} },
      { at: at('2026-11-24T10:05:00Z'), verb: 'action.complete', by: 'U0PRIYA', details: {} },
      { at: at('2026-11-24T11:00:00Z'), verb: 'action.reopen', by: 'U0OLIVER', details: {} },
    ];
    const lines = historyLines(
      withNotes(entries, [note({}), note({ id: 2, verb: 'take', slackUserId: 'U0OLIVER', text: 'on my way', createdAt: Date.UTC(2026, 10, 24, 9, 30) })]),
      'Europe/London',
    );
    expect(lines).toEqual([
      '*Tuesday 24 November 2026*',
      'Created in the care system at 09:00',
      ':memo: Note by <@U0OLIVER> when taking it: “on my way” at 09:30',
      'Completed by <@U0PRIYA> at 10:05',
      ':memo: Note by <@U0PRIYA> when completing it: “gave ∗2∗ tablets / GP told &lt;b&gt;” at 10:05',
      'Reopened by <@U0OLIVER> at 11:00',
    ]);
  });
});

describe('the note menu', () => {
  const view = (over: Partial<ActionView> = {}): ActionView => ({
    id: ID,
    actionNo: '4',
    task: 'Hoist transfer',
    due: new Date('2026-11-24T14:00:00Z'),
    urgent: true,
    completed: null,
    assignee: null,
    ...over,
  });
  type Overflow = { type: string; action_id: string; options: { text: { text: string }; value: string }[] };
  const menuOf = (elements: unknown[]) => elements.find((e) => (e as Overflow).type === 'overflow') as Overflow | undefined;

  it('is on an open card (Complete with note…), not on a complete one, nor where task text is hidden', () => {
    expect(menuOf(cardButtons(view()).elements)?.options.map((o) => [o.text.text, o.value])).toEqual([['Complete with note…', `complete:${ID}`]]);
    expect(menuOf(cardButtons(view({ completed: new Date() })).elements)).toBeUndefined();
    expect(menuOf(cardButtons(view(), { shared: true, showTask: false }).elements)).toBeUndefined();
  });

  it('offers Take it with note… where Take it is, once; its options read back; anything else is refused', () => {
    const block = { type: 'actions' as const, elements: [noteMenu(view())] };
    offerTakeNote(offerTakeNote(block, view()), view());
    expect(menuOf(block.elements)?.options.map((o) => o.value)).toEqual([`complete:${ID}`, `take:${ID}`]);
    expect(parseNoteOption(`take:${ID}`)).toEqual({ move: 'take', actionId: ID });
    expect(parseNoteOption(`reopen:${ID}`)).toBeNull();
    expect(parseNoteOption('complete:123')).toBeNull();
  });
});

describe('notes in the evidence CSV', () => {
  const row: EvidenceRow = {
    number: '17',
    location: 'Willow House',
    created: null,
    firstDue: null,
    due: null,
    completed: null,
    reschedules: 0,
    assignedTo: '',
    urgent: false,
    completedBy: '',
    through: null,
    timeliness: { kind: 'no-due' },
    task: 'Eye drops',
    notes: [
      { at: Date.UTC(2026, 6, 1, 9, 0), by: 'Priya Sharma', verb: 'take', text: 'on my way' },
      { at: Date.UTC(2026, 6, 1, 9, 30), by: 'Priya Sharma', verb: 'complete', text: '2 drops, "both" eyes\n=HYPERLINK("x")' },
    ],
  };

  it('one line per note, oldest first, with the zone’s offset; a Notes column only with task text', () => {
    expect(notesCell(row.notes!, 'Europe/London')).toBe(
      '2026-07-01T10:00:00+01:00 Priya Sharma (taking it): on my way\n2026-07-01T10:30:00+01:00 Priya Sharma (completing): 2 drops, "both" eyes / =HYPERLINK("x")',
    );
    const [head, body] = parseCsv(evidenceCsv([row], { tz: 'Europe/London', withTasks: true }));
    expect(head!.slice(-2)).toEqual(['Notes', 'Task']);
    // A note's own line end is no line of the cell (each line starts with its time); a cell holding a formula-like piece is guarded whole.
    expect(body!.at(-2)).toBe(notesCell(row.notes!, 'Europe/London'));
    const risky = { ...row, notes: [{ at: 0, by: 'P', verb: 'complete', text: 'done, =cmd|" /c calc"!A1' }] };
    expect(
      parseCsv(evidenceCsv([risky], { tz: 'Europe/London', withTasks: true }))[1]!
        .at(-2)!
        .startsWith("'"),
    ).toBe(true);
    const without = evidenceCsv([row], { tz: 'Europe/London', withTasks: false });
    expect(without).not.toContain('Notes');
    expect(without).not.toContain('drops');
  });
});
