/**
 * A small care API server for the client's integration tests and bench
 * (node:http on 127.0.0.1). It verifies v2.0 signatures with src/care/signing.ts,
 * refuses replayed nonces, serves canned resources with pagination, creates,
 * updates, completes and reopens actions, can enforce a per-key request rate
 * (fixed one-second window, 429 + X-CareHQ-RateLimit-* headers), and can be
 * told to misbehave for the next requests (`server.fail(...)`). It records
 * every request so tests can look at what went over the wire.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { canonicalPath, signaturesMatch, signV2 } from '../../src/care/signing.js';

export type Item = Record<string, unknown> & { _id: string };

/** What the server should do with the next request (after checking its signature). */
export type Fault =
  | { status: number; body?: string; contentType?: string }
  | { rateLimited: true; resetInMs?: number }
  | { delayMs: number }
  | { drop: true }
  | { noContent: true };

export interface RecordedRequest {
  method: string;
  /** Path without query. */
  path: string;
  params: Record<string, string[]>;
  headers: Record<string, string | string[] | undefined>;
  nonce: string | undefined;
  timestamp: string | undefined;
  signatureOk: boolean;
  /** Server time (ms) when the request arrived. */
  at: number;
  status?: number;
}

export interface CareTestServerOptions {
  credentials?: { accountId: string; apiKey: string; apiSecret: string };
  /** How many canned actions to serve. Default 25. */
  actions?: number;
  /** Requests per second per API key (fixed window); no limit and no rate headers when absent. */
  rateLimit?: number;
  /** Server clock in ms (share a test's virtual clock). Default Date.now. */
  now?: () => number;
  port?: number;
}

export interface CareTestServer {
  /** Base URL ending in /v1. */
  url: string;
  port: number;
  credentials: { accountId: string; apiKey: string; apiSecret: string };
  requests: RecordedRequest[];
  collections: Record<string, Item[]>;
  /** Misbehave for the next requests, one fault per request, in order. */
  fail(...faults: Fault[]): void;
  /** TCP connections accepted so far, and the most requests answered at once. */
  connections(): { opened: number; mostAtOnce: number };
  close(): Promise<void>;
}

const json = (res: ServerResponse, status: number, body: unknown): void => {
  res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
};

const hexId = (prefix: string, n: number): string => prefix + n.toString(16).padStart(24 - prefix.length, '0');
const wireTime = (ms: number): string => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');

export function cannedActions(count: number, now = Date.UTC(2026, 10, 21, 9)): Item[] {
  return Array.from({ length: count }, (_, i) => ({
    _id: hexId('6724fbcb4f73', i + 1),
    action_no: `A${1000 + i}`,
    task: `Task number ${i + 1}`,
    due: wireTime(now + i * 3_600_000),
    created: wireTime(now - 86_400_000),
    modified: wireTime(now - 86_400_000),
    completed: null,
    assigned_to: hexId('6724fbc7', 1 + (i % 3)),
    urgent: i % 5 === 0,
    reminders: [],
    notify_on_complete: [],
    user_tags: [],
  }));
}

function cannedCollections(actions: number): Record<string, Item[]> {
  return {
    actions: cannedActions(actions),
    'notification-groups': [{ _id: hexId('6724aa', 1), name: 'Managers', description: null, email_to: ['m@example.org'], users: [] }],
    locations: [{ _id: hexId('6724bb', 1), name: 'Rose House', street_address: { address_1: '1 Lane', town: 'Leeds' }, lon_lat: [-1.5, 53.8] }],
    'literature-items': [{ _id: hexId('6724cc', 1), name: 'Brochure', archived: false, location: null }],
    users: [{ _id: hexId('6724fbc7', 1), email: 'ann@example.org', first_name: 'Ann', last_name: 'Lee', location_role: 'manager' }],
  };
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function grouped(search: URLSearchParams): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [k, v] of search) (out[k] ??= []).push(v);
  return out;
}

const pick = (item: Item, attributes: string[] | undefined): Item => {
  if (!attributes) return item;
  const out: Item = { _id: item._id };
  for (const a of attributes) if (a in item) out[a] = item[a];
  return out;
};

