import { describe, expect, it } from 'vitest';
import { apiDateRange, dueWindow, inWindow } from '../../src/time/due-windows.js';
import { dueOccurrence, nextOccurrence, occurrenceOn } from '../../src/time/schedule.js';
import { parseApiDateTime, slackDate } from '../../src/time/slack-date.js';
import { addDays, isIsoDate, localParts, zonedToUtc } from '../../src/time/zones.js';

const LONDON = 'Europe/London';

describe('local time in a zone', () => {
  it('turns a London wall-clock time into UTC in winter and in summer', () => {
    expect(zonedToUtc('2026-11-21', '08:00', LONDON).toISOString()).toBe('2026-11-21T08:00:00.000Z');
    expect(zonedToUtc('2026-07-01', '08:00', LONDON).toISOString()).toBe('2026-07-01T07:00:00.000Z');
  });

  it('maps a time skipped by the spring change to one real instant', () => {
    expect(zonedToUtc('2026-03-29', '01:30', LONDON).toISOString()).toBe('2026-03-29T01:30:00.000Z');
  });

  it('reads the local date near midnight in the zone, not in UTC', () => {
    expect(localParts(new Date('2026-07-01T23:30:00Z'), LONDON)).toMatchObject({ date: '2026-07-02', time: '00:30' });
    expect(localParts(new Date('2026-11-21T23:30:00Z'), 'America/New_York')).toMatchObject({ date: '2026-11-21', time: '18:30' });
  });

  it('rejects impossible dates', () => {
    expect(isIsoDate('2026-02-30')).toBe(false);
    expect(isIsoDate('2026-02-28')).toBe(true);
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
  });
});

describe('due windows', () => {
  it('today is the whole local day, even when the UTC date differs', () => {
    const now = new Date('2026-07-01T23:30:00Z'); // 00:30 on 2 July in London
    const w = dueWindow('today', now, LONDON);
    expect(w.from?.toISOString()).toBe('2026-07-01T23:00:00.000Z');
    expect(w.to.toISOString()).toBe('2026-07-02T23:00:00.000Z');
    expect(inWindow(new Date('2026-07-01T22:59:59Z'), w)).toBe(false);
    expect(inWindow(new Date('2026-07-02T22:59:59Z'), w)).toBe(true);
    expect(apiDateRange(w)).toEqual({ start_date: '2026-07-01', end_date: '2026-07-02' });
  });

  it('a day with a clock change is 23 or 25 hours long', () => {
    const spring = dueWindow('today', new Date('2026-03-29T12:00:00Z'), LONDON);
    expect((spring.to.getTime() - spring.from!.getTime()) / 3_600_000).toBe(23);
    const autumn = dueWindow('today', new Date('2026-10-25T12:00:00Z'), LONDON);
    expect((autumn.to.getTime() - autumn.from!.getTime()) / 3_600_000).toBe(25);
  });

  it('overdue is everything due before now', () => {
    const now = new Date('2026-11-21T10:00:00Z');
    const w = dueWindow('overdue', now, LONDON);
    expect(inWindow(new Date('2020-01-01T00:00:00Z'), w)).toBe(true);
    expect(inWindow(now, w)).toBe(false);
    expect(apiDateRange(w)).toEqual({ end_date: '2026-11-21' });
  });
});

describe('digest schedule', () => {
  const weekdays8 = { time: '08:00', days: 'weekdays' as const, timezone: LONDON };

  it('skips weekends on a weekday schedule', () => {
    expect(occurrenceOn('2026-11-21', weekdays8)).toBeNull(); // Saturday
    expect(nextOccurrence(weekdays8, new Date('2026-11-21T12:00:00Z')).date).toBe('2026-11-23');
  });

  it('fires at 08:00 local on both sides of the spring and autumn changes', () => {
    const daily = { ...weekdays8, days: 'daily' as const };
    expect(occurrenceOn('2026-03-28', daily)!.at.toISOString()).toBe('2026-03-28T08:00:00.000Z');
    expect(occurrenceOn('2026-03-29', daily)!.at.toISOString()).toBe('2026-03-29T07:00:00.000Z');
    expect(occurrenceOn('2026-10-24', daily)!.at.toISOString()).toBe('2026-10-24T07:00:00.000Z');
    expect(occurrenceOn('2026-10-25', daily)!.at.toISOString()).toBe('2026-10-25T08:00:00.000Z');
  });

  it('a missed run is due until the local day ends, then not', () => {
    expect(dueOccurrence(weekdays8, new Date('2026-11-23T07:59:00Z'))).toBeNull();
    expect(dueOccurrence(weekdays8, new Date('2026-11-23T15:00:00Z'))?.date).toBe('2026-11-23');
    expect(dueOccurrence(weekdays8, new Date('2026-11-24T00:30:00Z'))).toBeNull();
  });
});

describe('Slack date tokens and API date/times', () => {
  it('renders a token each reader localises, with a readable fallback', () => {
    const token = slackDate(new Date('2026-11-21T09:30:00Z'), LONDON);
    expect(token).toMatch(/^<!date\^1795253400\^\{date_short_pretty\} at \{time\}\|21 Nov 2026, 09:30 GMT>$/);
  });

  it('parses the API format as UTC', () => {
    expect(parseApiDateTime('2026-11-21 09:30:00')?.toISOString()).toBe('2026-11-21T09:30:00.000Z');
    expect(parseApiDateTime(null)).toBeNull();
    expect(parseApiDateTime('soon')).toBeNull();
  });
});
