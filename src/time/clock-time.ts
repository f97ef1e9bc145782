/**
 * A time of day as people type it, to 24-hour "HH:MM": "07:30", "7:30",
 * "19:05", "7am", "7:30pm", "7.30am", "12am" (midnight), "12pm" (noon).
 * A bare number ("7") is refused: it could be a day, a count or an hour.
 */
const CLOCK = /^(\d{1,2})(?:[:.]([0-5]\d))?(am|pm|a\.m\.|p\.m\.)?$/i;

export function parseClockTime(raw: string): string | null {
  const m = CLOCK.exec(raw.trim());
  if (!m) return null;
  const [, h, min, half] = m;
  if (min === undefined && half === undefined) return null;
  let hour = Number(h);
  if (half) {
    if (hour < 1 || hour > 12) return null;
    const pm = half.toLowerCase().startsWith('p');
    hour = (hour % 12) + (pm ? 12 : 0);
  } else if (hour > 23) return null;
  return `${String(hour).padStart(2, '0')}:${min ?? '00'}`;
}
