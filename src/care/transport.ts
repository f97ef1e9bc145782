/**
 * The one request pipeline: wait for the limiter -> sign (fresh nonce and
 * timestamp) -> send -> classify -> maybe retry (re-signed, back through the
 * limiter). Logs method, path (no query), status and timings only.
 */
import type { z } from 'zod';
import type { AddressRule } from './address-guard.js';
import type { CareClock } from './clock.js';
import { type CareApiError, errorFromResponse, NetworkError, ResponseValidationError, TimeoutError } from './errors.js';
import { createPool, sendOnce, type Endpoint, type HttpResult } from './http.js';
import type { CareLogger } from './logger.js';
import { compactParams, encodeParams } from './params.js';
import { parseRateLimitHeaders, type RateLimiter } from './rate-limiter.js';
import { outcomeOfError, shouldRetry, type AttemptOutcome, type BackoffOptions } from './retry-policy.js';
import { authHeaders, canonicalPath, type WireValue } from './signing.js';
import { type CareAttempt, type CareAttemptObserver, resourceOf } from './observer.js';
import type { CarePools } from './shared-pools.js';
import { createStats, type CareClientStats } from './stats.js';

export interface Credentials {
  accountId: string;
  apiKey: string;
  apiSecret: string;
}

export interface TransportOptions {
  endpoint: Endpoint;
  credentials: Credentials;
  limiter: RateLimiter;
  clock: CareClock;
  random: () => number;
  logger: CareLogger;
  timeoutMs: number;
  maxRetries: number;
  backoff: BackoffOptions;
  maxRateLimitWaitMs: number;
  /** At most this many requests at once (default 10): the size of its own pool, or its share of a shared one. */
  connections?: number | undefined;
  /** The instance's shared connections (shared-pools.ts); absent: a pool of this client's own, closed with it. */
  pools?: CarePools | undefined;
  /** Connect only to IP addresses this accepts (checked after resolving, and connected to as checked). */
  allowAddress?: AddressRule | undefined;
  /** Told about every attempt (metrics); its errors are ignored. */
  onAttempt?: CareAttemptObserver | undefined;
}

export type HttpMethod = 'GET' | 'PUT' | 'PATCH';

export interface CareRequest<T> {
  method: HttpMethod;
  /** Resource path without `/v1`, e.g. `actions/<id>/complete`. */
  path: string;
  params?: Record<string, WireValue> | undefined;
  schema: z.ZodType<T>;
  /** Retry on 5xx, timeouts and broken connections. Defaults to true for GET and PATCH, false for PUT. */
  idempotent?: boolean | undefined;
}

export interface Transport {
  /** The parsed body; `null` only for a 204/empty success of a PUT/PATCH. */
  request<T>(req: CareRequest<T>): Promise<T | null>;
  stats(): CareClientStats;
  close(): Promise<void>;
}

type AttemptTiming = { retry: boolean; backoffMs: number; waitedMs: number };

type Attempt = { done: true; value: unknown } | { done: false; error: CareApiError; outcome: AttemptOutcome };

