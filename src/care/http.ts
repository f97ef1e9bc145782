/**
 * One HTTP exchange through undici: send, read the whole body, classify a
 * failure. No retries and no signing here (see transport.ts).
 */
import { Pool } from 'undici';
import { type AddressRule, guardedConnector } from './address-guard.js';
import { outcomeOfError, type FailureOutcome } from './retry-policy.js';

export interface Endpoint {
  /** `http(s)://host[:port]`. */
  origin: string;
  /** Path before `/v1` (usually empty), without a trailing slash. */
  prefix: string;
}

/** Split a base URL (with or without a trailing `/v1`) into origin and prefix. */
export function parseBaseUrl(baseUrl: string): Endpoint {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new TypeError('baseUrl: not a valid URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError('baseUrl: expected http or https');
  if (url.search || url.hash || url.username || url.password) throw new TypeError('baseUrl: no query, fragment or credentials allowed');
  const prefix = url.pathname.replace(/\/+$/, '').replace(/\/v1$/, '');
  return { origin: url.origin, prefix };
}

export interface HttpRequest {
  method: string;
  /** Full request path, query string included. */
  path: string;
  headers: Record<string, string>;
  body?: string | undefined;
  timeoutMs: number;
}

export type HttpHeaders = Record<string, string | string[] | undefined>;

export type HttpResult = { ok: true; status: number; headers: HttpHeaders; body: string } | { ok: false; outcome: FailureOutcome; error: unknown };

/** `allowAddress`: connect only to addresses it accepts (address-guard.ts); any address when absent. `connections` null: no cap. */
export function createPool(origin: string, timeoutMs: number, connections: number | null = 10, allowAddress?: AddressRule): Pool {
  const connectTimeout = Math.min(timeoutMs, 10_000);
  return new Pool(origin, {
    connections,
    keepAliveTimeout: 4_000,
    // Backstops: the per-request AbortSignal below is the real deadline.
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    connectTimeout,
    ...(allowAddress ? { connect: guardedConnector(allowAddress, connectTimeout) } : {}),
  });
}

function errorCode(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e && typeof e === 'object' && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return undefined;
}

/** Send one request; the deadline covers connecting, headers and the whole body. */
export async function sendOnce(pool: Pool, request: HttpRequest): Promise<HttpResult> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, request.timeoutMs);
  try {
    const response = await pool.request({
      method: request.method as 'GET',
      path: request.path,
      headers: request.headers,
      body: request.body,
      signal: controller.signal,
    });
    const body = await response.body.text();
    return { ok: true, status: response.statusCode, headers: response.headers, body };
  } catch (error) {
    if (timedOut) return { ok: false, outcome: { kind: 'timeout' }, error };
    return { ok: false, outcome: outcomeOfError(errorCode(error)), error };
  } finally {
    clearTimeout(timer);
  }
}
