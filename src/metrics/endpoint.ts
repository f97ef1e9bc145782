import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';

export type MetricsHandler = (req: IncomingMessage, res: ServerResponse) => void;

const digest = (s: string) => createHash('sha256').update(s).digest();

/**
 * GET /metrics in Prometheus text format. With a token, only a request with
 * `Authorization: Bearer <token>` is answered (compared in constant time);
 * anything else gets 401.
 */
export function metricsHandler(registry: Registry, token?: string): MetricsHandler {
  const expected = token ? digest(token) : undefined;
  return (req, res) => {
    if (expected) {
      const given = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1] ?? '';
      if (!timingSafeEqual(digest(given), expected)) {
        res.writeHead(401, { 'content-type': 'text/plain; charset=utf-8', 'www-authenticate': 'Bearer realm="metrics"' });
        res.end('A bearer token is required (METRICS_TOKEN).\n');
        return;
      }
    }
    registry.metrics().then(
      (text) => {
        res.writeHead(200, { 'content-type': registry.contentType, 'cache-control': 'no-store' });
        res.end(text);
      },
      () => {
        res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
        res.end('metrics could not be collected\n');
      },
    );
  };
}

export interface MetricsServer {
  port: number;
  close(): Promise<void>;
}

/** /metrics on a port of its own (METRICS_PORT); everything else there is 404. */
export async function serveMetrics(handler: MetricsHandler, port: number, host: string): Promise<MetricsServer> {
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (path === '/metrics' && req.method === 'GET') return handler(req, res);
    res.writeHead(404);
    res.end();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
