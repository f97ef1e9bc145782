import { afterEach, describe, expect, it, vi } from 'vitest';
import { memoryLogger } from '../../src/logging/logger.js';
import { createTickDriver } from '../../src/jobs/tick-driver.js';
import { atSecondOfMinute, everyMinutesAt, everySeconds, slotAfter, slotAtOrBefore, slotsBetween } from '../../src/jobs/tick-schedule.js';

const at = (iso: string) => new Date(iso).getTime();
const iso = (ms: number) => new Date(ms).toISOString();

describe('tick schedules on the epoch', () => {
  it('at second 30 of each minute, every 10 minutes at :30, every 5 s: the same instants whatever the zone', () => {
    expect(iso(slotAfter(atSecondOfMinute(30), at('2027-10-31T00:59:45Z')))).toBe('2027-10-31T01:00:30.000Z');
    expect(iso(slotAfter(everyMinutesAt(10, 30), at('2027-10-31T00:59:45Z')))).toBe('2027-10-31T01:00:30.000Z');
    expect(iso(slotAfter(everyMinutesAt(10, 30), at('2027-10-31T01:00:30Z')))).toBe('2027-10-31T01:10:30.000Z');
    expect(iso(slotAtOrBefore(everySeconds(5), at('2027-03-28T01:00:04.999Z')))).toBe('2027-03-28T01:00:00.000Z');
    expect(slotsBetween(atSecondOfMinute(0), at('2027-10-31T00:00:00Z'), at('2027-10-31T02:00:00Z'))).toBe(120);
  });
});

describe('the tick driver', () => {
  afterEach(() => vi.useRealTimers());

  it('runs a late tick once, for its latest slot, and says so in the app log (not a burst of the missed ones)', () => {
    vi.useFakeTimers({ now: at('2027-10-31T00:59:50Z'), toFake: ['Date', 'setTimeout', 'clearTimeout'] });
    let appNow = Date.now();
    const logger = memoryLogger('debug');
    const slots: string[] = [];
    const driver = createTickDriver({ now: () => appNow, logger });
    driver.start([{ name: 'changes-poll', schedule: atSecondOfMinute(0), run: (slot) => void slots.push(iso(slot)) }]);
    appNow += 20_000; // 01:00:10: the 01:00 tick, 10 s late
    vi.advanceTimersByTime(1_000);
    expect(slots).toEqual(['2027-10-31T01:00:00.000Z']);
    appNow += 2 * 60 * 60_000; // two hours gone (the process was paused)
    vi.advanceTimersByTime(1_000);
    expect(slots).toEqual(['2027-10-31T01:00:00.000Z', '2027-10-31T03:00:00.000Z']);
    const late = logger.lines
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((l) => l.msg === 'a scheduled tick ran late; it runs once now, for its latest slot');
    expect(late.map((l) => [l.level, l.job, l.due, l.skippedSlots])).toEqual([
      ['warn', 'changes-poll', '2027-10-31T01:00:00.000Z', 0],
      ['warn', 'changes-poll', '2027-10-31T01:01:00.000Z', 119],
    ]);
    driver.stop();
  });

  it('follows the app clock set back: the next tick is the one after the new time, not hours away', () => {
    vi.useFakeTimers({ now: at('2027-06-01T10:00:05Z'), toFake: ['Date', 'setTimeout', 'clearTimeout'] });
    let appNow = Date.now();
    const slots: string[] = [];
    const driver = createTickDriver({ now: () => appNow, logger: memoryLogger('warn') });
    driver.start([{ name: 'digests', schedule: atSecondOfMinute(0), run: (slot) => void slots.push(iso(slot)) }]);
    appNow = at('2027-06-01T08:00:59Z');
    vi.advanceTimersByTime(1_000);
    appNow += 1_000;
    vi.advanceTimersByTime(1_000);
    expect(slots).toEqual(['2027-06-01T08:01:00.000Z']);
    driver.stop();
    appNow += 60_000;
    vi.advanceTimersByTime(60_000);
    expect(slots).toHaveLength(1);
  });
});
