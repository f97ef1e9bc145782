import { addDays, localParts, startOfLocalDay } from './zones.js';

export type DueWindowName = 'overdue' | 'today' | 'tomorrow' | 'week';

/** A half-open interval of due instants [from, to); `from` null means "since ever". */
export interface DueWindow {
  name: DueWindowName;
  from: Date | null;
  to: Date;
}

/**
 * The due window a person means, in their time zone: `overdue` is everything due
 * before now; `today` and `tomorrow` are whole local days; `week` is today and
 * the next 7 local days. Computed precisely here; the API's date filters only
 * narrow the query (see apiDateRange).
 */
export function dueWindow(name: DueWindowName, now: Date, tz: string): DueWindow {
  const today = localParts(now, tz).date;
  const startToday = startOfLocalDay(today, tz);
  switch (name) {
    case 'overdue':
      return { name, from: null, to: now };
    case 'today':
      return { name, from: startToday, to: startOfLocalDay(addDays(today, 1), tz) };
    case 'tomorrow':
      return { name, from: startOfLocalDay(addDays(today, 1), tz), to: startOfLocalDay(addDays(today, 2), tz) };
    case 'week':
      return { name, from: startToday, to: startOfLocalDay(addDays(today, 8), tz) };
  }
}

export function inWindow(due: Date, window: DueWindow): boolean {
  const t = due.getTime();
  return (window.from === null || t >= window.from.getTime()) && t < window.to.getTime();
}

const utcDate = (d: Date) => d.toISOString().slice(0, 10);

/**
 * The coarse API date filters (`start_date`/`end_date`, inclusive UTC dates of
 * `due`) that cover a precise window. Callers still filter by `due` in code.
 */
export function apiDateRange(window: DueWindow): { start_date?: string; end_date: string } {
  const lastInstant = new Date(window.to.getTime() - 1);
  return window.from ? { start_date: utcDate(window.from), end_date: utcDate(lastInstant) } : { end_date: utcDate(lastInstant) };
}
