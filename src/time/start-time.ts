/**
 * When a digest or a morning summary goes out: at a clock time every day (or
 * weekdays), or at the start of the care home's shifts. Stored in the same text
 * column as a clock time:
 *
 *   "08:00"       at 08:00 local
 *   "shift"       at every shift's start (Day at 07:00 and Night at 19:00 by default)
 *   "shift:Day"   at the start of the shift named Day only
 *
 * Each is due once per occurrence: a clock time once per local date (its id is
 * the date, `2027-10-31`), a shift start once per shift occurrence (its id is
 * the shift's, `2027-10-31/Day`), so a clock change neither skips nor doubles
 * one. A missed one is caught up late only while it still applies: a clock time
 * until the local day ends, a shift start while that shift is still on.
 */
import { type DigestDays, runsOn } from './schedule.js';
import { currentShift, nextShiftChange, occurrenceOf, type Shift } from './shifts.js';
import { addDays, localParts, zonedToUtc } from './zones.js';

export type StartTime = { type: 'clock'; time: string } | { type: 'shift'; name?: string };

export const EVERY_SHIFT = 'shift';
const SHIFT_PREFIX = 'shift:';

/** The stored text of a start time. */
export function storedStartTime(s: StartTime): string {
  if (s.type === 'clock') return s.time;
  return s.name ? `${SHIFT_PREFIX}${s.name}` : EVERY_SHIFT;
}

/** A stored start time read back ("08:00", "shift", "shift:Day"). */
export function readStartTime(stored: string): StartTime {
  if (stored === EVERY_SHIFT) return { type: 'shift' };
  if (stored.startsWith(SHIFT_PREFIX)) return { type: 'shift', name: stored.slice(SHIFT_PREFIX.length) };
  return { type: 'clock', time: stored };
}

export const isShiftStart = (stored: string): boolean => readStartTime(stored).type === 'shift';

/** A shift start or a clock time, with the days it runs on and the zone of its clock (the home's, for shifts). */
export interface StartSchedule {
  /** Stored form: "HH:MM", "shift" or "shift:<name>". */
  time: string;
  days: DigestDays;
  timezone: string;
  /** The care home's shifts (only read for a shift start). */
  shifts: readonly Shift[];
}

/** One occurrence: `id` is its ledger occurrence (a date, or `date/shift`), `at` the instant it is due. */
export interface StartOccurrence {
  id: string;
  at: Date;
  /** The shift whose start it is (shift starts only). */
  shift?: Shift;
}

/** The shift a named start time means (names are compared case aside); undefined when no shift has that name. */
export function namedShift(shifts: readonly Shift[], name: string): Shift | undefined {
  return shifts.find((s) => s.name.toLowerCase() === name.toLowerCase());
}

/** The occurrence due at `now` (its time has come and it still applies), or null. */
export function dueStart(s: StartSchedule, now: Date): StartOccurrence | null {
  const start = readStartTime(s.time);
  if (start.type === 'clock') {
    const today = localParts(now, s.timezone).date;
    if (!runsOn(today, s.days)) return null;
    const at = zonedToUtc(today, start.time, s.timezone);
    return at.getTime() <= now.getTime() ? { id: today, at } : null;
  }
  if (s.shifts.length === 0) return null;
  if (!start.name) {
    const on = currentShift(s.shifts, now, s.timezone);
    return runsOn(on.date, s.days) ? { id: on.id, at: on.startsAt, shift: on.shift } : null;
  }
  const shift = namedShift(s.shifts, start.name);
  if (!shift) return null;
  const today = localParts(now, s.timezone).date;
  // The latest occurrence that has started (today's, or yesterday's when it runs over midnight), while it is on.
  for (const date of [today, addDays(today, -1)]) {
    const occ = occurrenceOf(shift, date, s.timezone);
    if (occ.startsAt.getTime() > now.getTime()) continue;
    if (occ.endsAt.getTime() <= now.getTime() || !runsOn(date, s.days)) return null;
    return { id: occ.id, at: occ.startsAt, shift };
  }
  return null;
}

/** The next occurrence strictly after `after`, or null when there is none (a named shift that no longer exists). */
export function nextStart(s: StartSchedule, after: Date): StartOccurrence | null {
  const start = readStartTime(s.time);
  const first = localParts(after, s.timezone).date;
  if (start.type === 'clock') {
    for (let date = first, i = 0; i < 9; i++, date = addDays(date, 1)) {
      if (!runsOn(date, s.days)) continue;
      const at = zonedToUtc(date, start.time, s.timezone);
      if (at.getTime() > after.getTime()) return { id: date, at };
    }
    return null;
  }
  if (s.shifts.length === 0) return null;
  if (!start.name) {
    let from = after;
    for (let i = 0; i < 9 * s.shifts.length + 1; i++) {
      const occ = nextShiftChange(s.shifts, from, s.timezone);
      if (runsOn(occ.date, s.days)) return { id: occ.id, at: occ.startsAt, shift: occ.shift };
      from = occ.startsAt;
    }
    return null;
  }
  const shift = namedShift(s.shifts, start.name);
  if (!shift) return null;
  for (let date = addDays(first, -1), i = 0; i < 10; i++, date = addDays(date, 1)) {
    if (!runsOn(date, s.days)) continue;
    const occ = occurrenceOf(shift, date, s.timezone);
    if (occ.startsAt.getTime() > after.getTime()) return { id: occ.id, at: occ.startsAt, shift };
  }
  return null;
}
