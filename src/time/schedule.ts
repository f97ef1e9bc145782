import { addDays, localParts, weekdayOf, zonedToUtc } from './zones.js';

export type DigestDays = 'weekdays' | 'daily';

export interface DailySchedule {
  time: string; // HH:MM local
  days: DigestDays;
  timezone: string;
}

export function runsOn(date: string, days: DigestDays): boolean {
  if (days === 'daily') return true;
  const wd = weekdayOf(date);
  return wd >= 1 && wd <= 5;
}

/**
 * The occurrence of a daily schedule on a local date: the date itself is the
 * occurrence's identity (one per local day, so a clock change can neither skip
 * nor double it) and `at` is the one instant it is due.
 */
export function occurrenceOn(date: string, schedule: DailySchedule): { date: string; at: Date } | null {
  if (!runsOn(date, schedule.days)) return null;
  return { date, at: zonedToUtc(date, schedule.time, schedule.timezone) };
}

/**
 * The occurrence that is due at `now`: today's, once its time has come, and
 * only until the local day ends (a missed run is caught up the same day, never
 * the next).
 */
export function dueOccurrence(schedule: DailySchedule, now: Date): { date: string; at: Date } | null {
  const today = localParts(now, schedule.timezone).date;
  const occ = occurrenceOn(today, schedule);
  return occ && occ.at.getTime() <= now.getTime() ? occ : null;
}

/** The next occurrence strictly after `after` (for "advance the clock to the next digest"). */
export function nextOccurrence(schedule: DailySchedule, after: Date): { date: string; at: Date } {
  let date = localParts(after, schedule.timezone).date;
  for (let i = 0; i < 9; i++, date = addDays(date, 1)) {
    const occ = occurrenceOn(date, schedule);
    if (occ && occ.at.getTime() > after.getTime()) return occ;
  }
  throw new Error('no occurrence within 9 days');
}
