import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** A parameter value as it goes on the wire; lists become repeated keys. */
export type WireValue = string | number | boolean | null | undefined | readonly (string | number | boolean)[];
export type WireParams = Readonly<Record<string, WireValue>>;

export const SIGNATURE_VERSION = '2.0';

const byCodePoint = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The canonical parameter string of signature version 2.0: keys sorted by code
 * point, each key's values sorted as strings, one `key=value` line per value,
 * raw (no encoding, no trimming), joined with LF. Null/undefined are dropped.
 */
export function canonicalParams(params: WireParams): string {
  const lines: string[] = [];
  for (const key of Object.keys(params).sort(byCodePoint)) {
    const value = params[key];
    if (value === null || value === undefined) continue;
    const values = Array.isArray(value) ? value.map(String) : [String(value)];
    for (const v of values.sort(byCodePoint)) lines.push(`${key}=${v}`);
  }
  return lines.join('\n');
}

/** `/v1/<path>` with the caller's leading/trailing slashes (and any `v1/` prefix) removed. */
export function canonicalPath(path: string): string {
  const trimmed = path.replace(/^\/+|\/+$/g, '').replace(/^v1(\/|$)/, '');
  return `/v1/${trimmed}`;
}

export interface SignInput {
  secret: string;
  timestamp: string;
  nonce: string;
  method: string;
  path: string;
  params: WireParams;
}

export function stringToSign(input: Omit<SignInput, 'secret'>): string {
  return [input.timestamp, input.nonce, input.method.toUpperCase(), canonicalPath(input.path), canonicalParams(input.params)].join('\n');
}

/** Lowercase hex HMAC-SHA256 of the string to sign, keyed with the API secret. */
export function signV2(input: SignInput): string {
  return createHmac('sha256', Buffer.from(input.secret, 'utf8')).update(stringToSign(input), 'utf8').digest('hex');
}

/** Random bytes for nonces, drawn 4 KiB at a time (one call into the random source per 256 requests, not one each). */
let noncePool = Buffer.alloc(0);
let noncePoolAt = 0;

/** 16 random bytes, base64url without padding (22 characters); each byte used once. */
export function newNonce(): string {
  if (noncePoolAt + 16 > noncePool.length) {
    noncePool = randomBytes(4096);
    noncePoolAt = 0;
  }
  const nonce = noncePool.toString('base64url', noncePoolAt, noncePoolAt + 16);
  noncePoolAt += 16;
  return nonce;
}

/** Constant-time comparison of two hex signatures. */
export function signaturesMatch(expected: string, given: string): boolean {
  const a = Buffer.from(expected, 'utf8');
  const b = Buffer.from(given, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}

export interface AuthHeaderInput {
  accountId: string;
  apiKey: string;
  apiSecret: string;
  method: string;
  path: string;
  params: WireParams;
  /** Unix seconds. */
  timestamp: number;
  nonce?: string;
}

/** The headers of a signed request (a fresh nonce unless one is given). */
export function authHeaders(input: AuthHeaderInput): Record<string, string> {
  const timestamp = String(Math.floor(input.timestamp));
  const nonce = input.nonce ?? newNonce();
  const signature = signV2({ secret: input.apiSecret, timestamp, nonce, method: input.method, path: input.path, params: input.params });
  return {
    Accept: 'application/json',
    'X-CareHQ-AccountId': input.accountId,
    'X-CareHQ-APIKey': input.apiKey,
    'X-CareHQ-Timestamp': timestamp,
    'X-CareHQ-Nonce': nonce,
    'X-CareHQ-Signature-Version': SIGNATURE_VERSION,
    'X-CareHQ-Signature': signature,
  };
}
