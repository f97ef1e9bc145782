/**
 * A care home's shifts: named wall-clock times that repeat every day
 * ("Day 07:00–19:00", "Night 19:00–07:00"). A shift that ends at or before
 * its start runs over midnight. Shifts may overlap (an early and a late that
 * share a handover half hour); the shift "on" at an instant is the one that
 * started most recently.
 *
 * An occurrence of a shift is identified by its name and the local date it
 * started on (`2026-03-28/Night`), so a clock change can neither skip nor
 * double it: a start in the hour skipped in spring maps to the same offset
 * later (01:30 → 02:30), and a start in the hour repeated in autumn to one
 * of the two.
 */
import { parseClockTime } from './clock-time.js';
import { addDays, localParts, zonedToUtc } from './zones.js';

export interface Shift {
  name: string;
  /** HH:MM local. */
  start: string;
  /** HH:MM local; at or before `start`: the next day. */
  end: string;
}

/** A care home's default: a day and a night, every day. */
export const DEFAULT_SHIFTS: readonly Shift[] = Object.freeze([
  { name: 'Day', start: '07:00', end: '19:00' },
  { name: 'Night', start: '19:00', end: '07:00' },
]);

export const MAX_SHIFTS = 6;
const NAME = /^[\p{L}\p{N}][\p{L}\p{N} '’-]{0,23}$/u;

/** One occurrence of a shift: from `startsAt` to `endsAt`, started on local `date`. */
export interface ShiftOccurrence {
  shift: Shift;
  /** The local date it started on. */
  date: string;
  startsAt: Date;
  endsAt: Date;
  /** `date/name`: the occurrence's identity (one per shift per local day). */
  id: string;
}

/** The occurrence of `shift` that starts on local `date`. */
export function occurrenceOf(shift: Shift, date: string, tz: string): ShiftOccurrence {
  const startsAt = zonedToUtc(date, shift.start, tz);
  const endDate = shift.end <= shift.start ? addDays(date, 1) : date;
  const endsAt = zonedToUtc(endDate, shift.end, tz);
  return { shift, date, startsAt, endsAt, id: `${date}/${shift.name}` };
}

/** Every shift start from the local day before `from` to the local day after `to`, in time order. */
function startsAround(shifts: readonly Shift[], from: Date, to: Date, tz: string): ShiftOccurrence[] {
  const out: ShiftOccurrence[] = [];
  const last = addDays(localParts(to, tz).date, 1);
  for (let date = addDays(localParts(from, tz).date, -1); date <= last; date = addDays(date, 1)) {
    for (const shift of shifts) out.push(occurrenceOf(shift, date, tz));
  }
  return out.sort((a, b) => a.startsAt.getTime() - b.startsAt.getTime() || a.shift.name.localeCompare(b.shift.name));
}

/** The shift on at `now`: the one that started most recently (at or before `now`). */
export function currentShift(shifts: readonly Shift[], now: Date, tz: string): ShiftOccurrence {
  if (shifts.length === 0) throw new RangeError('no shifts');
  const started = startsAround(shifts, now, now, tz).filter((o) => o.startsAt.getTime() <= now.getTime());
  return started[started.length - 1]!;
}

/** The next shift start strictly after `after` (the next handover). */
export function nextShiftChange(shifts: readonly Shift[], after: Date, tz: string): ShiftOccurrence {
  if (shifts.length === 0) throw new RangeError('no shifts');
  return startsAround(shifts, after, after, tz).find((o) => o.startsAt.getTime() > after.getTime())!;
}

/** Every shift start in (`from`, `to`], in time order (what a scheduler that was away has missed). */
export function shiftChangesBetween(shifts: readonly Shift[], from: Date, to: Date, tz: string): ShiftOccurrence[] {
  return startsAround(shifts, from, to, tz).filter((o) => o.startsAt.getTime() > from.getTime() && o.startsAt.getTime() <= to.getTime());
}

/** "Day 07:00–19:00, Night 19:00–07:00" */
export function describeShifts(shifts: readonly Shift[]): string {
  return shifts.map((s) => `${s.name} ${s.start}–${s.end}`).join(', ');
}

/**
 * Shifts as an admin types them: "Day 07:00-19:00, Night 19:00-07:00" (a comma
 * or semicolon between shifts; `-`, `–` or `to` between times; 7am, 19:00,
 * 7.30pm all read). Names are unique (case aside); at most six shifts.
 */
export function parseShifts(text: string): { shifts: Shift[] } | { error: string } {
  const example = 'e.g. `Day 07:00-19:00, Night 19:00-07:00`';
  const parts = text
    .split(/[,;]/)
    .map((p) => p.trim())
    .filter(Boolean);
  if (parts.length === 0) return { error: `Name each shift with its start and end, ${example}.` };
  if (parts.length > MAX_SHIFTS) return { error: `At most ${MAX_SHIFTS} shifts; you gave ${parts.length}.` };
  const shifts: Shift[] = [];
  for (const part of parts) {
    const m = /^(.+?)\s+(\S+)\s*(?:-|–|—|\bto\b)\s*(\S+)$/iu.exec(part);
    if (!m) return { error: `"${part}" is not a shift: give a name, a start and an end, ${example}.` };
    const name = m[1]!.trim();
    const start = parseClockTime(m[2]!);
    const end = parseClockTime(m[3]!);
    if (!NAME.test(name)) return { error: `"${name}" is not a shift name: letters, digits and spaces, up to 24.` };
    if (!start || !end) return { error: `"${part}": the times must read as clock times, ${example}.` };
    if (start === end) return { error: `"${name}" starts and ends at ${start}: a shift cannot last a whole day or none.` };
    if (shifts.some((s) => s.name.toLowerCase() === name.toLowerCase())) return { error: `"${name}" is named twice.` };
    if (shifts.some((s) => s.start === start)) return { error: `Two shifts start at ${start}; each shift change needs its own time.` };
    shifts.push({ name, start, end });
  }
  return { shifts: shifts.sort((a, b) => a.start.localeCompare(b.start)) };
}
