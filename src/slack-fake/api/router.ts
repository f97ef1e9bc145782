import { setTimeout as sleep } from 'node:timers/promises';
import type { FaultFailure } from '../faults.js';
import { ApiError } from './api-error.js';
import { APP_TOKEN_METHODS, appMethods } from './apps.js';
import type { Args } from './args.js';
import { chatMethods } from './chat.js';
import type { ApiContext, MethodHandler } from './context.js';
import { conversationMethods } from './conversations.js';
import { userMethods } from './users.js';
import { viewMethods } from './views.js';

export const METHODS: Record<string, MethodHandler> = { ...conversationMethods, ...chatMethods, ...viewMethods, ...userMethods, ...appMethods };

/** The tokens the fake issued: the bot token for Web API methods, the app-level token for apps.connections.open. */
export interface FakeTokens {
  bot: string;
  app: string;
}

export interface ApiRequest {
  method: string;
  args: Args;
  /** Bearer token from the Authorization header, if any. */
  bearer?: string;
  /** True when args came from a JSON body (Slack ignores a `token` field there). */
  json: boolean;
}

export interface ApiAnswer {
  status: number;
  headers: Record<string, string>;
  body: Record<string, unknown> | string;
}

function failureError(f: FaultFailure): ApiError | { status: number } {
  if (f.status === 429 || f.error === 'ratelimited') {
    return new ApiError('ratelimited', {}, 429, { 'Retry-After': String(f.retryAfterSec ?? 1) });
  }
  if (f.status !== undefined && f.status >= 500 && !f.error) return { status: f.status };
  return new ApiError(f.error ?? 'internal_error', {}, f.status ?? 200);
}

/** Runs one Web API call through faults, auth and the method, and records it. */
export async function handleApiCall(ctx: ApiContext, req: ApiRequest, tokens: FakeTokens): Promise<ApiAnswer> {
  const { store } = ctx;
  const at = store.clock.now();
  const started = performance.now();
  const { token: bodyToken, ...args } = req.args;
  const decision = ctx.faults.decide(req.method, req.args);
  if (decision.delayMs > 0) await sleep(decision.delayMs);
  let answer: ApiAnswer;
  try {
    if (decision.failure) throw failureError(decision.failure);
    const handler = METHODS[req.method];
    if (!handler) throw new ApiError('unknown_method');
    const token = req.bearer ?? (req.json ? undefined : typeof bodyToken === 'string' ? bodyToken : undefined);
    if (!token) throw new ApiError('not_authed');
    const [expected, other] = APP_TOKEN_METHODS.has(req.method) ? [tokens.app, tokens.bot] : [tokens.bot, tokens.app];
    if (token === other) throw new ApiError('not_allowed_token_type');
    if (token !== expected) throw new ApiError('invalid_auth');
    const result = await handler(ctx, args);
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
  store.recordCall({
    method: req.method,
    args,
    status: answer.status,
    result: typeof answer.body === 'string' ? { ok: false, error: `http_${answer.status}` } : answer.body,
    at,
    durationMs: performance.now() - started,
  });
  ctx.logger.debug('slack fake: api call', { method: req.method, status: answer.status });
  return answer;
}
