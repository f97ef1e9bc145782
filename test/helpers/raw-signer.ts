/**
 * An independent, minimal signer and caller for the care API, written from the
 * wire facts only (deliberately NOT using src/care/signing.ts), so tests of
 * the sandbox check it against a second implementation.
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { request } from 'undici';

export interface RawCredentials {
  accountId: string;
  apiKey: string;
  apiSecret: string;
}

/** Parameters in the order they go on the wire; a list value becomes repeated keys. */
export type RawParams = Record<string, string | number | boolean | (string | number)[] | null | undefined>;

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  text: string;
  /** Parsed JSON, or undefined when the body is empty or not JSON. */
  json: any;
}

export interface RawCallOptions {
  /** `2.0` (default), `1` (legacy: no version header, no nonce), or any other string sent as the version header. */
  version?: '2.0' | '1' | string;
  /** Unix seconds as sent (string allows fractions); default now. */
  timestamp?: number | string;
  nonce?: string;
  /** Headers to drop after signing (case-insensitive names). */
  omit?: string[];
  /** Headers to set or override after signing. */
  headers?: Record<string, string>;
  /** Replace the computed signature. */
  signature?: string;
  /** Send this raw body instead of the encoded params (non-GET). */
  rawBody?: string;
  /** Send to this path (e.g. percent-encoded) while signing `path` as given. */
  sendPath?: string;
}

/** [key, value] pairs: undefined/null dropped, lists expanded, everything a string. */
export function pairsOf(params: RawParams = {}): [string, string][] {
  const out: [string, string][] = [];
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined || v === null) continue;
    if (Array.isArray(v)) for (const item of v) out.push([k, String(item)]);
    else out.push([k, String(v)]);
  }
  return out;
}

function codePointCompare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Version 2.0: HMAC-SHA256(secret, ts \n nonce \n METHOD \n /v1/path \n sorted key=value lines). */
export function rawSignV2(secret: string, timestamp: string, nonce: string, method: string, path: string, pairs: [string, string][]): string {
  const sorted = [...pairs].sort((x, y) => codePointCompare(x[0], y[0]) || codePointCompare(x[1], y[1]));
  const canonical = sorted.map(([k, v]) => `${k}=${v}`).join('\n');
  const cleanPath = `/v1/${path.replace(/^\/+|\/+$/g, '').replace(/^v1\//, '')}`;
  const message = [timestamp, nonce, method.toUpperCase(), cleanPath, canonical].join('\n');
  return createHmac('sha256', secret).update(message).digest('hex');
}

/** Version 1: SHA-1 hex of timestamp + each key followed by its values (insertion order) + secret. */
export function rawSignV1(secret: string, timestamp: string, pairs: [string, string][]): string {
  const grouped = new Map<string, string[]>();
  for (const [k, v] of pairs) grouped.set(k, [...(grouped.get(k) ?? []), v]);
  let body = '';
  for (const [k, vs] of grouped) body += k + vs.join('');
  return createHash('sha1')
    .update(timestamp + body + secret)
    .digest('hex');
}

function encode(pairs: [string, string][]): string {
  return pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
}

/**
 * Call `<baseUrl>/<path>` (baseUrl includes /v1) signed with the credentials.
 * GET params go in the query; other methods send them as a form body.
 */
export async function rawCall(
  baseUrl: string,
  creds: RawCredentials,
  method: string,
  path: string,
  params: RawParams = {},
  options: RawCallOptions = {},
): Promise<RawResponse> {
  const pairs = pairsOf(params);
  const upper = method.toUpperCase();
  const timestamp = String(options.timestamp ?? Math.floor(Date.now() / 1000));
  const nonce = options.nonce ?? randomBytes(16).toString('base64url');
  const version = options.version ?? '2.0';
  const signature =
    options.signature ?? (version === '1' ? rawSignV1(creds.apiSecret, timestamp, pairs) : rawSignV2(creds.apiSecret, timestamp, nonce, upper, path, pairs));

  let headers: Record<string, string> = {
    Accept: 'application/json',
    'X-CareHQ-AccountId': creds.accountId,
    'X-CareHQ-APIKey': creds.apiKey,
    'X-CareHQ-Timestamp': timestamp,
    'X-CareHQ-Signature': signature,
  };
  if (version !== '1') {
    headers['X-CareHQ-Nonce'] = nonce;
    headers['X-CareHQ-Signature-Version'] = version;
  }
  const omit = new Set((options.omit ?? []).map((h) => h.toLowerCase()));
  headers = Object.fromEntries(Object.entries(headers).filter(([k]) => !omit.has(k.toLowerCase())));
  Object.assign(headers, options.headers);

  const cleanPath = (options.sendPath ?? path).replace(/^\/+/, '');
  let url = `${baseUrl.replace(/\/+$/, '')}/${cleanPath}`;
  let body: string | undefined;
  if (upper === 'GET') {
    if (pairs.length > 0) url += `?${encode(pairs)}`;
  } else {
    body = options.rawBody ?? encode(pairs);
    headers['Content-Type'] ??= 'application/x-www-form-urlencoded';
  }
  const res = await request(url, { method: upper as 'GET', headers, body });
  const text = await res.body.text();
  let json: any;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  const flat: Record<string, string> = {};
  for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) flat[k] = Array.isArray(v) ? v.join(', ') : v;
  return { status: res.statusCode, headers: flat, text, json };
}

/** A caller bound to one sandbox and key: `api('GET', 'actions', {...})`. */
export function rawClient(baseUrl: string, creds: RawCredentials) {
  return (method: string, path: string, params?: RawParams, options?: RawCallOptions) => rawCall(baseUrl, creds, method, path, params, options);
}

/** JSON call to the sandbox controls (`/_sandbox/...`), unauthenticated. */
export async function controlCall(controlsUrl: string, method: string, path: string, body?: unknown): Promise<RawResponse> {
  const res = await request(`${controlsUrl}/${path.replace(/^\/+/, '')}`, {
    method: method.toUpperCase() as 'GET',
    headers: body === undefined && method.toUpperCase() === 'GET' ? {} : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.body.text();
  let json: any;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.statusCode, headers: res.headers as Record<string, string>, text, json };
}
