/**
 * What a log line must never carry: credentials. Two nets, applied at every
 * level to messages and to every field, however deep:
 * - by name: a value under a key that names a credential (`client_secret`,
 *   `refresh_token`, `Authorization`, `X-CareHQ-APIKey`, an OAuth `code`, …);
 * - by shape, inside any string (Bolt's and the Web API client's debug lines
 *   are strings holding JSON bodies, headers and URLs): Slack tokens,
 *   `Bearer`/`Basic` credentials, `"client_secret":"…"` and `code=…` pairs,
 *   Slack signatures (`v0=<hex>`), `user:password@` in URLs;
 * - and, when the logger was told them, the deployment's own secrets
 *   (signing secret, client secret, care API key and secret) wherever they appear.
 */

export const REDACTED = '[redacted]';

/** Key names whose values are credentials (`code` is judged by its value: see isOAuthCode). */
const SECRET_KEY = /secret|token|signature|password|passwd|authorization|api_?key|cookie|credential|private_?key/i;
const CODE_KEY = /^(code|oauth_?code)$/i;
/** An error code (`ECONNREFUSED`, `slack_webapi_platform_error`, `ERR_X`): kept. An OAuth code (`1234.5678.ab12…`) is not one. */
const ERROR_CODE = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;

const isCredentialKey = (key: string) => SECRET_KEY.test(key);
const keepCode = (value: unknown) => typeof value === 'number' || (typeof value === 'string' && ERROR_CODE.test(value));

/** Does this (key, value) pair hold a credential? */
export function isSecretField(key: string, value: unknown): boolean {
  if (isCredentialKey(key)) return true;
  return CODE_KEY.test(key) && !keepCode(value);
}

const KEY_WORDS = 'secret|token|signature|password|passwd|authorization|api_?key|apikey|cookie|credential';

/** Patterns in free text, each with its replacement. */
const TEXT_RULES: [RegExp, string | ((...m: string[]) => string)][] = [
  // Slack tokens of every kind (bot, user, app-level, refresh, config).
  [/\bx(?:ox[a-z]|app)-[A-Za-z0-9-]+/gi, REDACTED],
  // Authorization header values.
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi, `$1 ${REDACTED}`],
  // Slack request signatures.
  [/\bv0=[0-9a-f]{16,}/gi, `v0=${REDACTED}`],
  // user:password@ in URLs.
  [/\/\/[^/\s:@"']+:[^/\s@"']+@/g, `//${REDACTED}@`],
  // "client_secret":"…", "X-CareHQ-APIKey":"…" (JSON bodies and headers inside a message).
  [new RegExp(`("[^"\\\\]*(?:${KEY_WORDS})[^"\\\\]*"\\s*:\\s*)"(?:[^"\\\\]|\\\\.)*"`, 'gi'), `$1"${REDACTED}"`],
  // "code":"…" when it is an OAuth code rather than an error code.
  [/("(?:code|oauth_?code)"\s*:\s*)"((?:[^"\\]|\\.)*)"/gi, (all, head = '', value = '') => (ERROR_CODE.test(value) ? all : `${head}"${REDACTED}"`)],
  // client_secret=…, refresh_token=…, token: …, signature=… (forms, query strings, sentences).
  [new RegExp(`\\b([A-Za-z0-9_-]*(?:${KEY_WORDS})[A-Za-z0-9_-]*)(\\s*[=:]\\s*)(?!\\[redacted\\])[^\\s&,;"']+`, 'gi'), `$1$2${REDACTED}`],
  // code=… in a query string or form.
  [/\b(code|oauth_code)=([^\s&,;"']+)/gi, (all, key = '', value = '') => (ERROR_CODE.test(value) ? all : `${key}=${REDACTED}`)],
];

/** Redacts credentials in free text (see the file's comment); `known` are literal secrets to take out wherever they appear. */
export function scrubText(text: string, known: readonly string[] = []): string {
  let out = text;
  for (const secret of known) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  for (const [re, replacement] of TEXT_RULES) out = out.replace(re, replacement as string);
  return out;
}

/**
 * A copy safe to log: values under credential keys replaced, every string
 * scrubbed, Errors as {name, message} (scrubbed), depth bounded.
 */
export function redactValue(value: unknown, known: readonly string[] = [], depth = 0): unknown {
  if (depth > 5) return '[deep]';
  if (typeof value === 'string') return scrubText(value, known);
  if (value instanceof Error) return { name: value.name, message: scrubText(value.message, known) };
  if (Array.isArray(value)) return value.map((v) => redactValue(v, known, depth + 1));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = isSecretField(k, v) ? REDACTED : redactValue(v, known, depth + 1);
    return out;
  }
  return value;
}
