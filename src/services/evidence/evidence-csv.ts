/**
 * The evidence export as CSV (pure): RFC 4180 (CRLF line ends, every field that holds a comma, a quote,
 * CR or LF quoted, quotes doubled), with a guard against formula injection: a cell that a spreadsheet
 * would read as a formula (starting with = + - @, a tab or CR) gets a leading apostrophe. Times are the
 * workspace zone's wall clock with that moment's offset, so each names one instant.
 */
import { isoWithOffset } from '../../time/iso-offset.js';
import type { CompletedThrough, EvidenceRow, Timeliness } from './evidence-rows.js';

const FORMULA_START = /^[=+\-@\t\r]/;

/** One CSV field: guarded against formulas, quoted when it must be. */
export function csvField(value: string): string {
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
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

export const BASE_COLUMNS = ['Number', 'Location', 'Created', 'Due', 'Completed', 'Completed by', 'Minutes late', 'Lateness', 'Completed through'] as const;

/** Minutes late at completion, or (open) minutes overdue now; empty when on time or not yet due. */
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

export function evidenceCsv(rows: readonly EvidenceRow[], options: { tz: string; withTasks: boolean }): string {
  const time = (ms: number | null) => (ms === null ? '' : isoWithOffset(ms, options.tz));
  let out = csvLine(options.withTasks ? [...BASE_COLUMNS, 'Task'] : BASE_COLUMNS);
  for (const r of rows) {
    const fields = [
      r.number,
      r.location,
      time(r.created),
      time(r.due),
      time(r.completed),
      r.completedBy,
      minutes(r.timeliness),
      latenessText(r.timeliness),
      r.through ? THROUGH_TEXT[r.through] : '',
    ];
    out += csvLine(options.withTasks ? [...fields, r.task ?? ''] : fields);
  }
  return out;
}
