/**
 * A Slack user Id inside a stored value, matched whole (pure): `U0S` is in `<@U0S>`, `user:T1/U0S`,
 * `{"by":"U0S"}` and `home:U0S@T1`, never in `U0SOPHIE`, `XU0S` or `erased-1U0S`. A letter or digit on
 * either side makes it part of another token. A value that is JSON (an object or array) is read as JSON:
 * each string and key is matched and rewritten on its own, so an escape (`\n`) never hides or joins an Id
 * and numbers are never touched.
 */

const escaped = (id: string) => id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const whole = (id: string) => new RegExp(`(?<![A-Za-z0-9])${escaped(id)}(?![A-Za-z0-9])`, 'g');

function parsedJson(text: string): unknown {
  const t = text.trimStart();
  if (!t.startsWith('{') && !t.startsWith('[')) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function mapStrings(value: unknown, f: (s: string) => string): unknown {
  if (typeof value === 'string') return f(value);
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, f));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [f(k), mapStrings(v, f)]));
  return value;
}

/** Whether the stored text names this Id as a whole token. */
export function namesWhole(text: string | null | undefined, id: string): boolean {
  if (!text?.includes(id)) return false;
  const json = parsedJson(text);
  if (json === undefined) return whole(id).test(text);
  let found = false;
  mapStrings(json, (s) => {
    if (!found && whole(id).test(s)) found = true;
    return s;
  });
  return found;
}

/** The stored text with each whole occurrence of the Id replaced by `token` (JSON stays JSON); unchanged when none. */
export function replaceWhole(text: string, id: string, token: string): string {
  if (!namesWhole(text, id)) return text;
  const json = parsedJson(text);
  if (json === undefined) return text.replace(whole(id), token);
  return JSON.stringify(mapStrings(json, (s) => s.replace(whole(id), token)));
}
