/**
 * The message that carries an evidence export's file (pure): the range, the headline figures and the
 * counts by location, and whether task text is in the file. Location names and counts only: no resident,
 * no task text (it is also the notification's text).
 */
import { durationText, type EvidenceFigures } from './evidence-figures.js';
import type { EvidenceRange } from './evidence-range.js';

/** Locations named in the message (the file has them all). */
const MAX_BY_LOCATION = 15;

const dayText = (date: string) =>
  new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', day: 'numeric', month: 'short', year: 'numeric' }).format(new Date(`${date}T00:00:00Z`));

/** Names as typed in the care system, kept out of Slack markup. */
const plain = (s: string) => s.replace(/[<>&*_~`]/g, ' ').trim();

export function evidenceMessage(m: {
  range: EvidenceRange;
  tz: string;
  location: string | null;
  figures: EvidenceFigures;
  withTasks: boolean;
  truncated: boolean;
}): string {
  const f = m.figures;
  const where = m.location ? `at ${plain(m.location)}` : 'at all locations';
  const lines = [`Evidence export: actions first due or completed ${dayText(m.range.from)} to ${dayText(m.range.to)} ${where} (times in ${m.tz}).`];
  if (f.actions === 0) {
    lines.push('No action was first due or completed in that range.');
  } else {
    lines.push(
      `${f.actions} actions: ${f.completed} completed, ${f.onTimePercent === null ? 'none to judge on time' : `${f.onTimePercent}% of them on time by their first due time (${f.onTime})`}; ${f.late} completed late${
        f.medianMinutesLate === null ? '' : `, median ${durationText(f.medianMinutesLate)} late`
      }; ${f.openOverdue} still open and overdue.`,
    );
    const shown = f.byLocation.slice(0, MAX_BY_LOCATION);
    lines.push(
      `By location: ${shown.map((l) => `${plain(l.location)} ${l.actions} (${l.completed} completed, ${l.late} late, ${l.openOverdue} open overdue)`).join('; ')}${
        f.byLocation.length > shown.length ? `; and ${f.byLocation.length - shown.length} more in the file` : ''
      }.`,
    );
  }
  if (m.truncated) lines.push(`Only the first ${f.actions} actions are in the file: export a shorter range for the rest.`);
  lines.push(m.withTasks ? 'Task text is included in the file (--with-tasks).' : 'Task text is not included; add --with-tasks to include it.');
  return lines.join('\n');
}
