import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { foreignRequest, mediaType } from '../local-http/local-only.js';
import { ApiError } from './api/api-error.js';
import type { Args } from './api/args.js';
import type { ApiContext } from './api/context.js';
import { handleApiCall, type ApiAnswer, type FakeAuth } from './api/router.js';
import type { FakeOAuth } from './oauth.js';
import type { FakeRateLimits } from './rate-limits.js';
import { postToResponseUrl } from './response-urls.js';
import { receiveUpload } from './upload.js';

const MAX_BODY = 4 * 1024 * 1024;

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw new ApiError('request_too_large', {}, 413);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Form (`a=1&blocks=[...]`) or JSON body, plus query parameters, as one
 * argument object. Like Slack for apps made since 2021, a token in the query
 * string is ignored (a link or an image must not act as the bot); a body in any
 * other format (text/plain: a web page's simple request) is refused with 415.
 */
function parseArgs(req: IncomingMessage, raw: string, query: URLSearchParams): { args: Args; json: boolean } {
  const args: Args = Object.fromEntries([...query.entries()].filter(([key]) => key !== 'token'));
  const type = mediaType(req);
  if (raw.length === 0) return { args, json: false };
  if (type === 'application/json') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      throw new ApiError('invalid_json');
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new ApiError('invalid_json');
    return { args: { ...args, ...(parsed as Args) }, json: true };
  }
  if (type.startsWith('multipart/')) throw new ApiError('invalid_form_data');
  if (type !== 'application/x-www-form-urlencoded') throw new ApiError('unsupported_content_type', {}, 415);
  for (const [k, v] of new URLSearchParams(raw)) args[k] = v;
  return { args, json: false };
}

function send(res: ServerResponse, answer: ApiAnswer, scopes?: string): void {
  const isText = typeof answer.body === 'string';
  res.writeHead(answer.status, {
    'content-type': isText ? 'text/plain; charset=utf-8' : 'application/json; charset=utf-8',
    ...(scopes ? { 'x-oauth-scopes': scopes } : {}),
    ...answer.headers,
  });
  res.end(isText ? answer.body : JSON.stringify(answer.body));
}

export interface FakeServerHandle {
  server: Server;
  url: string;
  /** Requests received and not yet answered (a slowed answer counts until it is sent). */
  inFlight(): number;
  close(): Promise<void>;
}

/** What the server routes to: the workspaces (by token, by team id) and the app's OAuth. */
export interface FakeRouting {
  auth: FakeAuth;
  /** A workspace's context by team id. */
  team(teamId: string): ApiContext | undefined;
  oauth: FakeOAuth;
  /** Today's rate limits, shared by every workspace. */
  limits: FakeRateLimits;
}

