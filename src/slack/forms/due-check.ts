/**
 * Checks on a due time before it goes to the care system. Pure: the clock and
 * the zone are given.
 *
 * - In the past: refused, with the time it is now in the person's zone. An edit
 *   may keep the due time the action already had (an overdue action can still
 *   have its task changed).
 * - More than a year ahead: asked about once. The form is drawn again with the
 *   question under the due time and the instant sealed in its metadata; the
 *   same due time submitted again is kept.
 */
import { TZDate } from '@date-fns/tz';
import { localParts } from '../../time/zones.js';
import { FieldIds as F } from '../ids.js';

export type DueCheck = { kind: 'ok' } | { kind: 'refuse'; block: string; message: string } | { kind: 'ask'; message: string };

export const FAR_AHEAD_QUESTION = 'More than a year ahead: check the date. Submit again to keep it.';

/** The same minute (the form picks minutes; the care system may hold seconds). */
const sameInstant = (a: Date, iso: string | undefined) => iso !== undefined && Math.floor(Date.parse(iso) / 60_000) === Math.floor(a.getTime() / 60_000);

/** "14:05 (Europe/London), Tuesday 10 March" */
export function nowInWords(now: Date, tz: string): string {
  const time = new Intl.DateTimeFormat('en-GB', { timeZone: tz, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(now);
  const day = new Intl.DateTimeFormat('en-GB', { timeZone: tz, weekday: 'long', day: 'numeric', month: 'long' }).format(now);
  return `${time} (${tz}), ${day}`;
}

export function checkDue(due: Date, now: Date, tz: string, allow: { dueWas?: string | undefined; farAheadOk?: string | undefined } = {}): DueCheck {
  if (sameInstant(due, allow.dueWas)) return { kind: 'ok' };
  // The form picks minutes: the current minute is not in the past.
  const minute = Math.floor(now.getTime() / 60_000) * 60_000;
  if (due.getTime() < minute) {
    const earlierDay = localParts(due, tz).date < localParts(now, tz).date;
    return { kind: 'refuse', block: earlierDay ? F.dueDate : F.dueTime, message: `That is in the past: it is now ${nowInWords(now, tz)}. Pick a later time.` };
  }
  const yearAhead = new TZDate(now.getTime(), tz);
  yearAhead.setFullYear(yearAhead.getFullYear() + 1);
  if (due.getTime() > yearAhead.getTime() && !sameInstant(due, allow.farAheadOk)) return { kind: 'ask', message: FAR_AHEAD_QUESTION };
  return { kind: 'ok' };
}
