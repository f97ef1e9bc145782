/**
 * The playground page server (node:http only): the static page, the state as
 * JSON, a change stream (SSE) and one JSON endpoint per backend act. Bad
 * input gets a 400 with a clear message; a failing backend a 500; the server
 * itself keeps running either way.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { foreignRequest, mediaType } from '../local-http/local-only.js';
import type { Logger } from '../../src/logging/logger.js';
import { PlaygroundInputError, type PlaygroundBackend } from './backend.js';
import { isRoute, parseRequest } from './api-routes.js';
import { createChangeFeed } from './change-feed.js';
import { loadStaticFile } from './static-files.js';

export interface PlaygroundOptions {
  /** 0 picks a free port. */
  port: number;
  host?: string;
  backend: PlaygroundBackend;
  logger: Logger;
  /** Quiet time before a "change" event is sent (default 50 ms). */
  debounceMs?: number;
  /** Largest accepted request body (default 1 MiB). */
  maxBodyBytes?: number;
}

export interface PlaygroundServer {
  url: string;
  close(): Promise<void>;
}

const PAGE_HEADERS = {
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: http://127.0.0.1:* http://localhost:*; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-cache',
};

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export async function startPlayground(options: PlaygroundOptions): Promise<PlaygroundServer> {
  const { backend, logger } = options;
  const host = options.host ?? '127.0.0.1';
  const maxBody = options.maxBodyBytes ?? 1024 * 1024;
  const feed = createChangeFeed({ debounceMs: options.debounceMs ?? 50 });
  const unsubscribe = backend.subscribe(() => feed.notify());
  const local = { host, port: () => (server.address() as AddressInfo | null)?.port };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://playground.invalid');
    const foreign = foreignRequest(req, local);
    if (foreign) throw new HttpError(403, foreign);
    const pathname = url.pathname;
    if (pathname.startsWith('/api/')) return handleApi(req, res, pathname.slice('/api/'.length));
    if (req.method !== 'GET' && req.method !== 'HEAD') throw new HttpError(405, `${req.method} is not allowed here.`);
    const file = await loadStaticFile(pathname);
    if (!file) throw new HttpError(404, `Nothing at ${pathname}.`);
    res.writeHead(200, { 'Content-Type': file.contentType, 'Content-Length': file.body.length, ...PAGE_HEADERS });
    res.end(req.method === 'HEAD' ? undefined : file.body);
  };

  const handleApi = async (req: IncomingMessage, res: ServerResponse, route: string) => {
    if (req.method === 'GET' && route === 'state') return sendJson(res, 200, await backend.snapshot());
    if (req.method === 'GET' && route === 'events') return feed.attach(res);
    if (req.method === 'GET' && route === 'simulate/actions') return sendJson(res, 200, { actions: await backend.simulate.listSimulatableActions() });
    if (!isRoute(route)) throw new HttpError(404, `No API endpoint /api/${route}.`);
    if (req.method !== 'POST') throw new HttpError(405, `Use POST for /api/${route}.`);
    if (mediaType(req) !== 'application/json') throw new HttpError(415, 'Send the request body as application/json.');
    const body = await readJson(req, maxBody);
    const parsed = parseRequest(route, body);
    if (!parsed.ok) throw new HttpError(400, parsed.error);
    sendJson(res, 200, await parsed.run(backend));
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      const [status, message] =
        err instanceof HttpError
          ? [err.status, err.message]
          : err instanceof PlaygroundInputError
            ? [400, err.message]
            : [500, `The backend failed: ${err instanceof Error ? err.message : String(err)}`.slice(0, 300)];
      if (status === 500) logger.error('playground request failed', { path: (req.url ?? '').split('?')[0], error: err });
      else logger.debug('playground request refused', { path: (req.url ?? '').split('?')[0], status });
      if (res.headersSent) return void res.end();
      sendJson(res, status, { error: message });
    });
  });
  server.on('clientError', (_err, socket) => socket.destroy());

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}/`;
  logger.info('playground listening', { url });

  let closed: Promise<void> | undefined;
  return {
    url,
    close() {
      closed ??= new Promise<void>((resolve) => {
        unsubscribe();
        feed.close();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closed;
    },
  };
}

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  const body = JSON.stringify(value ?? null);
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' });
  res.end(body);
}

function readJson(req: IncomingMessage, limit: number): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) return void chunks.push(chunk);
      // Too big: stop keeping it, let the rest drain (no reset), answer 413.
      req.off('data', onData);
      req.resume();
      reject(new HttpError(413, `The request body is larger than ${limit} bytes.`));
    };
    req.on('data', onData);
    req.on('error', reject);
    req.on('end', () => {
      if (size > limit) return;
      const text = Buffer.concat(chunks).toString('utf8');
      if (!text.trim()) return resolve({});
      try {
        resolve(JSON.parse(text));
      } catch {
        reject(new HttpError(400, 'The request body is not valid JSON.'));
      }
    });
  });
}
