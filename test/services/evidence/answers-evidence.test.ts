/**
 * The answers as the evidence file says them (issue 33): the Answers cell (who, when, the reason's words; never a
 * note), the Staff cell of a two-person action, and the answers' notes for the Notes column (only with task text).
 */
import { describe, expect, it } from 'vitest';
import { answerNotes, answersCell, evidenceAnswers, staffCell } from '../../../src/services/evidence/answers-evidence.js';
import { evidenceCsv } from '../../../src/services/evidence/evidence-csv.js';
import type { EvidenceRow } from '../../../src/services/evidence/evidence-rows.js';
import type { EpisodeAnswer } from '../../../src/store/index.js';
import { parseCsv } from '../../helpers/csv.js';

const EPISODE = '2026-10-25T00:00:00Z';
const BEGAN = Date.parse(EPISODE);
const MIN = 60_000;
const NAMES: Record<string, string> = { U0A: 'Ann Lee', U0B: 'Ben Ode', U0C: 'Cat Roy', U0D: 'Dan Fox', U0E: 'Eve Hart' };
const nameOf = (id: string) => NAMES[id] ?? id;
let next = 1;

function answer(slackUserId: string, kind: EpisodeAnswer['answer'], minutes: number, extra: Partial<EpisodeAnswer> = {}): EpisodeAnswer {
  return {
    id: next++,
    actionId: 'a',
    episode: EPISODE,
    slackUserId,
    careUserId: null,
    answer: kind,
    reason: kind === 'cant' ? 'on-break' : null,
    note: null,
    doerSlackUserId: null,
    at: BEGAN + minutes * MIN,
    undoneAt: null,
    ...extra,
  };
}

const rows = [
  answer('U0B', 'join', 3),
  answer('U0A', 'cant', 1, { reason: 'with-resident', note: 'with Mrs P in room 4' }),
  answer('U0C', 'on-it', 2, { undoneAt: BEGAN + 4 * MIN }),
  answer('U0D', 'on-it', 5, { doerSlackUserId: 'U0E', note: 'Eve has the hoist' }),
];

describe('the answers as evidence', () => {
  it('one line per answer, oldest first, in the zone’s wall clock with its offset: who, what, the reason’s words, an undo; never a note', () => {
    // 25 Oct 2026: 01:01 BST, then (after the clocks went back at 02:00 BST) GMT.
    const cell = answersCell(evidenceAnswers(rows, nameOf), 'Europe/London');
    expect(cell.split('\n')).toEqual([
      "2026-10-25T01:01:00+01:00 Ann Lee: can't (with another resident)",
      '2026-10-25T01:02:00+01:00 Cat Roy: on it (undone 2026-10-25T01:04:00+01:00)',
      '2026-10-25T01:03:00+01:00 Ben Ode: joined',
      '2026-10-25T01:05:00+01:00 Dan Fox: said Eve Hart is on it',
    ]);
    expect(cell).not.toContain('Mrs P');
    expect(cell).not.toContain('hoist');
  });

  it('the staff of a two-person action: "2 of 2: …", "1 of 2: …", "0 of 2"; nothing for other actions', () => {
    expect(staffCell({ names: ['Ann Lee', 'Ben Ode'], needed: 2 })).toBe('2 of 2: Ann Lee, Ben Ode');
    expect(staffCell({ names: ['Ann Lee'], needed: 2 })).toBe('1 of 2: Ann Lee');
    expect(staffCell({ names: [], needed: 2 })).toBe('0 of 2');
    expect(staffCell(null)).toBe('');
  });

  it('the answers’ notes for the Notes column, with who wrote them and with what answer', () => {
    expect(answerNotes(rows, nameOf)).toEqual([
      { at: BEGAN + MIN, by: 'Ann Lee', verb: 'cant', text: 'with Mrs P in room 4' },
      { at: BEGAN + 5 * MIN, by: 'Dan Fox', verb: 'on-it', text: 'Eve has the hoist' },
    ]);
  });

  it('in the file: Answers and Staff always (formula-guarded), the answers’ notes only in the Notes column with task text', () => {
    const row: EvidenceRow = {
      number: '7',
      location: 'Willow House',
      created: BEGAN - 60 * MIN,
      firstDue: BEGAN + 30 * MIN,
      due: BEGAN + 30 * MIN,
      completed: null,
      reschedules: 0,
      assignedTo: '',
      urgent: true,
      completedBy: '',
      through: null,
      timeliness: { kind: 'open' },
      task: 'Hoist Mrs P',
      answers: evidenceAnswers([answer('U0F', 'on-it', 1)], () => '=Evil Name'),
      staff: { names: ['Ben Ode', '=Evil Name'], needed: 2 },
      notes: answerNotes(rows, nameOf),
    };
    const [head, plain] = parseCsv(evidenceCsv([row], { tz: 'Europe/London', withTasks: false }));
    expect(head!.slice(-2)).toEqual(['Answers', 'Staff']);
    // "=Evil Name" after ", " would start a cell of a spreadsheet splitting on commas: the Staff cell is guarded.
    expect(plain!.slice(-2)).toEqual(['2026-10-25T01:01:00+01:00 =Evil Name: on it', "'2 of 2: Ben Ode, =Evil Name"]);
    const [withHead, withTasks] = parseCsv(evidenceCsv([row], { tz: 'Europe/London', withTasks: true }));
    expect(withHead!.slice(-4)).toEqual(['Answers', 'Staff', 'Notes', 'Task']);
    expect(withTasks![withHead!.indexOf('Notes')]!.split('\n')).toEqual([
      "2026-10-25T01:01:00+01:00 Ann Lee (can't): with Mrs P in room 4",
      '2026-10-25T01:05:00+01:00 Dan Fox (on it): Eve has the hoist',
    ]);
    expect(evidenceCsv([row], { tz: 'Europe/London', withTasks: false })).not.toContain('Mrs P in room 4');
    // A name with a separator and a sign in it is guarded in the Answers cell too.
    const named = evidenceAnswers([answer('U0F', 'on-it', 1)], () => 'Al;=cmd|"/c calc"!A1');
    const cells = parseCsv(evidenceCsv([{ ...row, answers: named, staff: null }], { tz: 'UTC', withTasks: false }))[1]!;
    expect(cells.slice(-2)).toEqual(['\'2026-10-25T00:01:00+00:00 Al;=cmd|"/c calc"!A1: on it', '']);
  });
});
