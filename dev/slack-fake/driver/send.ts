import type { FakeStore } from '../store.js';
import type { DriverRequestKind } from '../types.js';
import { signedHeaders } from './sign.js';

export const FORM = 'application/x-www-form-urlencoded';
export const JSON_TYPE = 'application/json';

export interface SendOptions {
  eventsUrl: string;
  signingSecret: string;
  /** Seconds for X-Slack-Request-Timestamp (Slack's wall clock). */
  timestampSec: number;
  ackTimeoutMs: number;
  contentType: typeof FORM | typeof JSON_TYPE;
  rawBody: string;
  /** Replace the computed signature (to test that the app refuses bad ones). */
  signature?: string;
  headers?: Record<string, string>;
}

/** The app's answer to one request Slack sent it. */
export interface AppAnswer {
  /** HTTP status (absent when the app did not answer within the ack timeout). */
  status?: number;
  /** Raw response body ('' when empty). */
  text: string;
  /** Parsed JSON body when there was one. */
  json?: unknown;
  latencyMs: number;
  acked: boolean;
  failure?: 'timeout' | 'http_error' | 'network_error';
}

/** POSTs a signed request like Slack does and waits up to the ack timeout for the answer. */
export async function sendSigned(options: SendOptions): Promise<AppAnswer> {
  const headers = {
    'content-type': options.contentType,
    ...signedHeaders(options.signingSecret, options.timestampSec, options.rawBody),
    ...(options.signature ? { 'x-slack-signature': options.signature } : {}),
    ...options.headers,
  };
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.ackTimeoutMs);
  const started = performance.now();
  try {
    const res = await fetch(options.eventsUrl, { method: 'POST', headers, body: options.rawBody, signal: controller.signal });
    const text = await res.text();
    const latencyMs = performance.now() - started;
    let json: unknown;
    if (text && (res.headers.get('content-type') ?? '').includes('json')) {
      try {
        json = JSON.parse(text) as unknown;
      } catch {
        json = undefined;
      }
    }
    const ok = res.status === 200;
    return { status: res.status, text, ...(json !== undefined ? { json } : {}), latencyMs, acked: ok, ...(ok ? {} : { failure: 'http_error' as const }) };
  } catch {
    const latencyMs = performance.now() - started;
    const timedOut = controller.signal.aborted;
    return { text: '', latencyMs, acked: false, failure: timedOut ? 'timeout' : 'network_error' };
  } finally {
    clearTimeout(timer);
  }
}

export function recordAnswer(store: FakeStore, kind: DriverRequestKind, name: string, user: string, answer: AppAnswer): void {
  store.recordAck({
    kind,
    name,
    user,
    at: store.clock.now(),
    latencyMs: answer.latencyMs,
    ...(answer.status !== undefined ? { status: answer.status } : {}),
    acked: answer.acked,
    ...(answer.failure ? { failure: answer.failure } : {}),
  });
}