/** `Authorization: Basic base64(user:password)`, as oauth.v2.access accepts the client id and secret. */
function basicCredentials(auth: string | undefined): { user: string; password: string } | undefined {
  if (!auth?.startsWith('Basic ')) return undefined;
  const decoded = Buffer.from(auth.slice(6).trim(), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? undefined : { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/**
 * Serves `/api/<method>`, `/response/<id>`, `/upload/v1/<team>/<ticket>` (file bytes), `/oauth/v2/authorize`, `/_fake/state` and the Socket Mode
 * WebSocket (`/link/`) on 127.0.0.1, to programs on this machine only (a
 * foreign Host or Origin is a 403).
 */
export async function startFakeServer(routing: FakeRouting, port: number): Promise<FakeServerHandle> {
  const ctx = routing.auth.fallback;
  const local = { host: '127.0.0.1', port: () => (server.address() as AddressInfo | null)?.port };
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    try {
      const foreign = foreignRequest(req, local);
      if (foreign) throw new ApiError('foreign_request', { detail: foreign }, 403);
      if (url.pathname.startsWith('/api/')) {
        const { args, json } = parseArgs(req, await readBody(req), url.searchParams);
        const auth = req.headers.authorization;
        const bearer = auth?.startsWith('Bearer ') ? auth.slice(7).trim() : undefined;
        const basic = basicCredentials(auth);
        const method = decodeURIComponent(url.pathname.slice('/api/'.length));
        const answer = await handleApiCall(routing.auth, routing.limits, { method, args, json, ...(bearer ? { bearer } : {}), ...(basic ? { basic } : {}) });
        const scopes = ((bearer ? routing.auth.bot(bearer)?.ctx : undefined) ?? ctx).store.state.bot.scopes.join(',');
        send(res, answer, scopes);
        return;
      }
      if (url.pathname.startsWith('/response/') && req.method === 'POST') {
        const teamId = decodeURIComponent(url.pathname.slice('/response/'.length)).split('/')[0] ?? '';
        send(res, await responseUrlPost(routing.team(teamId) ?? ctx, req, url));
        return;
      }
      if (url.pathname.startsWith('/upload/v1/') && req.method === 'POST') {
        const [teamId = '', ticket = ''] = decodeURIComponent(url.pathname.slice('/upload/v1/'.length)).split('/');
        send(res, await receiveUpload(routing.team(teamId), ticket, req));
        return;
      }
      if (url.pathname === '/oauth/v2/authorize' && req.method === 'GET') {
        const answer = routing.oauth.authorize(url.searchParams);
        res.writeHead(answer.status, { 'content-type': 'text/plain; charset=utf-8', ...answer.headers });
        res.end(answer.body);
        return;
      }
      if (url.pathname === '/_fake/state' && req.method === 'GET') {
        const team = url.searchParams.get('team');
        const store = (team ? routing.team(team) : ctx)?.store;
        if (!store) throw new ApiError('team_not_found', {}, 404);
        send(res, { status: 200, headers: {}, body: store.snapshot() as unknown as Record<string, unknown> });
        return;
      }
      send(res, { status: 404, headers: {}, body: 'Not Found' });
    } catch (e) {
      if (e instanceof ApiError) send(res, { status: e.status, headers: e.headers, body: e.body() });
      else {
        ctx.logger.error('slack fake: request failed', { path: url.pathname, error: e });
        send(res, { status: 500, headers: {}, body: 'Internal Server Error' });
      }
    }
  };
  let inFlight = 0;
  const server = createServer((req, res) => {
    inFlight += 1;
    void handle(req, res).finally(() => {
      inFlight -= 1;
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const { port: actual } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${actual}/`;
  ctx.socketMode.attach(server, url, local);
  return {
    server,
    url,
    inFlight: () => inFlight,
    close: async () => {
      await ctx.socketMode.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

async function responseUrlPost(ctx: ApiContext, req: IncomingMessage, url: URL): Promise<ApiAnswer> {
  const { store } = ctx;
  const at = store.clock.now();
  const started = performance.now();
  const id = decodeURIComponent(url.pathname.slice('/response/'.length));
  let args: Args = {};
  let answer: ApiAnswer;
  try {
    const raw = await readBody(req);
    const parsed = parseArgs(req, raw, new URLSearchParams());
    args = typeof parsed.args.payload === 'string' ? (JSON.parse(parsed.args.payload) as Args) : parsed.args;
    const decision = ctx.faults.decide('response_url');
    if (decision.delayMs > 0) await sleep(decision.delayMs);
    const f = decision.failure;
    if (f) throw new ApiError(f.error ?? 'internal_error', {}, f.status ?? 500);
    answer = { status: 200, headers: {}, body: { ok: true, ...postToResponseUrl(store, id, args) } };
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    answer = { status: e.status === 200 ? 400 : e.status, headers: e.headers, body: e.body() };
  }
  store.recordCall({
    method: 'response_url',
    args,
    status: answer.status,
    result: answer.body as Record<string, unknown>,
    at,
    durationMs: performance.now() - started,
  });
  return answer;
}
