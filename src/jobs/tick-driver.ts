/**
 * The scheduler's timer: one loop on the app's clock in UTC epoch milliseconds, never a walk of
 * the local calendar, so the process time zone (and its clock changes) cannot stop or repeat a
 * tick. A tick found late (the process was paused, the event loop blocked, the clock set forward)
 * runs once, for its latest slot — never a burst of the missed ones — and says so in the app's log.
 * The loop reads the clock again at least every `maxWaitMs`, so a clock moved either way is
 * followed within that.
 */
import type { Logger } from '../logging/logger.js';
import { describeTickSchedule, slotAfter, slotAtOrBefore, slotsBetween, type TickSchedule } from './tick-schedule.js';

export interface Tick {
  name: string;
  schedule: TickSchedule;
  /** Called at each slot (epoch ms) with that slot; must not throw (it starts work and returns). */
  run(slot: number): void;
}

export interface TickDriverOptions {
  /** The app's clock, epoch ms. */
  now: () => number;
  logger: Logger;
  /** The longest sleep before the clock is read again (default 1 s). */
  maxWaitMs?: number;
  /** A tick this much past its slot or more is logged as late (default 1 s). */
  lateAfterMs?: number;
}

export interface TickDriver {
  start(ticks: Tick[]): void;
  stop(): void;
}

interface Pending {
  tick: Tick;
  due: number;
}

export function createTickDriver(o: TickDriverOptions): TickDriver {
  const maxWaitMs = Math.max(1, o.maxWaitMs ?? 1000);
  const lateAfterMs = o.lateAfterMs ?? 1000;
  const state: { pending: Pending[]; timer: ReturnType<typeof setTimeout> | undefined; running: boolean } = {
    pending: [],
    timer: undefined,
    running: false,
  };

  function fire(p: Pending, t: number): void {
    const slot = slotAtOrBefore(p.tick.schedule, t);
    const lateMs = t - p.due;
    if (lateMs >= lateAfterMs) {
      o.logger.warn('a scheduled tick ran late; it runs once now, for its latest slot', {
        job: p.tick.name,
        due: new Date(p.due).toISOString(),
        lateMs,
        skippedSlots: slotsBetween(p.tick.schedule, p.due, slot),
      });
    }
    p.due = slotAfter(p.tick.schedule, t);
    try {
      p.tick.run(slot);
    } catch (err) {
      o.logger.error('a scheduled tick failed to start', { job: p.tick.name, error: err instanceof Error ? err.message : String(err) });
    }
  }

  function wake(): void {
    state.timer = undefined;
    if (!state.running) return;
    const t = o.now();
    for (const p of state.pending) {
      // The clock was set back by more than a period: the next slot is the one after the new now.
      if (p.due - t > p.tick.schedule.everyMs) p.due = slotAfter(p.tick.schedule, t);
      else if (t >= p.due) fire(p, t);
      if (!state.running) return;
    }
    const next = Math.min(...state.pending.map((p) => p.due));
    const wait = Math.min(maxWaitMs, Math.max(0, next - o.now()));
    state.timer = setTimeout(wake, wait);
  }

  return {
    start(ticks) {
      if (state.running) return;
      state.running = true;
      const t = o.now();
      state.pending = ticks.map((tick) => ({ tick, due: slotAfter(tick.schedule, t) }));
      o.logger.debug('scheduler ticks on UTC epoch time', {
        ticks: Object.fromEntries(ticks.map((k) => [k.name, describeTickSchedule(k.schedule)])),
      });
      if (state.pending.length > 0) wake();
    },
    stop() {
      state.running = false;
      if (state.timer !== undefined) clearTimeout(state.timer);
      state.timer = undefined;
    },
  };
}
