import { addDays, localParts, zonedToUtc } from './zones.js';

/** The quick reschedules a card offers ("pick a date and time" is a form, not a rule). */
export const SNOOZE_CHOICES = ['hour', 'evening', 'tomorrow', 'monday'] as const;
export type SnoozeChoice = (typeof SNOOZE_CHOICES)[number];

export const isSnoozeChoice = (s: string): s is SnoozeChoice => (SNOOZE_CHOICES as readonly string[]).includes(s);

/** "This evening" on a care shift. */
export const EVENING_TIME = '18:00';

const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;

export interface SnoozeFrom {
  /** When the person snoozes. */
  now: Date;
  /** The action's due time now (null: none set). */
  due: Date | null;
  /** The person's time zone (their Slack zone). */
  tz: string;
}

/**
 * The new due time for a quick reschedule, on the wall clock of the person's zone:
 *
 * - `hour`: one hour later than the later of now and the current due time, so a
 *   snooze never brings an action forward (overdue: an hour from now; due at
 *   15:00: 16:00). Whole minutes; a real hour across a clock change.
 * - `evening`: 18:00 today; once it is 18:00 or later, 18:00 tomorrow.
 * - `tomorrow`: tomorrow (the day after today) at the time of day it is due
 *   (the time now when it has no due time).
 * - `monday`: next Monday (a week on when today is Monday) at that same time.
 *
 * Calendar days are local: across a clock change "tomorrow 09:00" is 09:00 on
 * the wall clock, 23 or 25 hours later.
 */
export function snoozeDue(choice: SnoozeChoice, from: SnoozeFrom): Date {
  const { now, due, tz } = from;
  const today = localParts(now, tz);
  const timeOfDay = localParts(due ?? now, tz).time;
  switch (choice) {
    case 'hour': {
      const base = Math.max(now.getTime(), due?.getTime() ?? 0);
      return new Date(Math.floor((base + HOUR_MS) / MINUTE_MS) * MINUTE_MS);
    }
    case 'evening':
      return zonedToUtc(today.time < EVENING_TIME ? today.date : addDays(today.date, 1), EVENING_TIME, tz);
    case 'tomorrow':
      return zonedToUtc(addDays(today.date, 1), timeOfDay, tz);
    case 'monday': {
      const days = (8 - today.weekday) % 7 || 7;
      return zonedToUtc(addDays(today.date, days), timeOfDay, tz);
    }
  }
}

/**
 * Whether a new due time brings the action forward: earlier than the due time it had. A quick choice can
 * ("tomorrow at the same time" for an action due in two days), and so can a picked date; it is then said as
 * "moved earlier", never "snoozed". No due time before (or after): not earlier.
 */
export function movesEarlier(from: Date | null | undefined, to: Date | null | undefined): boolean {
  return Boolean(from && to && to.getTime() < from.getTime());
}
