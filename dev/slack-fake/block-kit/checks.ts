import type { BlockError } from './limits.js';

/** Small shared checks; each pushes Slack-worded errors onto `out`. */
export type Obj = Record<string, unknown>;

export function isObj(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function maxLength(out: BlockError[], value: unknown, max: number, pointer: string): void {
  if (typeof value === 'string' && value.length > max) out.push({ message: `must be less than ${max + 1} characters`, pointer });
}

export function maxItems(out: BlockError[], value: unknown, max: number, pointer: string): void {
  if (Array.isArray(value) && value.length > max) out.push({ message: `no more than ${max} items allowed`, pointer });
}

export function minItems(out: BlockError[], value: unknown, min: number, pointer: string): void {
  if (Array.isArray(value) && value.length < min) out.push({ message: `must provide at least ${min} items`, pointer });
}

export function optionalString(out: BlockError[], value: unknown, max: number, pointer: string): void {
  if (value === undefined) return;
  if (typeof value !== 'string') out.push({ message: 'must be a string', pointer });
  else maxLength(out, value, max, pointer);
}

/**
 * A text object: `{type: 'plain_text' | 'mrkdwn', text}` with non-empty text.
 * `plainOnly` refuses mrkdwn (headers, buttons, labels, titles).
 */
export function textObject(out: BlockError[], value: unknown, pointer: string, options: { max?: number; plainOnly?: boolean; required?: boolean } = {}): void {
  if (value === undefined) {
    if (options.required !== false) out.push({ message: 'must provide an object', pointer });
    return;
  }
  if (!isObj(value)) {
    out.push({ message: 'must provide an object', pointer });
    return;
  }
  const allowed = options.plainOnly ? ['plain_text'] : ['plain_text', 'mrkdwn'];
  if (typeof value.type !== 'string' || !allowed.includes(value.type)) {
    out.push({ message: `must be one of: ${allowed.join(', ')}`, pointer: `${pointer}/type` });
  }
  if (typeof value.text !== 'string') {
    out.push({ message: 'must provide a string', pointer: `${pointer}/text` });
    return;
  }
  if (value.text.length === 0) out.push({ message: 'must be more than 0 characters', pointer: `${pointer}/text` });
  if (options.max !== undefined) maxLength(out, value.text, options.max, `${pointer}/text`);
}

export function isDate(value: unknown): boolean {
  return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`));
}

export function isTime(value: unknown): boolean {
  return typeof value === 'string' && /^([01]\d|2[0-3]):[0-5]\d$/.test(value);
}
