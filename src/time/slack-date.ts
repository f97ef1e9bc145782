/**
 * A Slack date token: each reader sees the time in their own zone; the
 * fallback (for clients that cannot render it) is written in `fallbackTz`.
 */
export function slackDate(instant: Date, fallbackTz: string, format = '{date_short_pretty} at {time}'): string {
  const unix = Math.floor(instant.getTime() / 1000);
  const fallback = new Intl.DateTimeFormat('en-GB', {
    timeZone: fallbackTz,
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZoneName: 'short',
  }).format(instant);
  return `<!date^${unix}^${format}|${fallback}>`;
}

/** Parse the API's UTC `YYYY-MM-DD HH:MM:SS` into a Date (null for null/invalid). */
export function parseApiDateTime(value: string | null | undefined): Date | null {
  if (!value) return null;
  const m = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?/.exec(value);
  if (!m) return null;
  return new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +(m[6] ?? 0)));
}
