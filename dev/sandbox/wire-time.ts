/** Date/time helpers for the wire formats: `YYYY-MM-DD HH:MM:SS` (UTC), `YYYY-MM-DD`, `HH:MM`. */

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;

/**
 * A flat copy of a string. Strings built by slicing, replacing or
 * concatenating are V8 cons/sliced strings, and comparing them is an order of
 * magnitude slower; stored values and filter values are compared in every
 * list, so they are flattened once.
 */
export function flatString(s: string): string {
  return Buffer.from(s, 'utf8').toString('utf8');
}

/** `YYYY-MM-DD HH:MM:SS` in UTC (milliseconds dropped). */
export function formatDateTime(ms: number): string {
  return flatString(new Date(ms).toISOString().slice(0, 19).replace('T', ' '));
}

/** `YYYY-MM-DD` in UTC. */
export function formatDate(ms: number): string {
  return flatString(new Date(ms).toISOString().slice(0, 10));
}

function validParts(y: number, mo: number, d: number, h = 0, mi = 0, s = 0): number | null {
  const ms = Date.UTC(y, mo - 1, d, h, mi, s);
  const back = new Date(ms);
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d) return null;
  if (h > 23 || mi > 59 || s > 59) return null;
  return ms;
}

/** Epoch ms of a strict `YYYY-MM-DD HH:MM:SS`, or null when malformed or impossible. */
export function parseDateTime(value: string): number | null {
  const m = DATE_TIME.exec(value);
  if (!m) return null;
  return validParts(Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6]));
}

/** True for a strict, real `YYYY-MM-DD`. */
export function isDate(value: string): boolean {
  const m = DATE.exec(value);
  return m !== null && validParts(Number(m[1]), Number(m[2]), Number(m[3])) !== null;
}

/** True for `HH:MM` (00:00 to 23:59). */
export function isTime(value: string): boolean {
  return TIME.test(value);
}

/**
 * A wire date/time `YYYY-MM-DD HH:MM:SS` as the number its 14 digits spell
 * (e.g. 20240610093000), so keys compare exactly as such strings do; NaN for
 * anything else (null included). Lets list filters compare numbers kept in
 * typed arrays instead of strings.
 */
export function timeKey(value: string | null): number {
  if (value === null || value.length !== 19) return NaN;
  let key = 0;
  for (let i = 0; i < 19; i++) {
    const c = value.charCodeAt(i);
    if (i === 4 || i === 7) {
      if (c !== 45 /* - */) return NaN;
    } else if (i === 10) {
      if (c !== 32 /* space */) return NaN;
    } else if (i === 13 || i === 16) {
      if (c !== 58 /* : */) return NaN;
    } else if (c >= 48 && c <= 57) key = key * 10 + (c - 48);
    else return NaN;
  }
  return key;
}

/** Floor epoch ms to whole seconds (stored times have second resolution, like the wire). */
export function wholeSeconds(ms: number): number {
  return Math.floor(ms / 1000) * 1000;
}
