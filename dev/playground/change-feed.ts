/**
 * Server-Sent Events for the page: one "change" event per burst of backend
 * changes (debounced), plus a comment line now and then so proxies keep the
 * stream open.
 */
import type { ServerResponse } from 'node:http';

export interface ChangeFeed {
  /** Take over `res` as an event stream until the client leaves or the feed closes. */
  attach(res: ServerResponse): void;
  /** Something changed: schedule a "change" event. */
  notify(): void;
  readonly clientCount: number;
  close(): void;
}

export interface ChangeFeedOptions {
  debounceMs?: number;
  heartbeatMs?: number;
}

export function createChangeFeed(options: ChangeFeedOptions = {}): ChangeFeed {
  const debounceMs = options.debounceMs ?? 50;
  const clients = new Set<ServerResponse>();
  let seq = 0;
  let pending: NodeJS.Timeout | undefined;
  const heartbeat = setInterval(() => {
    for (const res of clients) res.write(': ping\n\n');
  }, options.heartbeatMs ?? 25_000);
  heartbeat.unref();

  const flush = () => {
    pending = undefined;
    seq += 1;
    const frame = `event: change\ndata: ${JSON.stringify({ seq })}\n\n`;
    for (const res of clients) res.write(frame);
  };

  return {
    attach(res) {
      res.writeHead(200, {
        'Content-Type': 'text/event-stream; charset=utf-8',
        'Cache-Control': 'no-cache, no-transform',
        Connection: 'keep-alive',
        'X-Accel-Buffering': 'no',
      });
      res.write(`retry: 2000\n: connected\n\n`);
      clients.add(res);
      res.on('close', () => clients.delete(res));
    },
    notify() {
      if (pending === undefined) pending = setTimeout(flush, debounceMs);
    },
    get clientCount() {
      return clients.size;
    },
    close() {
      clearInterval(heartbeat);
      if (pending !== undefined) clearTimeout(pending);
      pending = undefined;
      for (const res of clients) res.end();
      clients.clear();
    },
  };
}
