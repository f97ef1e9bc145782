/**
 * Every Slack Web API call of the app goes through one pacer per process (each
 * WebClient's `fetch`): calls are spaced per workspace and method (rate-plan.ts),
 * `chat.postMessage` per channel, and a `ratelimited` answer's Retry-After holds
 * back every later call of that method (and channel) in the process until it has
 * passed, whichever client makes it. So heavy work (a digest's thread, trouble
 * DMs after an outage, Home tabs at a shift change) queues under Slack's limits
 * instead of bouncing off them, and no call repeats inside a Retry-After.
 *
 * A call that would have to wait longer than its client allows (a person is
 * waiting; a delivery's claim is running out) is not sent: the client gets a
 * 429 `ratelimited` with the Retry-After it would have needed, which it waits
 * out or hands back, exactly as if Slack had said it. Workspaces are told apart
 * by the token of each request (hashed; never kept or logged).
 */
import { createHash } from 'node:crypto';
import type { FetchFunction } from '@slack/web-api';
import { methodOfUrl } from '../../metrics/labels.js';
import { methodPace, POST_PER_CHANNEL, type Pace, type SlackDistribution } from './rate-plan.js';

export interface PacerClock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const realClock: PacerClock = { now: () => performance.now(), sleep };

/**
 * The app's clock (the one Slack's own limits are judged by, as the demo and tests move it). A wait ends when that
 * clock has moved on by it, or when as much real time has passed, whichever comes first: the same as a real sleep
 * on a real clock; on a clock that runs faster (a bench's world at 10x) the wait is not ten times too long.
 */
export const pacerClockOf = (now: () => Date): PacerClock => ({
  now: () => now().getTime(),
  async sleep(ms) {
    const until = now().getTime() + ms;
    const realUntil = performance.now() + ms;
    for (;;) {
      const left = Math.min(until - now().getTime(), realUntil - performance.now());
      if (left <= 0) return;
      await sleep(Math.min(left, 50));
    }
  },
});

/** GCRA: the theoretical arrival time of the next call, and a not-before set by Slack's Retry-After. */
interface Bucket {
  tat: number;
  notBefore: number;
  lastUsed: number;
}

export interface PacerObserver {
  /** A call waited this long before it was sent. */
  waited?(method: string, ms: number): void;
  /** A call was not sent: it would have waited longer than its client allows. */
  deferred?(method: string): void;
}

export interface SlackPacer {
  /**
   * Reserve a slot for this call: resolves to the milliseconds to wait before
   * sending, or null when that is more than `maxWaitMs` (nothing is reserved).
   */
  reserve(key: CallKey, maxWaitMs: number): number | null;
  /** Slack answered 429: nothing of this method (and channel) goes before `retryAfterMs` has passed. */
  rateLimited(key: CallKey, retryAfterMs: number): void;
  /** The wait before this call could be sent now (for a Retry-After of our own). */
  waitFor(key: CallKey): number;
  /** Calls with `token` are a workspace's (named `workspace`) from now on; `replaced`, its token before, is let go. */
  sameWorkspace(token: string, workspace: string, replaced?: string): void;
  /** The workspace key of a call made with this token (its hash, unless named by sameWorkspace). */
  workspaceOfToken(token: string): string;
  readonly clock: PacerClock;
  readonly observer: PacerObserver;
  /** What Slack allows this app (rate-plan.ts). */
  readonly distribution: SlackDistribution;
}

export interface CallKey {
  workspace: string;
  method: string;
  channel?: string | undefined;
}

const IDLE_BUCKET_MS = 10 * 60_000;

