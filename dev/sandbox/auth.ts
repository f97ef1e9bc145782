import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { canonicalParams, canonicalPath, signV2, signaturesMatch } from '../../src/care/signing.js';
import type { KeyRegistry } from './keys.js';
import type { NonceCache } from './nonce-cache.js';
import { paramsToRecord, type Params } from './params.js';

export const DEFAULT_SKEW_SECONDS = 300;

export interface SignedRequest {
  method: string;
  /** Request path without the query, e.g. `/v1/actions/<id>/complete`. */
  path: string;
  headers: IncomingHttpHeaders;
  /** Query parameters for GET, form body otherwise. */
  params: Params;
}

/** `apiKey` is set whenever the account and key were recognised (for rate-limit headers). */
export type AuthOutcome = { ok: true; apiKey: string } | { ok: false; hint: string; apiKey?: string };

const H = {
  account: 'x-carehq-accountid',
  key: 'x-carehq-apikey',
  timestamp: 'x-carehq-timestamp',
  nonce: 'x-carehq-nonce',
  version: 'x-carehq-signature-version',
  signature: 'x-carehq-signature',
} as const;

const DISPLAY: Record<string, string> = {
  [H.account]: 'X-CareHQ-AccountId',
  [H.key]: 'X-CareHQ-APIKey',
  [H.timestamp]: 'X-CareHQ-Timestamp',
  [H.nonce]: 'X-CareHQ-Nonce',
  [H.signature]: 'X-CareHQ-Signature',
};

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const v = headers[name];
  const s = Array.isArray(v) ? v[0] : v;
  return s === undefined || s === '' ? undefined : s;
}

/** Version 1 (legacy): lowercase hex SHA-1 of timestamp + keys and values in insertion order + secret. */
export function signV1(secret: string, timestamp: string, params: Params): string {
  const hash = createHash('sha1').update(timestamp, 'utf8');
  for (const [key, values] of params) {
    hash.update(key, 'utf8');
    for (const v of values) hash.update(v, 'utf8');
  }
  return hash.update(secret, 'utf8').digest('hex');
}

/**
 * Verifies the authentication headers of an API request: account and key,
 * timestamp within ±skew of the REAL clock, signature (2.0, or 1 when the
 * version header is absent) and, for 2.0, that the nonce was not used before.
 * Hints say what was wrong, never what the expected signature was.
 */
export class Authenticator {
  constructor(
    private readonly keys: KeyRegistry,
    private readonly nonces: NonceCache,
    private readonly skewSeconds = DEFAULT_SKEW_SECONDS,
    private readonly now: () => number = Date.now,
  ) {}

  authenticate(req: SignedRequest): AuthOutcome {
    const h = req.headers;
    const version = header(h, H.version);
    const required: string[] = [H.account, H.key, H.timestamp, H.signature];
    if (version !== undefined) required.push(H.nonce);
    const missing = required.filter((name) => header(h, name) === undefined);
    if (missing.length > 0) return { ok: false, hint: `Missing authentication header(s): ${missing.map((m) => DISPLAY[m]).join(', ')}.` };

    if (header(h, H.account) !== this.keys.accountId) return { ok: false, hint: 'Unknown account Id (X-CareHQ-AccountId).' };
    const apiKey = header(h, H.key) as string;
    const secret = this.keys.secretOf(apiKey);
    if (secret === undefined) return { ok: false, hint: 'Unknown API key for this account (X-CareHQ-APIKey).' };
    if (version !== undefined && version !== '2.0') {
      return { ok: false, apiKey, hint: `Unsupported signature version ${JSON.stringify(version)}; use 2.0.` };
    }

    const timestamp = header(h, H.timestamp) as string;
    if (!/^\d{1,12}(\.\d+)?$/.test(timestamp)) {
      return { ok: false, apiKey, hint: 'Invalid X-CareHQ-Timestamp: expected Unix seconds, e.g. 1700000000.' };
    }
    const nowSeconds = this.now() / 1000;
    if (Math.abs(Number(timestamp) - nowSeconds) > this.skewSeconds) {
      return {
        ok: false,
        apiKey,
        hint: `X-CareHQ-Timestamp is more than ${this.skewSeconds} seconds from the server time (${Math.floor(nowSeconds)}); check the clock.`,
      };
    }

    const given = header(h, H.signature) as string;
    const method = req.method.toUpperCase();
    if (version === undefined) {
      if (!signaturesMatch(signV1(secret, timestamp, req.params), given)) {
        return {
          ok: false,
          apiKey,
          hint: 'Signature does not match (version 1, chosen because X-CareHQ-Signature-Version is absent: SHA-1 of timestamp, parameters in order and secret).',
        };
      }
      return { ok: true, apiKey };
    }

    const nonce = header(h, H.nonce) as string;
    const path = canonicalPath(req.path);
    const record = paramsToRecord(req.params);
    const expected = signV2({ secret, timestamp, nonce, method, path, params: record });
    if (!signaturesMatch(expected, given)) {
      const lines = canonicalParams(record) === '' ? 0 : canonicalParams(record).split('\n').length;
      const source = method === 'GET' ? 'query' : 'form body';
      return {
        ok: false,
        apiKey,
        hint: `Signature does not match (version 2.0: HMAC-SHA256 of timestamp, nonce, ${method}, ${path} and ${lines} canonical parameter line(s) from the ${source}).`,
      };
    }
    if (!this.nonces.remember(apiKey, nonce, (Number(timestamp) + this.skewSeconds) * 1000 + 1000)) {
      return { ok: false, apiKey, hint: 'X-CareHQ-Nonce was already used: replayed request refused.' };
    }
    return { ok: true, apiKey };
  }
}
