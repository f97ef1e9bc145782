/**
 * A failure told in a short, safe line: the error's name, code and status and
 * its message cut at 200 characters, with anything shaped like a credential
 * taken out. It is kept in the store and may be shown to a workspace's admins.
 */
import { cut } from '../slack/cut.js';
const MESSAGE_MAX = 200;

const CREDENTIALS: RegExp[] = [
  /\bxox[a-z]-[A-Za-z0-9-]+/g, // Slack tokens
  /\b(bearer|basic)\s+[A-Za-z0-9._~+/=-]+/gi,
  /\b(token|secret|password|passwd|api[_-]?key|key|signature|authorization|sig)\s*[=:]\s*[^\s&,;]+/gi,
  /\/\/[^/\s:@]+:[^/\s@]+@/g, // user:password@ in URLs
];

function scrub(text: string): string {
  let out = text;
  for (const re of CREDENTIALS) out = out.replace(re, '[redacted]');
  return out.replace(/\s+/g, ' ').trim();
}

function cap(text: string, max: number): string {
  return cut(text, max, { mrkdwn: false });
}

const simple = (v: unknown): v is string | number => (typeof v === 'string' && /^[\w.-]{1,40}$/.test(v)) || Number.isInteger(v);

/** `Name [code=…, status=…]: message` for an error (or an object shaped like one); the text, capped, for a string. */
export function troubleReason(err: unknown): string {
  if (err && typeof err === 'object') {
    const e = err as { name?: unknown; code?: unknown; status?: unknown; message?: unknown };
    const tags = [simple(e.code) ? `code=${e.code}` : '', simple(e.status) ? `status=${e.status}` : ''].filter(Boolean);
    const name = simple(e.name) ? String(e.name) : 'Error';
    const head = tags.length ? `${name} [${tags.join(', ')}]` : name;
    const message = typeof e.message === 'string' ? cap(scrub(e.message), MESSAGE_MAX) : '';
    return message ? `${head}: ${message}` : head;
  }
  return cap(scrub(String(err)), MESSAGE_MAX) || 'unknown error';
}
