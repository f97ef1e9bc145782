import { TZDate } from '@date-fns/tz';

const pad = (n: number, w = 2) => String(Math.abs(n)).padStart(w, '0');

/**
 * An instant as the wall clock in `tz` shows it, ISO 8601 with that moment's offset
 * (`2026-10-25T01:30:00+01:00` before the UK clock goes back, `2026-10-25T01:30:00+00:00` an hour
 * later): a reader sees local time, and the text still names one instant.
 */
export function isoWithOffset(instant: Date | number, tz: string): string {
  const ms = typeof instant === 'number' ? instant : instant.getTime();
  const d = new TZDate(ms, tz);
  // TZDate's getTimezoneOffset is minutes behind UTC (Date's sign convention).
  const offset = -d.getTimezoneOffset();
  const sign = offset < 0 ? '-' : '+';
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}${sign}${pad(Math.trunc(offset / 60))}:${pad(offset % 60)}`;
}
