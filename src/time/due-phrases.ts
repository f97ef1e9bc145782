/**
 * A due date and time read from the words of a task ("Call the GP tomorrow 3pm"),
 * in the person's own time zone, and the task without those words. Pure: the
 * clock and the zone are given.
 *
 * chrono-node's British parser (day first: 23/11 is 23 November) finds the
 * phrase. It is given the person's wall clock as if it were UTC, so every date
 * and time it returns is a wall-clock reading in the person's zone, whatever
 * zone the process runs in; `zonedToUtc` turns it into an instant across clock
 * changes. "in 2 hours" is elapsed time from the real now (so it stays 2 hours
 * over a clock change).
 *
 * Words that could be a date but usually are not stay in the task: a month
 * alone ("Dr March"), a fraction or flat number ("1/2 dose", "Flat 3/4"), "sat"
 * and "sun" alone, a part of the day alone ("Night staff", "Morning meds"),
 * "10 mins" without "in", a bare hour ("at 3": 3 am or 3 pm?), "now", and
 * a day before today said in passing ("last night", "yesterday" alone).
 * Those that look like a day or a time are listed (`unread`) so the form can say so.
 *
 * A date in the past is read when it was said as one: "yesterday 3pm", a date
 * with its year, or a day and month just gone ("24/11 14:00" on 26 November is
 * two days ago, not next year: within RECENT_DAYS it is kept). The form then
 * says it has passed, rather than quietly moving it a year on.
 */
import * as chrono from 'chrono-node';
import { isIsoDate, localParts, zonedToUtc } from './zones.js';

export interface DuePhrase {
  /** The task with the date words taken out (the text as given when none were found). */
  task: string;
  /** YYYY-MM-DD in the person's zone, when the words named a day or a time. */
  date?: string;
  /** HH:MM in the person's zone, when the words named a time ("tonight" is 20:00). */
  time?: string;
  /** The words that were read as the due time, as written. */
  phrase?: string;
  /** The due time read has already passed (a date just gone, "yesterday 3pm"). */
  past?: boolean;
  /** Words that look like a day or a time but were not read as the due time, as written (they stay in the task). */
  unread?: string[];
}

/** A day and month without a year that fell this many days ago or fewer is that past day, not next year's. */
export const RECENT_DAYS = 62;

/** Hours for a part of the day named without a time. */
export const PART_OF_DAY_HOURS = { morning: 9, afternoon: 14, evening: 18, tonight: 20 } as const;

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * Weekday spellings British people write that chrono does not know, replaced
 * by one it does of the same length (so positions in the text do not move).
 */
export function normaliseDueWords(text: string): string {
  return text.replace(/\b(tues|weds)\b/gi, (w) => `${w.slice(0, 3)}.`);
}

/** Weekday abbreviations that are also everyday words: read as a day only with a time, "on", "next" or "this". */
const WORDS_THAT_ARE_DAYS_TOO = new Set(['sat', 'sun', 'wed', 'wed.']);
/** Words left dangling before a removed phrase ("by 3pm", "for tomorrow"). */
const CONNECTOR = /(?:^|\s)(?:at|on|by|due|for|before)\s*$/i;

function isUsable(r: chrono.ParsedResult, before: string): boolean {
  const tags = r.tags();
  const text = r.text.trim().toLowerCase();
  const start = r.start;
  if (tags.has('casualReference/now')) return false;
  if (tags.has('result/relativeDate')) return /^in\s/.test(text) || /\bin\s*$/i.test(before);
  const hasDay = start.isCertain('day') || start.isCertain('weekday');
  const hasTime = start.isCertain('hour');
  const partOfDay = [...tags].some((t) => /^casualReference\/(morning|afternoon|evening|tonight|noon|midnight)$/.test(t));
  if (!hasDay && !hasTime && !partOfDay) return false; // a month or year alone
  // "Night staff", "Morning meds", "afternoon tea": a part of the day alone is a day only as "tonight" or "this …".
  if (!hasDay && !hasTime && text !== 'tonight' && !/^this\s/.test(text)) return false;
  if (WORDS_THAT_ARE_DAYS_TOO.has(text)) return false;
  if (tags.has('parser/SlashDateFormatParser') && !hasTime && !start.isCertain('year') && !/\bon\s*$/i.test(before)) return false;
  if (hasTime && !partOfDay && !start.isCertain('meridiem')) {
    // "at 3": no minutes, no am/pm and not a 24-hour hour: leave it to the person.
    const hour = start.get('hour') ?? 0;
    if (hour >= 1 && hour <= 12 && !/\d[:.]\d\d/.test(text)) return false;
  }
  return true;
}

