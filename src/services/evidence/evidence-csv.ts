/**
 * The evidence export as CSV (pure): RFC 4180 (CRLF line ends, quotes doubled), every field quoted, with a
 * guard against formula injection: a cell a spreadsheet could evaluate gets a leading apostrophe. Times are
 * the workspace zone's wall clock with that moment's offset, so each names one instant.
 */
import { isoWithOffset } from '../../time/iso-offset.js';
import { answersCell, staffCell } from './answers-evidence.js';
import type { CompletedThrough, EvidenceNote, EvidenceRow, Timeliness } from './evidence-rows.js';

/**
 * What a spreadsheet may skip before the character it reads as the start of a cell: spaces (NBSP, the
 * ideographic space...), tabs, line ends, control characters and invisible ones (zero-width spaces and
 * joiners, direction marks, the BOM, soft hyphen, Hangul fillers).
 */
const SKIPPED =
  '\\s\\u0000-\\u001f\\u007f-\\u009f\\u00ad\\u034f\\u061c\\u115f\\u1160\\u17b4\\u17b5\\u180b-\\u180f\\u200b-\\u200f\\u2028-\\u202f\\u205f-\\u206f\\u3164\\ufe00-\\ufe0f\\ufeff\\uffa0';
/** The signs that start a formula, and their fullwidth and small forms (＝ ＋ － ＠, ﹦ ﹢ ﹣ ﹫). */
const SIGNS = '=+\\-@\\uff1d\\uff0b\\uff0d\\uff20\\ufe66\\ufe62\\ufe63\\ufe6b';
/** A cell whose first character a spreadsheet reads (after what it skips) is a sign, or that starts with a tab or CR. */
const FORMULA_START = new RegExp(`^(?:[\\t\\r]|[${SKIPPED}]*[${SIGNS}])`, 'u');
/** A sign after a separator (`a;=1+1`): a spreadsheet splitting on that separator would start a cell with it. */
const FORMULA_AFTER_SEPARATOR = new RegExp(`[,;|\\t\\r\\n][${SKIPPED}]*[${SIGNS}]`, 'u');

/** Pure: whether a spreadsheet could evaluate this cell (or a piece of it split off at a separator). */
export function couldBeFormula(value: string): boolean {
  return FORMULA_START.test(value) || FORMULA_AFTER_SEPARATOR.test(value);
}

/** One CSV field: guarded against formulas (a leading apostrophe), always quoted, its quotes doubled. */
export function csvField(value: string): string {
  const safe = couldBeFormula(value) ? `'${value}` : value;
  return `"${safe.replace(/"/g, '""')}"`;
}

export function csvLine(fields: readonly string[]): string {
  return `${fields.map(csvField).join(',')}\r\n`;
}

export const THROUGH_TEXT: Record<CompletedThrough, string> = {
  slack: 'Slack',
  'web-app': 'web app',
  'care-system': 'care system',
  unknown: 'unknown',
};

export const BASE_COLUMNS = [
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
] as const;

/** Minutes late at completion, or (open) minutes overdue now, from the first due time; empty when not yet due. */
function minutes(t: Timeliness): string {
  if (t.kind === 'late') return String(t.minutesLate);
  if (t.kind === 'open-overdue') return String(t.minutesOverdue);
  if (t.kind === 'on-time') return '0';
  return '';
}

export function latenessText(t: Timeliness): string {
  switch (t.kind) {
    case 'on-time':
      return 'on time';
    case 'late':
      return 'completed late';
    case 'open-overdue':
      return 'still open, overdue';
    case 'open':
      return 'open, not yet due';
    case 'no-due':
      return 'no due time';
  }
}

const NOTE_ON: Record<string, string> = { complete: 'completing', take: 'taking it', 'on-it': 'on it', cant: "can't", join: 'joining' };

/** The Notes cell: one line per note, oldest first: "<time> <who> (completing): <words>" (a note's own line ends shown as " / "). */
export function notesCell(notes: readonly EvidenceNote[], tz: string): string {
  return notes.map((n) => `${isoWithOffset(n.at, tz)} ${n.by} (${NOTE_ON[n.verb] ?? n.verb}): ${n.text.replace(/\s*\n\s*/g, ' / ')}`).join('\n');
}

/** With task text, the notes people wrote (they may name residents), then the task. Without it, neither. */
export function evidenceCsv(rows: readonly EvidenceRow[], options: { tz: string; withTasks: boolean }): string {
  const time = (ms: number | null) => (ms === null ? '' : isoWithOffset(ms, options.tz));
  let out = csvLine(options.withTasks ? [...BASE_COLUMNS, 'Notes', 'Task'] : BASE_COLUMNS);
  for (const r of rows) {
    const fields = [
      r.number,
      r.location,
      time(r.created),
      time(r.firstDue),
      time(r.due),
      time(r.completed),
      r.completedBy,
      minutes(r.timeliness),
      latenessText(r.timeliness),
      r.through ? THROUGH_TEXT[r.through] : '',
      String(r.reschedules),
      r.assignedTo,
      r.urgent ? 'yes' : 'no',
      r.safeguarding ? 'yes' : 'no',
      answersCell(r.answers ?? [], options.tz),
      staffCell(r.staff),
    ];
    out += csvLine(options.withTasks ? [...fields, notesCell(r.notes ?? [], options.tz), r.task ?? ''] : fields);
  }
  return out;
}
