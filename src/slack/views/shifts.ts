import type { ShiftsNow } from '../../services/shift-work/home-shifts.js';
import { describeShifts } from '../../time/shifts.js';
import { userText } from '../text.js';

/** "Night shift — 19:00 to 07:00 · next: Day at 07:00" (the Home tab's line, and `/care shifts`). */
export function shiftNowLine(s: ShiftsNow): string {
  const on = s.current.shift;
  return `${userText(on.name, 24)} shift — ${on.start} to ${on.end} · next: ${userText(s.next.shift.name, 24)} at ${s.next.shift.start}`;
}

const HOW = 'Admins change them with `/care shifts Day 07:00-19:00, Night 19:00-07:00` (or `/care shifts default`).';

/** The answer to `/care shifts`, and after a change (`changed`). */
export function shiftsText(s: ShiftsNow, changed = false): string {
  const list = `${userText(describeShifts(s.shifts), 400)}${s.isDefault ? ' (the default)' : ''}`;
  const head = changed ? `:white_check_mark: Shifts set: ${list}, every day (${s.timezone}).` : `*Shifts* (every day, ${s.timezone}): ${list}.`;
  const follow = changed ? ' Digests and summaries set to `shift-start` follow them from the next shift change.' : ` ${HOW}`;
  return `${head} On now: *${shiftNowLine(s)}*.${follow}`;
}