function partOfDayHour(tags: Set<string>): number | undefined {
  for (const [part, hour] of Object.entries(PART_OF_DAY_HOURS)) if (tags.has(`casualReference/${part}`)) return hour;
  return undefined;
}

/** Whether a rejected result still looks like a day or a time someone meant (worth saying it was not read). */
function looksLikeADueTime(r: chrono.ParsedResult): boolean {
  const text = r.text.trim().toLowerCase();
  const tags = r.tags();
  if (tags.has('casualReference/now') || WORDS_THAT_ARE_DAYS_TOO.has(text)) return false;
  if (tags.has('result/relativeDate')) return /\d/.test(text); // "10 mins", not "a day" of "3 times a day"
  return r.start.isCertain('day') || r.start.isCertain('weekday') || r.start.isCertain('hour');
}

/** Whether a usable result that names a day before today was said as a past day, so it is read (and shown as past). */
function saidAsPast(r: chrono.ParsedResult): boolean {
  const tags = r.tags();
  // "yesterday 3pm" is read; "yesterday" alone and "last night" are said in passing.
  if (tags.has('parser/ENCasualDateParser')) return tags.has('casualReference/yesterday') && r.start.isCertain('hour');
  // A date written out: with its year, or a day and month just gone (see dueOf).
  return r.start.isCertain('day') && r.start.isCertain('month');
}

/**
 * Take `[from, to)` out of `text` with a dangling connector before it. Only
 * where the words were is tidied (spaces, a doubled comma, empty brackets, a
 * colon left at an end); the rest of the task stays exactly as typed.
 */
function removeSpan(text: string, from: number, to: number): string {
  let head = text.slice(0, from);
  const connector = CONNECTOR.exec(head);
  if (connector) head = head.slice(0, connector.index);
  let tail = text.slice(to);
  const gap = `${/\s*$/.exec(head)![0]}${/^\s*/.exec(tail)![0]}`;
  head = head.trimEnd();
  tail = tail.trimStart();
  if (head.endsWith('(') && tail.startsWith(')')) {
    head = head.slice(0, -1).trimEnd();
    tail = tail.slice(1).trimStart();
  }
  if (/^[,;:]/.test(tail) && (head === '' || /[,;:]$/.test(head))) tail = tail.replace(/^[,;:]+\s*/, '');
  if (tail === '') head = head.replace(/[\s,;:–-]+$/, '');
  if (head === '') tail = tail.replace(/^[\s,;:–-]+/, '');
  if (head === '' || tail === '' || /^[,.;:!?)]/.test(tail)) return `${head}${tail}`;
  return `${head}${gap.includes('\n') ? '\n' : ' '}${tail}`;
}

/**
 * Read the first due phrase in `text` as seen by someone in `tz` at `now`.
 * Times already past today move to the next day ("9am" said at 10:00 is tomorrow).
 */
