import { flatString } from './wire-time.js';

/**
 * Request parameters as they came on the wire: key -> values, keys in order of
 * first appearance (version 1 signatures depend on that order), lists as
 * repeated keys.
 */
export type Params = Map<string, string[]>;

export function parseParams(encoded: string): Params {
  const params: Params = new Map();
  if (encoded === '') return params;
  for (const [key, raw] of new URLSearchParams(encoded)) {
    // Decoded values are cons strings; flat ones compare much faster in filters.
    const value = raw.length > 12 ? flatString(raw) : raw;
    const values = params.get(key);
    if (values) values.push(value);
    else params.set(key, [value]);
  }
  return params;
}

/** The first value of a key, or undefined. */
export function first(params: Params, key: string): string | undefined {
  return params.get(key)?.[0];
}

/** Plain object for the v2.0 canonicaliser (a list stays a list). */
export function paramsToRecord(params: Params): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [k, v] of params) out[k] = v;
  return out;
}

/** Build Params from a plain record (used by the controls' web-app edits). */
export function paramsFrom(record: Record<string, string | readonly string[] | undefined>): Params {
  const params: Params = new Map();
  for (const [k, v] of Object.entries(record)) {
    if (v === undefined) continue;
    params.set(k, typeof v === 'string' ? [v] : [...v]);
  }
  return params;
}
