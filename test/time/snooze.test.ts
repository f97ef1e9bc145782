import { describe, expect, it } from 'vitest';
import { movesEarlier, type SnoozeChoice, snoozeDue } from '../../src/time/snooze.js';

const LONDON = 'Europe/London';
const NEW_YORK = 'America/New_York';

/**
 * Each quick reschedule, on the wall clock of the person's zone. London changes
 * clocks on 2026-03-29 (01:00 GMT -> 02:00 BST) and 2026-10-25 (02:00 BST -> 01:00 GMT).
 */
const cases: { says: string; choice: SnoozeChoice; now: string; due: string | null; tz: string; expected: string }[] = [
  // +1 hour: from the later of now and the due time, whole minutes
  {
    says: 'an overdue action moves to an hour from now',
    choice: 'hour',
    now: '2026-03-10T10:00:27Z',
    due: '2026-03-10T09:00:00Z',
    tz: LONDON,
    expected: '2026-03-10T11:00:00Z',
  },
  {
    says: 'an action due later moves an hour past its due time (never forward)',
    choice: 'hour',
    now: '2026-03-10T10:00:00Z',
    due: '2026-03-10T15:00:00Z',
    tz: LONDON,
    expected: '2026-03-10T16:00:00Z',
  },
  { says: 'no due time: an hour from now', choice: 'hour', now: '2026-03-10T10:15:00Z', due: null, tz: LONDON, expected: '2026-03-10T11:15:00Z' },
  {
    says: 'an hour across the spring change is a real hour (00:30 GMT -> 02:30 BST)',
    choice: 'hour',
    now: '2026-03-29T00:30:00Z',
    due: '2026-03-29T00:00:00Z',
    tz: LONDON,
    expected: '2026-03-29T01:30:00Z',
  },
  // this evening: 18:00 today, or tomorrow once it is 18:00
  {
    says: 'this evening in winter is 18:00 GMT',
    choice: 'evening',
    now: '2026-03-10T10:00:00Z',
    due: '2026-03-10T09:00:00Z',
    tz: LONDON,
    expected: '2026-03-10T18:00:00Z',
  },
  { says: 'this evening in summer is 18:00 BST', choice: 'evening', now: '2026-06-10T09:00:00Z', due: null, tz: LONDON, expected: '2026-06-10T17:00:00Z' },
  {
    says: 'at 18:00 or later "this evening" is tomorrow evening',
    choice: 'evening',
    now: '2026-03-10T19:30:00Z',
    due: '2026-03-10T19:00:00Z',
    tz: LONDON,
    expected: '2026-03-11T18:00:00Z',
  },
  {
    says: 'this evening on the day the clocks go forward is 18:00 BST',
    choice: 'evening',
    now: '2026-03-29T08:00:00Z',
    due: null,
    tz: LONDON,
    expected: '2026-03-29T17:00:00Z',
  },
  {
    says: "this evening is the person's own evening (New York)",
    choice: 'evening',
    now: '2026-03-10T15:00:00Z',
    due: null,
    tz: NEW_YORK,
    expected: '2026-03-10T22:00:00Z',
  },
  {
    says: 'late evening in New York is already tomorrow in London: still their evening',
    choice: 'evening',
    now: '2026-03-11T01:00:00Z',
    due: null,
    tz: NEW_YORK,
    expected: '2026-03-11T22:00:00Z',
  },
  // tomorrow, same time: the due time of day on the local calendar
  {
    says: 'tomorrow keeps the time of day it was due',
    choice: 'tomorrow',
    now: '2026-03-10T14:00:00Z',
    due: '2026-03-10T09:00:00Z',
    tz: LONDON,
    expected: '2026-03-11T09:00:00Z',
  },
  {
    says: 'tomorrow across the spring change: 09:00 GMT -> 09:00 BST (23 hours)',
    choice: 'tomorrow',
    now: '2026-03-28T10:00:00Z',
    due: '2026-03-28T09:00:00Z',
    tz: LONDON,
    expected: '2026-03-29T08:00:00Z',
  },
  {
    says: 'tomorrow across the autumn change: 09:00 BST -> 09:00 GMT (25 hours)',
    choice: 'tomorrow',
    now: '2026-10-24T12:00:00Z',
    due: '2026-10-24T08:00:00Z',
    tz: LONDON,
    expected: '2026-10-25T09:00:00Z',
  },
  {
    says: 'a time the spring change skips moves on to the same offset later (01:30 -> 02:30 BST)',
    choice: 'tomorrow',
    now: '2026-03-28T10:00:00Z',
    due: '2026-03-28T01:30:00Z',
    tz: LONDON,
    expected: '2026-03-29T01:30:00Z',
  },
  {
    says: 'tomorrow with no due time is tomorrow at the time it is now',
    choice: 'tomorrow',
    now: '2026-03-10T14:20:00Z',
    due: null,
    tz: LONDON,
    expected: '2026-03-11T14:20:00Z',
  },
  {
    says: 'tomorrow is counted from today, not from a due date days ahead',
    choice: 'tomorrow',
    now: '2026-03-10T10:00:00Z',
    due: '2026-03-13T07:30:00Z',
    tz: LONDON,
    expected: '2026-03-11T07:30:00Z',
  },
  {
    says: "tomorrow is the person's tomorrow (New York evening, London already the next day)",
    choice: 'tomorrow',
    now: '2026-03-11T01:00:00Z',
    due: '2026-03-10T13:00:00Z',
    tz: NEW_YORK,
    expected: '2026-03-11T13:00:00Z',
  },
  // next Monday, same time
  {
    says: 'next Monday from a Saturday, across the spring change',
    choice: 'monday',
    now: '2026-03-28T10:00:00Z',
    due: '2026-03-28T09:00:00Z',
    tz: LONDON,
    expected: '2026-03-30T08:00:00Z',
  },
  {
    says: 'on a Monday, next Monday is a week on',
    choice: 'monday',
    now: '2026-03-09T10:00:00Z',
    due: '2026-03-09T09:00:00Z',
    tz: LONDON,
    expected: '2026-03-16T09:00:00Z',
  },
  {
    says: 'next Monday from a Saturday, across the autumn change',
    choice: 'monday',
    now: '2026-10-24T12:00:00Z',
    due: '2026-10-24T08:00:00Z',
    tz: LONDON,
    expected: '2026-10-26T09:00:00Z',
  },
  {
    says: 'next Monday from a Sunday is the next day',
    choice: 'monday',
    now: '2026-03-15T10:00:00Z',
    due: '2026-03-15T16:45:00Z',
    tz: LONDON,
    expected: '2026-03-16T16:45:00Z',
  },
];

describe('snoozeDue: the new due time of a quick reschedule', () => {
  it.each(cases)('$choice: $says', ({ choice, now, due, tz, expected }) => {
    expect(snoozeDue(choice, { now: new Date(now), due: due ? new Date(due) : null, tz }).toISOString()).toBe(new Date(expected).toISOString());
  });
});

describe('movesEarlier: a new due time that brings the action forward', () => {
  it('is earlier only when both times are known and the new one is before the old', () => {
    const wed = new Date('2026-11-25T08:00:00Z');
    const thu = new Date('2026-11-26T08:00:00Z');
    // "Tomorrow, same time" (Wednesday) on an action due Thursday.
    expect(snoozeDue('tomorrow', { now: new Date('2026-11-24T10:00:00Z'), due: thu, tz: LONDON })).toEqual(wed);
    expect(movesEarlier(thu, wed)).toBe(true);
    expect(movesEarlier(wed, thu)).toBe(false);
    expect(movesEarlier(wed, wed)).toBe(false);
    expect(movesEarlier(null, wed)).toBe(false);
    expect(movesEarlier(wed, null)).toBe(false);
  });
});
