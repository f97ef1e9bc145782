import { setTimeout as sleep } from 'node:timers/promises';
import type { FaultFailure } from '../faults.js';
import type { FakeRateLimits } from '../rate-limits.js';
import { ApiError } from './api-error.js';
import { APP_TOKEN_METHODS, appMethods } from './apps.js';
import type { Args } from './args.js';
import { chatMethods } from './chat.js';
import type { ApiContext, MethodHandler } from './context.js';
import { conversationMethods } from './conversations.js';
import { fileMethods } from './files.js';
import { historyMethods } from './history.js';
import { rateCall, type RateCall } from './rate-scope.js';
import { userMethods } from './users.js';
import { viewMethods } from './views.js';

export const METHODS: Record<string, MethodHandler> = {
  ...conversationMethods,
  ...historyMethods,
  ...chatMethods,
  ...viewMethods,
  ...userMethods,
  ...appMethods,
  ...fileMethods,
};

/**
 * How calls are authenticated: every workspace's bot tokens (a call runs in its token's workspace),
 * the app-level token for apps.connections.open, and the app's client credentials for oauth.v2.access.
 */
export interface FakeAuth {
  /** Where calls that name no workspace are recorded (the first workspace). */
  fallback: ApiContext;
  /** The workspace a bot token acts in (undefined: not a bot token this fake issued); `expired` with token rotation. */
  bot(token: string): { ctx: ApiContext; revoked: boolean; expired?: boolean } | undefined;
  appToken: string;
  /** auth.revoke: the token stops working. */
  revoke(token: string): void;
  /** oauth.v2.access. */
  exchange(args: Args, basic?: { user: string; password: string }): Record<string, unknown>;
}

export interface ApiRequest {
  method: string;
  args: Args;
  /** Bearer token from the Authorization header, if any. */
  bearer?: string;
  /** True when args came from a JSON body (Slack ignores a `token` field there). */
  json: boolean;
  /** HTTP Basic credentials (oauth.v2.access takes the client id and secret this way). */
  basic?: { user: string; password: string };
}

export interface ApiAnswer {
  status: number;
  headers: Record<string, string>;
  body: Record<string, unknown> | string;
}

const isRateLimited = (f: FaultFailure) => f.status === 429 || f.error === 'ratelimited';

function failureError(f: FaultFailure): ApiError | { status: number } {
  if (isRateLimited(f)) {
    return new ApiError('ratelimited', {}, 429, { 'Retry-After': String(f.retryAfterSec ?? 1) });
  }
  if (f.status !== undefined && f.status >= 500 && !f.error) return { status: f.status };
  return new ApiError(f.error ?? 'internal_error', {}, f.status ?? 200);
}

/** Methods that take no token (the app's client credentials instead). */
const CLIENT_METHODS = new Set(['oauth.v2.access']);

/** The workspace a token acts in, or the Slack error for it. */
function authenticate(auth: FakeAuth, method: string, token: string | undefined): ApiContext {
  if (!token) throw new ApiError('not_authed');
  const appMethod = APP_TOKEN_METHODS.has(method);
  if (token === auth.appToken) {
    if (appMethod) return auth.fallback;
    throw new ApiError('not_allowed_token_type');
  }
  const bot = auth.bot(token);
  if (!bot) throw new ApiError('invalid_auth');
  if (bot.revoked) throw new ApiError('token_revoked');
  if (bot.expired) throw new ApiError('token_expired');
  if (appMethod) throw new ApiError('not_allowed_token_type');
  return bot.ctx;
}

/** The call as the rate limits count it, when its token (or, for oauth.v2.access, the app) is known. */
function rateCallOf(auth: FakeAuth, limits: FakeRateLimits, method: string, token: string | undefined, args: Args): RateCall | undefined {
  let ctx: ApiContext;
  let teamId: string | null = null;
  if (CLIENT_METHODS.has(method)) ctx = auth.fallback;
  else {
    try {
      ctx = authenticate(auth, method, token);
    } catch {
      return undefined;
    }
    if (token !== auth.appToken) teamId = ctx.store.state.team.id;
  }
  const { store } = ctx;
  return rateCall(method, { teamId, appId: store.state.bot.appId, distribution: store.appDistribution, ...(teamId ? { store } : {}) }, args, limits.post);
}

/** Runs one Web API call through faults, rate limits, auth and the method, and records it in its workspace. */
export async function handleApiCall(auth: FakeAuth, limits: FakeRateLimits, req: ApiRequest): Promise<ApiAnswer> {
  const started = performance.now();
  const { token: bodyToken, ...args } = req.args;
  const token = req.bearer ?? (req.json ? undefined : typeof bodyToken === 'string' ? bodyToken : undefined);
  // Recorded in the workspace of its token, even one revoked or expired (it still names that workspace).
  let ctx = (token && token !== auth.appToken ? auth.bot(token)?.ctx : undefined) ?? auth.fallback;
  const at = ctx.store.clock.now();
  // Counted and limited when the call arrives, on the fake's clock (a slow answer does not move it).
  const call = rateCallOf(auth, limits, req.method, token, args);
  if (call) limits.arrived(call, at);
  const decision = ctx.faults.decide(req.method, req.args);
  const admission = call && !decision.failure ? limits.take(call, at) : ({ ok: true } as const);
  if (decision.delayMs > 0) await sleep(decision.delayMs);
  let answer: ApiAnswer;
  try {
    if (decision.failure) {
      if (call && isRateLimited(decision.failure)) limits.injected(call, at, decision.failure.retryAfterSec ?? 1);
      throw failureError(decision.failure);
    }
    if (!admission.ok) throw new ApiError('ratelimited', {}, 429, { 'Retry-After': String(admission.retryAfterSec) });
    let result: Record<string, unknown>;
    if (CLIENT_METHODS.has(req.method)) {
      result = auth.exchange(args, req.basic);
    } else if (req.method === 'auth.revoke') {
      ctx = authenticate(auth, req.method, token);
      if (args.test !== true && args.test !== 'true' && args.test !== '1') auth.revoke(token!);
      result = { revoked: true };
    } else {
      const handler = METHODS[req.method];
      if (!handler) throw new ApiError('unknown_method');
      ctx = authenticate(auth, req.method, token);
      result = await handler(ctx, args);
    }
    answer = { status: 200, headers: {}, body: { ok: true, ...result } };
  } catch (e) {
    if (e instanceof ApiError) answer = { status: e.status, headers: e.headers, body: e.body() };
    else if (typeof e === 'object' && e !== null && 'status' in e && typeof e.status === 'number') {
      answer = { status: e.status, headers: {}, body: e.status === 503 ? 'Service Unavailable' : 'Internal Server Error' };
    } else {
      ctx.logger.error('slack fake: method failed', { method: req.method, error: e });
      answer = { status: 200, headers: {}, body: { ok: false, error: 'internal_error' } };
    }
  }
  // The call log never keeps the app's secret; a refresh token is kept as what it is, not its value.
  const { client_secret: _secret, refresh_token: refresh, ...rest } = args;
  const recorded = refresh === undefined ? rest : { ...rest, refresh_token: '[refresh token]' };
  ctx.store.recordCall({
    method: req.method,
    args: recorded,
    status: answer.status,
    result: typeof answer.body === 'string' ? { ok: false, error: `http_${answer.status}` } : answer.body,
    at,
    durationMs: performance.now() - started,
  });
  ctx.logger.debug('slack fake: api call', { method: req.method, status: answer.status });
  return answer;
}