export function readDuePhrase(text: string, now: Date, tz: string): DuePhrase {
  const wall = localParts(now, tz);
  const [y, mo, d] = wall.date.split('-').map(Number) as [number, number, number];
  const [h, mi] = wall.time.split(':').map(Number) as [number, number];
  const seconds = Math.floor(now.getTime() / 1000) % 60;
  const reference = { instant: new Date(Date.UTC(y, mo - 1, d, h, mi, seconds)), timezone: 0 };
  const parse = (from: number) =>
    chrono.en.GB.parse(normaliseDueWords(text.slice(from)), reference, { forwardDate: true }).map((r) => Object.assign(r, { index: r.index + from }));
  const results = parse(0);
  let read: (DuePhrase & { date: string }) | undefined;
  let readSpan: [number, number] | undefined;
  const unread: string[] = [];
  for (let i = 0; i < results.length; i++) {
    const found = results[i]!;
    // Words already taken into the phrase read ("today 6pm") are not read again, nor listed as unread.
    if (readSpan && found.index < readSpan[1] && found.index + found.text.length > readSpan[0]) continue;
    const written = text.slice(found.index, found.index + found.text.length);
    const due = !read && isUsable(found, text.slice(0, found.index)) ? dueOf(found, now, reference.instant, tz, wall.date) : undefined;
    if (!due || (due.date < wall.date && !saidAsPast(found))) {
      // "room 12 today 6pm": chrono reads "12 today" (a bare hour, refused); the phrase after the number may be one.
      const number = !read ? /^\d+\s+/.exec(found.text) : null;
      const after = number ? parse(found.index + number[0].length).find((r) => r.index === found.index + number[0].length) : undefined;
      if (after) {
        results.splice(i + 1, 0, after);
        continue;
      }
      if (looksLikeADueTime(found)) unread.push(written);
      continue;
    }
    readSpan = [found.index, found.index + found.text.length];
    const past = due.time ? zonedToUtc(due.date, due.time, tz).getTime() < Math.floor(now.getTime() / 60_000) * 60_000 : due.date < wall.date;
    read = {
      task: removeSpan(text, found.index, found.index + found.text.length),
      ...due,
      phrase: written,
      ...(past ? { past: true } : {}),
    };
  }
  return { ...(read ?? { task: text }), ...(unread.length ? { unread } : {}) };
}

/** Days from one calendar date to a later one. */
const daysBetween = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);

/**
 * The local date and time a usable result names. A day and month without a
 * year that chrono put next year ("24/11" said on 26 November) is the day just
 * gone when that was at most RECENT_DAYS ago.
 */
function dueOf(found: chrono.ParsedResult, now: Date, reference: Date, tz: string, today: string): { date: string; time?: string } {
  const start = found.start;
  const tags = found.tags();
  let date: string;
  let time: string | undefined;
  if (tags.has('result/relativeDateAndTime')) {
    // Elapsed time: from the real now, then read in the person's zone.
    const at = localParts(new Date(now.getTime() + (start.date().getTime() - reference.getTime())), tz);
    date = at.date;
    time = at.time;
  } else {
    date = `${start.get('year')}-${pad(start.get('month') ?? 1)}-${pad(start.get('day') ?? 1)}`;
    if (start.isCertain('day') && start.isCertain('month') && !start.isCertain('year')) {
      const lastYear = `${(start.get('year') ?? 0) - 1}${date.slice(4)}`;
      if (isIsoDate(lastYear) && lastYear <= today && daysBetween(lastYear, today) <= RECENT_DAYS) date = lastYear;
    }
    const hour = start.isCertain('hour') ? start.get('hour') : partOfDayHour(tags);
    if (hour !== undefined && hour !== null) time = `${pad(hour)}:${pad(start.isCertain('hour') ? (start.get('minute') ?? 0) : 0)}`;
    if (tags.has('result/relativeDate')) time = undefined; // "in 3 days": the day, not the minute
  }
  // A local time skipped by a spring-forward change is shown as the time it becomes (01:30 -> 02:30).
  if (time) {
    const real = localParts(zonedToUtc(date, time, tz), tz);
    date = real.date;
    time = real.time;
  }
  return time ? { date, time } : { date };
}
