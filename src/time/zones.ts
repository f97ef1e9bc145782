import { TZDate } from '@date-fns/tz';

/** A calendar date and wall-clock time in some time zone. */
export interface LocalParts {
  date: string; // YYYY-MM-DD
  time: string; // HH:MM
  weekday: number; // 0 = Sunday
}

const pad = (n: number) => String(n).padStart(2, '0');

/** Whether `tz` is an IANA time zone this runtime knows: the store's check (it validates its own input and may not import this module). */
export { isTimeZone as isValidTimeZone } from '../store/time-zone.js';

/** What a wall clock in `tz` shows at `instant`. */
export function localParts(instant: Date | number, tz: string): LocalParts {
  const d = new TZDate(typeof instant === 'number' ? instant : instant.getTime(), tz);
  return {
    date: `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`,
    time: `${pad(d.getHours())}:${pad(d.getMinutes())}`,
    weekday: d.getDay(),
  };
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;

export function isIsoDate(s: string): boolean {
  const m = DATE.exec(s);
  if (!m) return false;
  const d = new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!));
  return d.getUTCFullYear() === +m[1]! && d.getUTCMonth() === +m[2]! - 1 && d.getUTCDate() === +m[3]!;
}

export function isHhMm(s: string): boolean {
  return TIME.test(s);
}

/**
 * The instant at which a wall clock in `tz` shows `date` `time`. Every local
 * date and time maps to exactly one instant: a time skipped by a spring-forward
 * change maps to the same offset later (01:30 -> 02:30 BST), and a time that
 * happens twice in the autumn maps to one of the two, never both.
 */
export function zonedToUtc(date: string, time: string, tz: string): Date {
  const dm = DATE.exec(date);
  const tm = TIME.exec(time);
  if (!dm || !tm) throw new RangeError(`not a local date/time: ${date} ${time}`);
  const d = new TZDate(+dm[1]!, +dm[2]! - 1, +dm[3]!, +tm[1]!, +tm[2]!, 0, tz);
  return new Date(d.getTime());
}

/** The start (00:00 local) of a local calendar date, as an instant. */
export function startOfLocalDay(date: string, tz: string): Date {
  return zonedToUtc(date, '00:00', tz);
}

/** The local calendar date `days` after `date` (pure calendar arithmetic). */
export function addDays(date: string, days: number): string {
  const m = DATE.exec(date);
  if (!m) throw new RangeError(`not a date: ${date}`);
  const d = new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]! + days));
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
}

/** Weekday (0 = Sunday) of a calendar date. */
export function weekdayOf(date: string): number {
  const m = DATE.exec(date);
  if (!m) throw new RangeError(`not a date: ${date}`);
  return new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!)).getUTCDay();
}
