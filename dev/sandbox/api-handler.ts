import type { IncomingMessage, ServerResponse } from 'node:http';
import { matchRoute } from './api-routes.js';
import type { Authenticator } from './auth.js';
import { ApiError } from './errors.js';
import type { Faults } from './faults.js';
import { readBody, sendJson, sleep } from './http-util.js';
import type { KeyRegistry } from './keys.js';
import { parseParams } from './params.js';
import { rateHeaders, type RateLimiter } from './rate-limit.js';
import type { RecordCache } from './record-cache.js';
import type { ResponseCache } from './response-cache.js';
import type { Stats } from './stats.js';
import type { Store } from './store.js';

export interface ApiDeps {
  store: Store;
  cache: RecordCache;
  lists: ResponseCache;
  auth: Authenticator;
  keys: KeyRegistry;
  limiter: RateLimiter;
  faults: Faults;
  stats: Stats;
  /** False = `/v1/users` does not exist (404), like an API without the users endpoint. */
  usersEndpoint: boolean;
}

const UNKNOWN_ROUTE = '(unknown)';

function keyHeader(req: IncomingMessage, keys: KeyRegistry): string | undefined {
  const key = req.headers['x-carehq-apikey'];
  const value = Array.isArray(key) ? key[0] : key;
  return value !== undefined && keys.secretOf(value) !== undefined ? value : undefined;
}

function rejectUnsupportedBody(req: IncomingMessage, body: string): void {
  const type = (req.headers['content-type'] ?? '').toLowerCase();
  if (body !== '' && (type.startsWith('application/json') || type.startsWith('multipart/'))) {
    throw new ApiError(400, 'Request bodies must be URL-encoded form data (application/x-www-form-urlencoded).');
  }
}

/** The path as the vendor's clients sign it: percent-decoded; undefined when it does not decode. */
function decodedPath(rawPath: string): string | undefined {
  try {
    return decodeURIComponent(rawPath);
  } catch {
    return undefined;
  }
}

/**
 * The /v1 pipeline: faults -> route (404/405) -> body -> authenticate (401;
 * over the percent-decoded path, as the vendor's clients sign it)
 * -> rate limit (429) -> permission (403) -> handler (200/400/404).
 * Every response carries the three rate-limit headers.
 */
export async function handleApi(req: IncomingMessage, res: ServerResponse, deps: ApiDeps, rawPath: string, query: string): Promise<void> {
  const method = (req.method ?? 'GET').toUpperCase();
  const path = decodedPath(rawPath);
  const match = path === undefined ? undefined : matchRoute(path);
  const template = match?.route.template ?? UNKNOWN_ROUTE;
  let status = 500;
  let rate = deps.limiter.peek(keyHeader(req, deps.keys));
  const reply = (s: number, body: string, extra?: Record<string, string>) => {
    status = s;
    sendJson(res, s, body, { ...rateHeaders(rate), ...extra });
  };

  try {
    if (deps.faults.latencyMs > 0) await sleep(deps.faults.latencyMs);
    const fault = deps.faults.decide();
    if (fault.kind === 'rate-limit') {
      rate = { ...rate, remaining: 0 };
      throw new ApiError(429, 'Rate limit exceeded (forced by the sandbox fault settings).');
    }
    if (fault.kind === 'error') throw new ApiError(fault.status, 'Simulated service error (sandbox fault injection).');

    if (!match || path === undefined || (!deps.usersEndpoint && match.route.resource === 'users')) throw new ApiError(404, `No such endpoint: ${rawPath}`);
    const operation = match.route.methods[method];
    const allowed = Object.keys(match.route.methods).join(', ');
    if (!operation) throw new ApiError(405, `Method ${method} is not allowed on ${match.route.template}; allowed: ${allowed}.`, undefined, { Allow: allowed });

    let params: ReturnType<typeof parseParams>;
    if (method === 'GET') params = parseParams(query);
    else {
      const body = await readBody(req);
      rejectUnsupportedBody(req, body);
      params = parseParams(body);
    }

    const outcome = deps.auth.authenticate({ method, path, headers: req.headers, params });
    if (!outcome.ok) throw new ApiError(401, outcome.hint);
    rate = deps.limiter.take(outcome.apiKey);
    if (!rate.allowed) throw new ApiError(429, `Rate limit exceeded: at most ${rate.limit} requests per second for this API key.`);
    if (!deps.keys.allows(outcome.apiKey, match.route.resource, operation.permission)) {
      throw new ApiError(403, `This API key lacks the '${operation.permission}' permission on ${match.route.resource}.`);
    }

    const body = operation.handler({ store: deps.store, cache: deps.cache, lists: deps.lists, params, query, id: match.id });
    reply(200, body);
  } catch (err) {
    if (err instanceof ApiError) reply(err.status, err.body(), err.headers);
    else reply(500, JSON.stringify({ hint: 'Internal sandbox error.' }));
    if (!(err instanceof ApiError)) throw err;
  } finally {
    deps.stats.record(method, template, status);
  }
}
