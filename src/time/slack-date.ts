/**
 * Making an Intl.DateTimeFormat is costly (it was a seventh of the CPU of a
 * busy list benchmark); formatters are immutable, so one per zone is kept.
 * A pure memo, bounded: no state anyone can observe.
 */
const fallbackFormats = new Map<string, Intl.DateTimeFormat>();
const MAX_ZONES = 200;

function fallbackFormat(tz: string): Intl.DateTimeFormat {
  let format = fallbackFormats.get(tz);
  if (!format) {
    format = new Intl.DateTimeFormat('en-GB', {
      timeZone: tz,
      day: 'numeric',
      month: 'short',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      timeZoneName: 'short',
    });
    if (fallbackFormats.size >= MAX_ZONES) fallbackFormats.clear();
    fallbackFormats.set(tz, format);
  }
  return format;
}

/**
 * A Slack date token: each reader sees the time in their own zone; the
 * fallback (for clients that cannot render it) is written in `fallbackTz`.
 */
export function slackDate(instant: Date, fallbackTz: string, format = '{date_short_pretty} at {time}'): string {
  const unix = Math.floor(instant.getTime() / 1000);
  return `<!date^${unix}^${format}|${fallbackFormat(fallbackTz).format(instant)}>`;
}

/** Parse the API's UTC `YYYY-MM-DD HH:MM:SS` into a Date (null for null/invalid). */
export function parseApiDateTime(value: string | null | undefined): Date | null {
  if (!value) return null;
  const m = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?/.exec(value);
  if (!m) return null;
  return new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +(m[6] ?? 0)));
}