export async function startCareTestServer(options: CareTestServerOptions = {}): Promise<CareTestServer> {
  const credentials = options.credentials ?? { accountId: 'acc-test', apiKey: 'key-test', apiSecret: 'secret-test-0123456789' };
  const now = options.now ?? Date.now;
  const collections = cannedCollections(options.actions ?? 25);
  const requests: RecordedRequest[] = [];
  const faults: Fault[] = [];
  const seenNonces = new Set<string>();
  const windows = new Map<string, { start: number; count: number }>();
  let created = 0;

  /** Count the request against its key's window; the rate headers to send, and whether it is over. */
  const meter = (key: string): { headers: Record<string, string>; over: boolean } => {
    if (options.rateLimit === undefined) return { headers: {}, over: false };
    const t = now();
    let w = windows.get(key);
    if (!w || t >= w.start + 1_000) windows.set(key, (w = { start: t, count: 0 }));
    const over = w.count >= options.rateLimit;
    if (!over) w.count += 1;
    const headers = {
      'X-CareHQ-RateLimit-Limit': String(options.rateLimit),
      'X-CareHQ-RateLimit-Remaining': String(options.rateLimit - w.count),
      'X-CareHQ-RateLimit-Reset': ((w.start + 1_000) / 1_000).toFixed(3),
    };
    return { headers, over };
  };

  const route = (method: string, segments: string[], params: Record<string, string[]>): { status: number; body?: unknown } => {
    const [name, id, verb] = segments;
    const items = name === undefined ? undefined : collections[name];
    if (!items) return { status: 404, body: { hint: 'No such resource' } };
    const one = (k: string) => params[k]?.[0];
    const attributes = params.attributes;
    if (id === undefined) {
      if (method === 'GET') {
        const perPage = Number(one('per_page') ?? 10);
        if (!(perPage >= 1 && perPage <= 100)) return { status: 400, body: { hint: 'Invalid per_page', arg_errors: { per_page: ['1 to 100'] } } };
        const ids = params['filters-ids'];
        const completed = one('filters-completed');
        const matching = items.filter(
          (a) => (!ids || ids.includes(a._id)) && (completed === undefined || completed === 'unset' || (completed === 'yes') === (a.completed != null)),
        );
        const page = Number(one('page') ?? 1);
        const slice = matching.slice((page - 1) * perPage, page * perPage).map((a) => pick(a, attributes ?? ['_id']));
        return { status: 200, body: { items: slice, page, page_count: Math.ceil(matching.length / perPage), per_page: perPage, item_count: slice.length } };
      }
      if (method === 'PUT' && name === 'actions') {
        const missing = ['due', 'task'].filter((k) => !one(k));
        if (missing.length)
          return { status: 400, body: { hint: 'Invalid arguments', arg_errors: Object.fromEntries(missing.map((k) => [k, ['This field is required.']])) } };
        const action: Item = { ...cannedActions(1)[0], _id: hexId('6999', ++created), due: one('due'), task: one('task'), urgent: 'urgent' in params };
        items.push(action);
        return { status: 200, body: action };
      }
      return { status: 405, body: { hint: 'Method not allowed' } };
    }
    const item = items.find((a) => a._id === id);
    if (!item) return { status: 404, body: { hint: `No ${name} with that Id` } };
    if (method === 'GET' && verb === undefined) return { status: 200, body: pick(item, attributes) };
    if (method === 'PATCH' && name === 'actions') {
      if (verb === 'complete') item.completed = wireTime(now());
      else if (verb === 'reopen') item.completed = null;
      else if (verb === undefined) Object.assign(item, { due: one('due'), task: one('task'), urgent: 'urgent' in params });
      else return { status: 404, body: { hint: 'Not found' } };
      return { status: 200, body: item };
    }
    return { status: 405, body: { hint: 'Method not allowed' } };
  };

  let opened = 0;
  let atOnce = 0;
  let mostAtOnce = 0;
  const server = createServer((req, res) => {
    atOnce++;
    mostAtOnce = Math.max(mostAtOnce, atOnce);
    res.once('close', () => atOnce--);
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const method = req.method ?? 'GET';
      const raw = method === 'GET' ? url.search.slice(1) : await readBody(req);
      const params = grouped(new URLSearchParams(raw));
      const h = (name: string) => req.headers[name] as string | undefined;
      const nonce = h('x-carehq-nonce');
      const timestamp = h('x-carehq-timestamp');
      const expected = signV2({ secret: credentials.apiSecret, timestamp: timestamp ?? '', nonce: nonce ?? '', method, path: url.pathname, params });
      const signatureOk =
        h('x-carehq-accountid') === credentials.accountId &&
        h('x-carehq-apikey') === credentials.apiKey &&
        h('x-carehq-signature-version') === '2.0' &&
        signaturesMatch(expected, h('x-carehq-signature') ?? '');
      const record: RecordedRequest = { method, path: url.pathname, params, headers: req.headers, nonce, timestamp, signatureOk, at: now() };
      requests.push(record);
      const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
        record.status = status;
        for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
        json(res, status, body);
      };
      const skewOk = Math.abs(Number(timestamp) - now() / 1_000) < 300;
      if (!signatureOk || !nonce || seenNonces.has(nonce) || !skewOk) return send(401, { hint: 'Invalid signature, nonce or timestamp' });
      seenNonces.add(nonce);
      const rate = meter(credentials.apiKey);
      if (rate.over) return send(429, { hint: 'Rate limit exceeded' }, rate.headers);
      const fault = faults.shift();
      if (fault && 'drop' in fault) return req.socket.destroy();
      if (fault && 'noContent' in fault) {
        record.status = 204;
        res.writeHead(204, rate.headers).end();
        return;
      }
      if (fault && 'rateLimited' in fault) {
        const headers =
          fault.resetInMs === undefined
            ? {}
            : { ...rate.headers, 'X-CareHQ-RateLimit-Remaining': '0', 'X-CareHQ-RateLimit-Reset': ((now() + fault.resetInMs) / 1_000).toFixed(3) };
        return send(429, { hint: 'Rate limit exceeded' }, headers);
      }
      if (fault && 'status' in fault) {
        record.status = fault.status;
        return void res.writeHead(fault.status, { ...rate.headers, 'Content-Type': fault.contentType ?? 'application/json' }).end(fault.body ?? '');
      }
      if (fault && 'delayMs' in fault) await new Promise((r) => setTimeout(r, fault.delayMs));
      const segments = canonicalPath(url.pathname).split('/').slice(2);
      const result = route(method, segments, params);
      if (!res.destroyed) send(result.status, result.body, rate.headers);
    })().catch((error: unknown) => {
      if (!res.headersSent) json(res, 500, { hint: String(error) });
    });
  });

  server.on('connection', () => opened++);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    port,
    credentials,
    requests,
    collections,
    fail: (...more) => void faults.push(...more),
    connections: () => ({ opened, mostAtOnce }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
