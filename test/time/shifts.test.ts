import { describe, expect, it } from 'vitest';
import { currentShift, DEFAULT_SHIFTS, describeShifts, nextShiftChange, parseShifts, shiftChangesBetween } from '../../src/time/shifts.js';

const LONDON = 'Europe/London';
const at = (iso: string) => new Date(iso);

describe('shifts', () => {
  it('the default is a day and a night, and 06:59 is still the night that started the evening before', () => {
    expect(describeShifts(DEFAULT_SHIFTS)).toBe('Day 07:00–19:00, Night 19:00–07:00');
    const night = currentShift(DEFAULT_SHIFTS, at('2026-11-25T06:59:00Z'), LONDON);
    expect(night.id).toBe('2026-11-24/Night');
    expect(night.startsAt.toISOString()).toBe('2026-11-24T19:00:00.000Z');
    expect(night.endsAt.toISOString()).toBe('2026-11-25T07:00:00.000Z');
    expect(currentShift(DEFAULT_SHIFTS, at('2026-11-25T07:00:00Z'), LONDON).id).toBe('2026-11-25/Day');
  });

  it('the 19:00 handover on the night the clocks go back is at 19:00 GMT, and the next morning at 07:00 GMT', () => {
    // 2027-10-31: BST ends at 02:00 local. The night shift that starts on the 30th lasts 13 hours.
    const change = nextShiftChange(DEFAULT_SHIFTS, at('2027-10-30T17:59:00Z'), LONDON);
    expect(change.id).toBe('2027-10-30/Night');
    expect(change.startsAt.toISOString()).toBe('2027-10-30T18:00:00.000Z'); // 19:00 BST
    expect(change.endsAt.toISOString()).toBe('2027-10-31T07:00:00.000Z'); // 07:00 GMT
    const next = nextShiftChange(DEFAULT_SHIFTS, change.startsAt, LONDON);
    expect(next.id).toBe('2027-10-31/Day');
    expect(next.startsAt.toISOString()).toBe('2027-10-31T07:00:00.000Z');
  });

  it('a start in the hour skipped in spring happens once, an hour later on the wall clock', () => {
    const shifts = [
      { name: 'Late night', start: '01:30', end: '07:00' },
      { name: 'Day', start: '07:00', end: '01:30' },
    ];
    const changes = shiftChangesBetween(shifts, at('2027-03-27T12:00:00Z'), at('2027-03-28T12:00:00Z'), LONDON);
    expect(changes.map((c) => `${c.id} ${c.startsAt.toISOString()}`)).toEqual([
      '2027-03-28/Late night 2027-03-28T01:30:00.000Z',
      '2027-03-28/Day 2027-03-28T06:00:00.000Z',
    ]);
  });

  it('reads shifts as admins type them, and says what is wrong otherwise', () => {
    expect(parseShifts('Early 7am-2.30pm; Late 14:00 to 21:30, Night 21:00-07:30')).toEqual({
      shifts: [
        { name: 'Early', start: '07:00', end: '14:30' },
        { name: 'Late', start: '14:00', end: '21:30' },
        { name: 'Night', start: '21:00', end: '07:30' },
      ],
    });
    expect(parseShifts('Day 07:00-19:00, day 19:00-07:00')).toEqual({ error: '"day" is named twice.' });
    expect(parseShifts('Day 7-19')).toMatchObject({ error: expect.stringContaining('clock times') });
    expect(parseShifts('')).toMatchObject({ error: expect.stringContaining('Day 07:00-19:00') });
    expect(parseShifts('A 07:00-19:00, B 07:00-12:00')).toMatchObject({ error: expect.stringContaining('Two shifts start at 07:00') });
  });

  it('overlapping shifts: the one on is the one that started last', () => {
    const parsed = parseShifts('Early 07:00-14:30, Late 14:00-21:30, Night 21:00-07:30');
    if (!('shifts' in parsed)) throw new Error(parsed.error);
    expect(currentShift(parsed.shifts, at('2026-11-25T14:15:00Z'), LONDON).shift.name).toBe('Late');
    expect(currentShift(parsed.shifts, at('2026-11-25T07:15:00Z'), LONDON).shift.name).toBe('Early');
  });
});
