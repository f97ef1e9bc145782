import { describe, expect, it } from 'vitest';
import { csvField, csvLine, evidenceCsv } from '../../../src/services/evidence/evidence-csv.js';
import type { EvidenceRow } from '../../../src/services/evidence/evidence-rows.js';
import { parseCsv } from '../../helpers/csv.js';

const row = (over: Partial<EvidenceRow> = {}): EvidenceRow => ({
  number: '17',
  location: 'Willow House',
  created: Date.UTC(2026, 9, 20, 9, 0),
  firstDue: Date.UTC(2026, 9, 25, 0, 30),
  due: Date.UTC(2026, 9, 25, 0, 30),
  completed: Date.UTC(2026, 9, 25, 1, 30),
  reschedules: 0,
  assignedTo: 'Ben Whitaker',
  urgent: false,
  completedBy: 'Sophie Turner',
  through: 'slack',
  timeliness: { kind: 'late', minutesLate: 60 },
  task: 'Check the hoist',
  ...over,
});

describe('CSV fields (RFC 4180, formula guard)', () => {
  it('quotes every field and doubles its quotes', () => {
    expect(csvField('plain')).toBe('"plain"');
    expect(csvField('')).toBe('""');
    expect(csvField('Rose Wing, upstairs')).toBe('"Rose Wing, upstairs"');
    expect(csvField('the "big" hoist')).toBe('"the ""big"" hoist"');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField('a\r\nb')).toBe('"a\r\nb"');
    expect(csvLine(['a', 'b,c', ''])).toBe('"a","b,c",""\r\n');
  });

  it('puts an apostrophe before a cell a spreadsheet would run as a formula', () => {
    expect(csvField('=HYPERLINK("http://x","y")')).toBe('"\'=HYPERLINK(""http://x"",""y"")"');
    expect(csvField('+44 7700 900000')).toBe('"\'+44 7700 900000"');
    expect(csvField('-1')).toBe('"\'-1"');
    expect(csvField('@SUM(A1)')).toBe('"\'@SUM(A1)"');
    expect(csvField('\tx')).toBe('"\'\tx"');
    expect(csvField('\rx')).toBe('"\'\rx"');
    expect(csvField('a=b')).toBe('"a=b"');
    expect(csvField('2026-10-25T01:30:00+01:00')).toBe('"2026-10-25T01:30:00+01:00"');
  });

  it('sees a formula behind spaces, tabs, line ends and invisible characters, in fullwidth signs and after a separator', () => {
    const formulas = [
      ' =1+1',
      '   @SUM(A1)',
      '\t=1+1',
      '\r\n=1+1',
      '\n-2',
      '\u200b=1+1', // zero-width space
      '\u200d+1', // zero-width joiner
      '\u2060=1', // word joiner
      '\ufeff=1+1', // BOM
      '\u00a0=1+1', // NBSP
      '\u3000=1', // ideographic space
      '\u202e=1', // right-to-left override
      '\u00ad=1', // soft hyphen
      '＝1+1',
      '＋1',
      '－1',
      '＠SUM(A1)',
      ' \u200b＝1',
      '﹦1',
      'a;=1+1',
      'a; ＝1',
      'a,\u200b@SUM(A1)',
      'a|=1',
    ];
    for (const f of formulas) expect(csvField(f), JSON.stringify(f)).toBe(`"'${f.replace(/"/g, '""')}"`);
    for (const plain of ['a=b', 'x-ray', 'Room 2 + 3', 'Rose Wing, upstairs', 'e-mail@example.org', '１２'])
      expect(csvField(plain), JSON.stringify(plain)).toBe(`"${plain}"`);
  });
});

describe('the evidence CSV', () => {
  it('has its columns, one row per action, times in the zone with their offset on each side of the clock change', () => {
    const csv = evidenceCsv([row()], { tz: 'Europe/London', withTasks: false });
    expect(csv.endsWith('\r\n')).toBe(true);
    expect(parseCsv(csv)).toEqual([
      [
        'Number',
        'Location',
        'Created',
        'First due',
        'Due at completion',
        'Completed',
        'Completed by',
        'Minutes late',
        'Lateness',
        'Completed through',
        'Reschedules',
        'Assigned to',
        'Urgent',
        'Safeguarding',
        'Answers',
        'Staff',
      ],
      [
        '17',
        'Willow House',
        '2026-10-20T10:00:00+01:00',
        '2026-10-25T01:30:00+01:00',
        '2026-10-25T01:30:00+01:00',
        '2026-10-25T01:30:00+00:00',
        'Sophie Turner',
        '60',
        'completed late',
        'Slack',
        '0',
        'Ben Whitaker',
        'no',
        'no',
        '',
        '',
      ],
    ]);
  });

  it('adds the task column only with tasks, and a task survives quotes, commas, new lines and a leading =', () => {
    const task = '=cmd|"/c calc"!A1, then\nrest';
    const rows = parseCsv(evidenceCsv([row({ task })], { tz: 'Europe/London', withTasks: true }));
    expect(rows[0]!.at(-1)).toBe('Task');
    expect(rows[1]!.at(-1)).toBe(`'${task}`);
    expect(rows[1]).toHaveLength(18);
    expect(evidenceCsv([row({ task })], { tz: 'Europe/London', withTasks: false })).not.toContain('calc');
  });

  it('marks a safeguarding action in its own column (yes/no)', () => {
    const [head, marked, plain] = parseCsv(evidenceCsv([row({ safeguarding: true }), row({})], { tz: 'Europe/London', withTasks: false }));
    const at = head!.indexOf('Safeguarding');
    expect(at).toBeGreaterThan(head!.indexOf('Urgent'));
    expect([marked![at], plain![at]]).toEqual(['yes', 'no']);
  });

  it('writes open actions with empty completion cells and the minutes overdue', () => {
    const [, open, notDue] = parseCsv(
      evidenceCsv(
        [
          row({ completed: null, completedBy: '', through: null, timeliness: { kind: 'open-overdue', minutesOverdue: 1500 } }),
          row({ completed: null, completedBy: '', through: null, timeliness: { kind: 'open' } }),
        ],
        { tz: 'Europe/London', withTasks: false },
      ),
    );
    expect(open!.slice(5, 10)).toEqual(['', '', '1500', 'still open, overdue', '']);
    expect(notDue!.slice(5, 10)).toEqual(['', '', '', 'open, not yet due', '']);
  });
});
