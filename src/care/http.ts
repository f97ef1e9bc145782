/**
 * One HTTP exchange through undici: send, read the whole body, classify a
 * failure. No retries and no signing here (see transport.ts).
 */
import { type Dispatcher, Pool } from 'undici';
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

/**
 * Send one request; the deadline covers waiting for a connection, connecting, headers and the whole body. Sent
 * through the pool's dispatch with a handler of its own (no response stream, no AbortController a request: the
 * changes poll sends one of these every few seconds for every workspace): the body's chunks are kept and joined
 * at the end, and at the deadline the answer is a timeout at once, the request aborted as soon as it has begun.
 */
export function sendOnce(pool: Dispatcher, request: HttpRequest): Promise<HttpResult> {
  return new Promise<HttpResult>((resolve) => {
    let controller: Dispatcher.DispatchController | undefined;
    /** Set at the deadline: a request begun after it is aborted with it. */
    let timedOut: Error | undefined;
    let settled = false;
    let status = 0;
    let headers: HttpHeaders = {};
    const chunks: Buffer[] = [];
    const settle = (result: HttpResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const timer = setTimeout(() => {
      timedOut = new Error('the care API did not answer in time');
      controller?.abort(timedOut);
      settle({ ok: false, outcome: { kind: 'timeout' }, error: timedOut });
    }, request.timeoutMs);
    try {
      pool.dispatch(
        { method: request.method as Dispatcher.HttpMethod, path: request.path, headers: request.headers, body: request.body ?? null },
        {
          onRequestStart(c) {
            controller = c;
            if (timedOut) c.abort(timedOut);
          },
          onResponseStart(_c, statusCode, responseHeaders) {
            status = statusCode;
            headers = responseHeaders;
          },
          onResponseData(_c, chunk) {
            chunks.push(chunk);
          },
          onResponseEnd() {
            const body = chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8');
            settle({ ok: true, status, headers, body });
          },
          onResponseError(_c, error) {
            settle(timedOut ? { ok: false, outcome: { kind: 'timeout' }, error } : { ok: false, outcome: outcomeOfError(errorCode(error)), error });
          },
        },
      );
    } catch (error) {
      // A closed or destroyed pool refuses at once.
      settle({ ok: false, outcome: outcomeOfError(errorCode(error)), error });
    }
  });
}
