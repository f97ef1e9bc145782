/**
 * When a job ticks, as a period on the epoch: every `everyMs` milliseconds, `atMs` after each
 * multiple of it since 1970-01-01T00:00Z. UTC milliseconds have no gaps and no repeats, so a
 * schedule means the same in every time zone and on the nights the clocks change. (A job's own
 * calendar work — a digest at 08:00 in the workspace's zone — is done by the job, in that zone.)
 */
export interface TickSchedule {
  everyMs: number;
  /** The offset within each period (default 0): 30_000 with everyMs 60_000 is "at second 30 of each minute". */
  atMs?: number;
}

const MINUTE = 60_000;

const period = (s: TickSchedule): number => Math.max(1, Math.floor(s.everyMs));
const offset = (s: TickSchedule): number => {
  const every = period(s);
  return (((s.atMs ?? 0) % every) + every) % every;
};

/** The latest slot at or before `t` (epoch ms). */
export function slotAtOrBefore(s: TickSchedule, t: number): number {
  const every = period(s);
  const at = offset(s);
  return Math.floor((t - at) / every) * every + at;
}

/** The first slot strictly after `t` (epoch ms). */
export function slotAfter(s: TickSchedule, t: number): number {
  return slotAtOrBefore(s, t) + period(s);
}

/** How many slots lie in (from, to]: the ticks a stopped clock would have owed. */
export function slotsBetween(s: TickSchedule, from: number, to: number): number {
  if (to <= from) return 0;
  return Math.round((slotAtOrBefore(s, to) - slotAtOrBefore(s, from)) / period(s));
}

/** At second `second` of every minute. */
export const atSecondOfMinute = (second: number): TickSchedule => ({ everyMs: MINUTE, atMs: second * 1000 });

/** Every `minutes` minutes (on the epoch's whole multiples of it), at second `second` of that minute. */
export const everyMinutesAt = (minutes: number, second = 0): TickSchedule => ({ everyMs: minutes * MINUTE, atMs: second * 1000 });

/** Every N seconds (whole seconds under a minute, whole minutes from 60 s on). */
export function everySeconds(seconds: number): TickSchedule {
  if (seconds < 60) return { everyMs: Math.max(1, Math.round(seconds)) * 1000 };
  return everyMinutesAt(Math.max(1, Math.round(seconds / 60)));
}

/** As everySeconds, a moment later (1 s; 5 s past the minute for minutes): just after each tick of the other. */
export function everySecondsJustAfter(seconds: number): TickSchedule {
  if (seconds < 60) {
    const n = Math.max(1, Math.round(seconds));
    return { everyMs: n * 1000, atMs: n === 1 ? 0 : 1000 };
  }
  return everyMinutesAt(Math.max(1, Math.round(seconds / 60)), 5);
}

/** "every 5 s", "every minute at :30": for logs. */
export function describeTickSchedule(s: TickSchedule): string {
  const every = period(s);
  const at = offset(s);
  const span = every % MINUTE === 0 ? (every === MINUTE ? 'minute' : `${every / MINUTE} min`) : `${every / 1000} s`;
  return at === 0 ? `every ${span}` : `every ${span} at +${at / 1000} s`;
}