export function createTransport(options: TransportOptions): Transport {
  const { endpoint, credentials, limiter, clock, logger } = options;
  const pool = options.pools
    ? options.pools.poolFor(endpoint.origin, options.timeoutMs, options.allowAddress)
    : createPool(endpoint.origin, options.timeoutMs, options.connections, options.allowAddress);
  const stats = createStats();
  /** With a shared pool, this client's own cap on requests at once (its own pool caps them by its connections). */
  const cap = options.pools ? Math.max(1, options.connections ?? 10) : Number.POSITIVE_INFINITY;
  let sending = 0;
  const waiting: (() => void)[] = [];
  /** Closed, with a shared pool: what a closed pool of its own would answer (no retry helps). */
  let closedShared = false;
  let drained: (() => void) | undefined;
  async function send(request: Parameters<typeof sendOnce>[1]): Promise<HttpResult> {
    if (sending >= cap) await new Promise<void>((resolve) => waiting.push(resolve));
    if (closedShared) {
      waiting.shift()?.();
      return { ok: false, outcome: outcomeOfError('UND_ERR_CLOSED'), error: new Error('the care client was closed') };
    }
    sending++;
    try {
      return await sendOnce(pool, request);
    } finally {
      sending--;
      waiting.shift()?.();
      if (sending === 0) drained?.();
    }
  }
  /** A client of a shared pool closes alone: nothing new is sent, and those in flight are waited for. */
  const closeShared = async () => {
    closedShared = true;
    if (sending > 0) await new Promise<void>((resolve) => (drained = resolve));
  };

  /** Tell the observer (if any) about one attempt; an observer's failure never fails a request. */
  function report(req: CareRequest<unknown>, apiPath: string, timing: AttemptTiming, status: CareAttempt['status'], started: number): void {
    if (!options.onAttempt) return;
    try {
      options.onAttempt({ resource: resourceOf(apiPath), method: req.method, status, ...timing, durationMs: clock.now() - started });
    } catch {
      // metrics must never break a call
    }
  }

  async function attempt<T>(req: CareRequest<T>, apiPath: string, params: Record<string, WireValue>, backoffMs: number, retry: boolean): Promise<Attempt> {
    const asked = clock.now();
    const permit = await limiter.acquire();
    const timing = { retry, backoffMs, waitedMs: clock.now() - asked };
    const encoded = encodeParams(params);
    const isGet = req.method === 'GET';
    const headers = authHeaders({ ...credentials, method: req.method, path: req.path, params, timestamp: clock.now() / 1000 });
    if (!isGet && encoded) headers['Content-Type'] = 'application/x-www-form-urlencoded';
    const fullPath = endpoint.prefix + apiPath + (isGet && encoded ? `?${encoded}` : '');
    const started = clock.now();
    stats.count('requests');
    const result: HttpResult = await send({
      method: req.method,
      path: fullPath,
      headers,
      body: isGet ? undefined : encoded,
      timeoutMs: options.timeoutMs,
    });
    const base = { method: req.method, path: apiPath };
    if (!result.ok) {
      limiter.release(permit);
      logger.debug('care request failed', { ...base, outcome: result.outcome.kind, ms: clock.now() - started });
      const error =
        result.outcome.kind === 'timeout'
          ? new TimeoutError({ ...base, timeoutMs: options.timeoutMs, cause: result.error })
          : new NetworkError({ ...base, code: 'code' in result.outcome ? result.outcome.code : undefined, cause: result.error });
      stats.outcome(clock.now(), { ok: false, error: error.name });
      report(req, apiPath, timing, result.outcome.kind, started);
      return { done: false, error, outcome: result.outcome };
    }
    report(req, apiPath, timing, result.status, started);
    const rate = parseRateLimitHeaders(result.headers);
    limiter.observe(rate, permit, result.status !== 429);
    stats.rateLimit(clock.now(), rate);
    logger.debug('care request', { ...base, status: result.status, ms: clock.now() - started, remaining: rate.remaining });
    if (result.status === 429) stats.count('rateLimited');
    // 5xx and refused credentials are trouble with the API or our key; other answers show it working.
    const trouble = result.status >= 500 || result.status === 401;
    stats.outcome(clock.now(), trouble ? { ok: false, error: `HTTP ${result.status}` } : { ok: true });
    if (result.status < 200 || result.status >= 300) {
      const error = errorFromResponse({ ...base, status: result.status, body: result.body, resetAt: rate.resetAt });
      return { done: false, error, outcome: { kind: 'status', status: result.status, resetAt: rate.resetAt } };
    }
    return { done: true, value: parseBody(req, base, result.status, result.body) };
  }

  async function request<T>(req: CareRequest<T>): Promise<T | null> {
    const apiPath = canonicalPath(req.path);
    const params = compactParams(req.params ?? {});
    const idempotent = req.idempotent ?? req.method !== 'PUT';
    try {
      let backoffMs = 0;
      for (let retryNumber = 1; ; retryNumber++) {
        const result = await attempt(req, apiPath, params, backoffMs, retryNumber > 1);
        if (result.done) return result.value as T | null;
        const decision = shouldRetry({
          outcome: result.outcome,
          idempotent,
          read: req.method === 'GET',
          retryNumber,
          maxRetries: options.maxRetries,
          nowMs: clock.now(),
          random: options.random(),
          backoff: options.backoff,
          maxRateLimitWaitMs: options.maxRateLimitWaitMs,
        });
        if (!decision.retry) throw result.error;
        stats.count('retries');
        logger.warn('care request retry', { method: req.method, path: apiPath, retry: retryNumber, reason: decision.reason, delayMs: decision.delayMs });
        // Every call of this client waits on a 429, not just this one.
        if (result.outcome.kind === 'status' && result.outcome.status === 429) limiter.blockUntil(clock.now() + decision.delayMs);
        backoffMs = decision.delayMs;
        await clock.sleep(decision.delayMs);
      }
    } catch (error) {
      stats.count('failures');
      throw error;
    }
  }

  let closing: Promise<void> | undefined;
  return {
    request,
    stats: () => stats.snapshot(),
    // A shared pool is the instance's to close.
    close: () => (closing ??= options.pools ? closeShared() : pool.close()),
  };
}

function parseBody<T>(req: CareRequest<T>, base: { method: string; path: string }, status: number, body: string): T | null {
  if (body.trim() === '') {
    if (req.method !== 'GET') return null;
    throw new ResponseValidationError({ ...base, status, issues: [{ path: '', message: 'empty body where JSON was expected' }] });
  }
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw new ResponseValidationError({ ...base, status, issues: [{ path: '', message: 'body is not JSON' }] });
  }
  const parsed = req.schema.safeParse(json);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message }));
  throw new ResponseValidationError({ ...base, status, issues });
}
