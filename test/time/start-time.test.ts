import { describe, expect, it } from 'vitest';
import { DEFAULT_SHIFTS } from '../../src/time/shifts.js';
import { dueStart, nextStart, readStartTime, storedStartTime } from '../../src/time/start-time.js';

const LONDON = 'Europe/London';
const every = { time: 'shift', days: 'daily' as const, timezone: LONDON, shifts: DEFAULT_SHIFTS };
const at = (iso: string) => new Date(iso);

describe('start times: a clock time or a shift start', () => {
  it('reads back what it stores', () => {
    for (const s of [{ type: 'clock', time: '08:00' }, { type: 'shift' }, { type: 'shift', name: 'Night' }] as const)
      expect(readStartTime(storedStartTime(s))).toEqual(s);
  });

  it('every shift start: the shift on now is due, once per occurrence id, across the autumn clock change', () => {
    expect(dueStart(every, at('2027-10-30T17:59:00Z'))?.id).toBe('2027-10-30/Day');
    expect(dueStart(every, at('2027-10-30T18:00:00Z'))?.id).toBe('2027-10-30/Night'); // 19:00 BST
    // 01:30 twice on the clock: the same night shift either time.
    expect(dueStart(every, at('2027-10-31T00:30:00Z'))?.id).toBe('2027-10-30/Night');
    expect(dueStart(every, at('2027-10-31T01:30:00Z'))?.id).toBe('2027-10-30/Night');
    expect(dueStart(every, at('2027-10-31T06:59:00Z'))?.id).toBe('2027-10-30/Night');
    expect(dueStart(every, at('2027-10-31T07:00:00Z'))?.id).toBe('2027-10-31/Day'); // 07:00 GMT
    expect(nextStart(every, at('2027-10-31T07:00:00Z'))?.at.toISOString()).toBe('2027-10-31T19:00:00.000Z');
  });

  it('spring: the night shift that loses an hour still starts and ends once', () => {
    expect(dueStart(every, at('2027-03-27T19:00:00Z'))?.id).toBe('2027-03-27/Night');
    expect(dueStart(every, at('2027-03-28T05:59:00Z'))?.id).toBe('2027-03-27/Night'); // 06:59 BST
    expect(dueStart(every, at('2027-03-28T06:00:00Z'))).toMatchObject({ id: '2027-03-28/Day', at: at('2027-03-28T06:00:00Z') });
  });

  it('a named shift start is due only while that shift is on', () => {
    const night = { ...every, time: 'shift:night' };
    expect(dueStart(night, at('2026-11-25T12:00:00Z'))).toBeNull();
    expect(dueStart(night, at('2026-11-25T19:00:00Z'))?.id).toBe('2026-11-25/Night');
    expect(dueStart(night, at('2026-11-26T06:59:00Z'))?.id).toBe('2026-11-25/Night');
    expect(dueStart(night, at('2026-11-26T07:00:00Z'))).toBeNull();
    expect(nextStart(night, at('2026-11-25T12:00:00Z'))?.at.toISOString()).toBe('2026-11-25T19:00:00.000Z');
    expect(nextStart({ ...every, time: 'shift:Late' }, at('2026-11-25T12:00:00Z'))).toBeNull();
    expect(dueStart({ ...every, time: 'shift:Late' }, at('2026-11-25T12:00:00Z'))).toBeNull();
  });

  it('weekdays: a shift start counts on the day the shift started', () => {
    const weekdays = { ...every, days: 'weekdays' as const };
    // Friday 2026-11-27 19:00: the Friday night runs into Saturday and is due; Saturday's Day is not.
    expect(dueStart(weekdays, at('2026-11-28T06:00:00Z'))?.id).toBe('2026-11-27/Night');
    expect(dueStart(weekdays, at('2026-11-28T08:00:00Z'))).toBeNull();
    expect(nextStart(weekdays, at('2026-11-28T08:00:00Z'))?.id).toBe('2026-11-30/Day');
  });

  it('a clock time is due from its time until the local day ends', () => {
    const clock = { ...every, time: '08:00' };
    expect(dueStart(clock, at('2027-03-28T06:59:00Z'))).toBeNull();
    expect(dueStart(clock, at('2027-03-28T07:00:00Z'))?.id).toBe('2027-03-28');
    expect(nextStart(clock, at('2027-03-28T07:00:00Z'))?.at.toISOString()).toBe('2027-03-29T07:00:00.000Z');
  });
});
