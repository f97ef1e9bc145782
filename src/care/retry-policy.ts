/**
 * When to try a request again, and after how long. Pure functions: no I/O,
 * no clock, no randomness of their own (all passed in), tested without a network.
 *
 * Rules:
 * - 400/401/403/404/405 (and every other 4xx but 429): never.
 * - 429: any method (the server refused it, so nothing happened): wait until
 *   the server's reset time, or back off with jitter when it sent none.
 * - 502/503/504, timeouts and network errors: only idempotent requests
 *   (GET, and the PATCHes: complete, reopen and update, which set state to
 *   given values), exponential back-off with jitter.
 * - 500: reads (GET) only, like 502/503/504; a write that failed inside the
 *   server may have been half done, so it is not sent again.
 * - A create (PUT) is not idempotent: retried only on a 429 or when the
 *   connection was never made (the request provably never reached the server).
 * - Never more than `maxRetries` retries.
 * - An address the client's own rule refused (address-guard.ts): never.
 */
import { ADDRESS_REFUSED_CODE } from './address-refused.js';

/** An attempt that got no HTTP response. */
export type FailureOutcome =
  /** The connection could not be made: nothing was sent. */
  | { kind: 'connect-error'; code?: string | undefined }
  /** The connection broke after it was made: the request may have been processed. */
  | { kind: 'network-error'; code?: string | undefined }
  | { kind: 'timeout' }
  /** The client was closed: never retried. */
  | { kind: 'closed' };

/** What happened to one attempt. */
export type AttemptOutcome = { kind: 'status'; status: number; resetAt?: number | undefined } | FailureOutcome;

export interface BackoffOptions {
  /** First retry waits between base/2 and base. Default 500 ms. */
  baseMs: number;
  /** Cap of the exponential growth. Default 8 s. */
  maxMs: number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { baseMs: 500, maxMs: 8_000 };

export interface RetryInput {
  outcome: AttemptOutcome;
  /** Whether sending the request twice is harmless. */
  idempotent: boolean;
  /** A read (GET): it changes nothing, so even a 500 is worth another try. */
  read?: boolean | undefined;
  /** 1 for the first retry, 2 for the second, ... */
  retryNumber: number;
  maxRetries: number;
  nowMs: number;
  /** In [0, 1). */
  random: number;
  backoff?: BackoffOptions | undefined;
  /** A 429 whose reset is further away than this is not retried. Default 30 s. */
  maxRateLimitWaitMs?: number | undefined;
}

export type RetryDecision = { retry: true; delayMs: number; reason: string } | { retry: false; reason: string };

export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([502, 503, 504]);

/** Socket error codes that mean the connection was never established (nothing was sent). */
export const CONNECT_ERROR_CODES: ReadonlySet<string> = new Set([
  ADDRESS_REFUSED_CODE,
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/** Errors from a client that was closed: retrying cannot help. */
export const CLOSED_ERROR_CODES: ReadonlySet<string> = new Set(['UND_ERR_CLOSED', 'UND_ERR_DESTROYED']);

/** Exponential back-off with "equal jitter": between half and all of min(max, base * 2^(n-1)). */
export function backoffDelay(retryNumber: number, random: number, backoff: BackoffOptions = DEFAULT_BACKOFF): number {
  const ceiling = Math.min(backoff.maxMs, backoff.baseMs * 2 ** Math.max(0, retryNumber - 1));
  return Math.round(ceiling / 2 + (ceiling / 2) * Math.min(Math.max(random, 0), 1));
}

/** Classify a thrown socket/undici error by its `code`. */
export function outcomeOfError(code: string | undefined): FailureOutcome {
  if (code && CONNECT_ERROR_CODES.has(code)) return { kind: 'connect-error', code };
  if (code && CLOSED_ERROR_CODES.has(code)) return { kind: 'closed' };
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') return { kind: 'timeout' };
  return { kind: 'network-error', code };
}

/** Margin added to the server's reset time so we do not arrive a hair early. */
export const RESET_MARGIN_MS = 10;

export function shouldRetry(input: RetryInput): RetryDecision {
  const { outcome, idempotent } = input;
  if (input.retryNumber > input.maxRetries) return { retry: false, reason: 'retries exhausted' };
  const backoff = () => backoffDelay(input.retryNumber, input.random, input.backoff);

  switch (outcome.kind) {
    case 'closed':
      return { retry: false, reason: 'client closed' };
    case 'connect-error':
      // Refused by the client's own address rule before connecting: trying again changes nothing.
      if (outcome.code === ADDRESS_REFUSED_CODE) return { retry: false, reason: 'address not allowed' };
      return { retry: true, delayMs: backoff(), reason: `connection failed (${outcome.code ?? 'unknown'})` };
    case 'network-error':
      return idempotent
        ? { retry: true, delayMs: backoff(), reason: `network error (${outcome.code ?? 'unknown'})` }
        : { retry: false, reason: 'network error on a non-idempotent request that may have reached the server' };
    case 'timeout':
      return idempotent
        ? { retry: true, delayMs: backoff(), reason: 'timeout' }
        : { retry: false, reason: 'timeout on a non-idempotent request that may have reached the server' };
    case 'status':
      return decideOnStatus(outcome.status, outcome.resetAt, input, backoff);
  }
}

function decideOnStatus(status: number, resetAt: number | undefined, input: RetryInput, backoff: () => number): RetryDecision {
  if (status === 429) {
    if (resetAt === undefined || resetAt <= input.nowMs) return { retry: true, delayMs: backoff(), reason: 'rate limited (no usable reset time)' };
    const wait = resetAt - input.nowMs + RESET_MARGIN_MS;
    const maxWait = input.maxRateLimitWaitMs ?? 30_000;
    if (wait > maxWait) return { retry: false, reason: `rate limited until ${wait} ms from now (over ${maxWait} ms)` };
    return { retry: true, delayMs: wait, reason: 'rate limited: waiting for the reset' };
  }
  if (RETRYABLE_STATUSES.has(status)) {
    return input.idempotent
      ? { retry: true, delayMs: backoff(), reason: `status ${status}` }
      : { retry: false, reason: `status ${status} on a non-idempotent request` };
  }
  if (status === 500 && input.read === true) return { retry: true, delayMs: backoff(), reason: 'status 500 on a read' };
  return { retry: false, reason: `status ${status} is final` };
}
