/**
 * Which actions an evidence export covers (pure): those due from the start of `from` to the end of
 * `to`, local days in the workspace's zone. Default: the last 30 days, today included.
 */
import { addDays, isIsoDate, localParts, startOfLocalDay } from '../../time/zones.js';

export const DEFAULT_DAYS = 30;
/** At most a year and a day at a time (a leap year's whole year fits). */
export const MAX_DAYS = 367;

export interface EvidenceRange {
  from: string;
  to: string;
  /** [start, end): instants of the range's first and day-after-last local midnights. */
  start: Date;
  end: Date;
}

export type RangeResult = { ok: true; range: EvidenceRange } | { ok: false; message: string };

const USAGE = '`/care evidence [from YYYY-MM-DD] [to YYYY-MM-DD] [location <name>] [--with-tasks]`';

/** Whole calendar days from `a` to `b` (b - a). */
function daysBetween(a: string, b: string): number {
  return Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000);
}

export function evidenceRange(asked: { from?: string | undefined; to?: string | undefined }, now: Date, tz: string): RangeResult {
  for (const [word, value] of [
    ['from', asked.from],
    ['to', asked.to],
  ] as const) {
    if (value !== undefined && !isIsoDate(value))
      return {
        ok: false,
        message: `\`${value}\` after \`${word}\` is not a date: give it as YYYY-MM-DD, e.g. \`${word} ${localParts(now, tz).date}\`. ${USAGE}`,
      };
  }
  const today = localParts(now, tz).date;
  const to = asked.to ?? (asked.from ? maxDate(asked.from, today) : today);
  const from = asked.from ?? addDays(to, -(DEFAULT_DAYS - 1));
  if (daysBetween(from, to) < 0)
    return { ok: false, message: `The range ends (${to}) before it starts (${from}): put the earlier date after \`from\`. ${USAGE}` };
  if (daysBetween(from, to) + 1 > MAX_DAYS)
    return { ok: false, message: `That is ${daysBetween(from, to) + 1} days; export at most a year at a time (${MAX_DAYS} days). ${USAGE}` };
  return { ok: true, range: { from, to, start: startOfLocalDay(from, tz), end: startOfLocalDay(addDays(to, 1), tz) } };
}

/** `from` alone runs to today, or (a future `from`) to the last of its default 30 days. */
function maxDate(from: string, today: string): string {
  return daysBetween(from, today) >= 0 ? today : addDays(from, DEFAULT_DAYS - 1);
}