export function createSlackPacer(options: {
  distribution: SlackDistribution;
  /** False: no pacing of our own (a Slack without limits, in tests about something else); Retry-After is still honoured. */
  paced?: boolean | undefined;
  clock?: PacerClock;
  observer?: PacerObserver;
}): SlackPacer {
  const unlimited: Pace = { burst: Number.POSITIVE_INFINITY, intervalMs: 0 };
  const paceOf = (pace: Pace) => (options.paced === false ? unlimited : pace);
  const clock = options.clock ?? realClock;
  const buckets = new Map<string, Bucket>();
  /** Token hashes named as a workspace's (token rotation). */
  const named = new Map<string, string>();
  let lastSweep = clock.now();

  /** The buckets a call takes from: its method's, and for a post its channel's. */
  function bucketsOf(key: CallKey): [Bucket, Pace][] {
    const now = clock.now();
    if (now - lastSweep > IDLE_BUCKET_MS) {
      lastSweep = now;
      for (const [k, b] of buckets) if (now - b.lastUsed > IDLE_BUCKET_MS && b.notBefore < now) buckets.delete(k);
    }
    const get = (name: string, pace: Pace): [Bucket, Pace] => {
      let b = buckets.get(name);
      // New, or the clock went back (a moved clock): start afresh rather than wait for a time long past.
      if (!b || now < b.lastUsed - 1_000) buckets.set(name, (b = { tat: now, notBefore: 0, lastUsed: now }));
      return [b, pace];
    };
    const list = [get(`${key.workspace}|${key.method}`, paceOf(methodPace(key.method, options.distribution)))];
    if (key.method === 'chat.postMessage' && key.channel) list.push(get(`${key.workspace}|${key.method}|${key.channel}`, paceOf(POST_PER_CHANNEL)));
    return list;
  }

  const startOf = (b: Bucket, pace: Pace, now: number) => Math.max(now, b.notBefore, pace.intervalMs === 0 ? 0 : b.tat - (pace.burst - 1) * pace.intervalMs);

  return {
    clock,
    observer: options.observer ?? {},
    distribution: options.distribution,
    reserve(key, maxWaitMs) {
      const now = clock.now();
      const list = bucketsOf(key);
      const start = Math.max(...list.map(([b, pace]) => startOf(b, pace, now)));
      if (start - now > maxWaitMs) return null;
      for (const [b, pace] of list) {
        b.tat = Math.max(b.tat, start) + pace.intervalMs;
        b.lastUsed = now;
      }
      return start - now;
    },
    rateLimited(key, retryAfterMs) {
      const until = clock.now() + retryAfterMs;
      const list = bucketsOf(key);
      // A post's 429 is about its channel; any other's, about the method.
      const [b] = list.length > 1 ? list[1]! : list[0]!;
      b.notBefore = Math.max(b.notBefore, until);
    },
    waitFor(key) {
      const now = clock.now();
      return Math.max(0, ...bucketsOf(key).map(([b, pace]) => startOf(b, pace, now) - now));
    },
    sameWorkspace(token, workspace, replaced) {
      named.set(tokenHash(token), `workspace:${workspace}`);
      if (replaced !== undefined && replaced !== token) named.delete(tokenHash(replaced));
    },
    workspaceOfToken: (token) => named.get(tokenHash(token)) ?? tokenHash(token),
  };
}

const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex').slice(0, 16);

/** The token a request is made with: its bearer token (or the token in its body). */
function tokenOf(init: Parameters<FetchFunction>[1], params: URLSearchParams | null): string {
  const auth = Object.entries(init?.headers ?? {}).find(([name]) => name.toLowerCase() === 'authorization')?.[1];
  return auth?.replace(/^Bearer\s+/i, '') ?? params?.get('token') ?? '';
}

function paramsOf(init: Parameters<FetchFunction>[1]): URLSearchParams | null {
  const body = init?.body;
  return typeof body === 'string' ? new URLSearchParams(body) : null;
}

const ratelimited = (retryAfterSeconds: number) =>
  new Response('{"ok":false,"error":"ratelimited"}', {
    status: 429,
    headers: { 'content-type': 'application/json; charset=utf-8', 'retry-after': String(retryAfterSeconds) },
  });

export interface PacedFetchOptions {
  /** The longest a call may wait for its slot; longer, and the client gets a 429 at once (nothing sent). */
  maxWaitMs: number;
  /** Time for the request itself once sent (the client's own timeout would count the wait too). */
  transferTimeoutMs: number;
}

/** A `fetch` for one kind of client, through the process's pacer. */
export function pacedFetch(base: FetchFunction, pacer: SlackPacer, options: PacedFetchOptions): FetchFunction {
  const bounded = (init: Parameters<FetchFunction>[1]) => {
    const timeout = AbortSignal.timeout(options.transferTimeoutMs);
    return { ...init, signal: init?.signal ? AbortSignal.any([init.signal, timeout]) : timeout };
  };
  return async (url, init) => {
    // Only Web API methods (…/api/chat.postMessage) are paced; a response_url has limits of its own, and a
    // file's upload_url none. Those still get the transfer timeout (the client's own is off when paced).
    if (!/\/api\/[a-z]+(\.[a-zA-Z]+){1,3}$/.test(typeof url === 'string' ? url.split('?')[0]! : url.pathname)) return base(url, bounded(init));
    const params = paramsOf(init);
    const key: CallKey = { workspace: pacer.workspaceOfToken(tokenOf(init, params)), method: methodOfUrl(url), channel: params?.get('channel') ?? undefined };
    const wait = pacer.reserve(key, options.maxWaitMs);
    if (wait === null) {
      pacer.observer.deferred?.(key.method);
      return ratelimited(Math.max(1, Math.ceil(pacer.waitFor(key) / 1000)));
    }
    if (wait > 0) {
      pacer.observer.waited?.(key.method, wait);
      await pacer.clock.sleep(wait);
    }
    const response = await base(url, bounded(init));
    if (response.status === 429) {
      const seconds = Number(response.headers.get('retry-after'));
      pacer.rateLimited(key, (Number.isFinite(seconds) && seconds > 0 ? seconds : 1) * 1000);
    }
    return response;
  };
}
