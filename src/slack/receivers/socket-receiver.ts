/**
 * Socket Mode with more than one connection, and /healthz on a port of ours.
 *
 * Each connection is one of Bolt's own SocketModeReceivers (its client opens
 * the WebSocket with apps.connections.open, acks envelopes, reconnects); this
 * receiver starts and stops them together. Slack sends each envelope on one
 * open connection of the app, so while one connection is being refreshed
 * (`disconnect` → the client closes it, waits, opens a new one: about 5 s with
 * @slack/socket-mode 3) the others carry everything and nobody's click is lost.
 * Slack allows 10 connections per app, shared by every instance.
 *
 * Bolt's SocketModeReceiver serves custom routes only on `installerOptions.port`
 * (3000 by default), on every interface, without reporting a port in use; here
 * they are served on the port and host `start` is given, like the HTTP receiver.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type App, type Logger as BoltLogger, type Receiver, SocketModeReceiver } from '@slack/bolt';
import type { SlackFetch } from '../web-api/web-clients.js';

export interface SocketRoute {
  path: string;
  method: string[];
  handler: (req: IncomingMessage, res: ServerResponse) => void;
}

export interface SocketReceiverOptions {
  appToken: string;
  /** Connections held open at once (default 2). */
  connections?: number;
  /** Another Web API for apps.connections.open (the local Slack fake). */
  slackApiUrl?: string | undefined;
  logger: BoltLogger;
  /** Served over HTTP on the port `start` is given (GET /healthz). */
  routes: SocketRoute[];
  /** The `fetch` of apps.connections.open (metrics observe it). */
  fetch?: SlackFetch | undefined;
  /** Told how long each envelope took to ack, from its arrival (metrics). */
  onAck?: ((ms: number) => void) | undefined;
}

export const DEFAULT_SOCKET_CONNECTIONS = 2;

/**
 * The app as the connections see it: each envelope's ack is timed from the
 * moment the receiver hands the envelope over (just after it arrived).
 */
function timedAcks(app: App, onAck: (ms: number) => void): App {
  const timed = Object.create(app) as App;
  timed.processEvent = (event) => {
    const arrived = performance.now();
    const ack = event.ack;
    return app.processEvent({
      ...event,
      ack: async (response) => {
        await ack(response);
        onAck(performance.now() - arrived);
      },
    });
  };
  return timed;
}

function serveRoutes(routes: SocketRoute[]): Server {
  return createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    const route = routes.find((r) => r.path === path && r.method.includes(req.method ?? 'GET'));
    if (route) return route.handler(req, res);
    res.writeHead(404);
    res.end();
  });
}

export class SocketModeConnections implements Receiver {
  private readonly receivers: SocketModeReceiver[];
  private server: Server | undefined;

  constructor(private readonly options: SocketReceiverOptions) {
    // Its debug lines hold whole envelopes (task text, emails): never logged.
    const logger: BoltLogger = { ...options.logger, debug: () => undefined };
    this.receivers = Array.from(
      { length: options.connections ?? DEFAULT_SOCKET_CONNECTIONS },
      () =>
        new SocketModeReceiver({
          appToken: options.appToken,
          logger,
          // No retryConfig: the client's own (many quick retries of apps.connections.open) is what keeps it reconnecting.
          installerOptions: {
            clientOptions: {
              timeout: 10_000,
              ...(options.slackApiUrl ? { slackApiUrl: options.slackApiUrl } : {}),
              ...(options.fetch ? { fetch: options.fetch } : {}),
            },
          },
        }),
    );
  }

  init(app: App): void {
    const target = this.options.onAck ? timedAcks(app, this.options.onAck) : app;
    for (const receiver of this.receivers) receiver.init(target);
  }

  /** Listens for the routes, then opens every connection (each resolves on Slack's `hello`). */
  async start(port: number, host: string): Promise<{ port: number }> {
    const server = serveRoutes(this.options.routes);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolve());
    });
    this.server = server;
    try {
      await Promise.all(this.receivers.map((r) => r.start()));
    } catch (error) {
      await this.stop();
      throw error;
    }
    return { port: (server.address() as AddressInfo).port };
  }

  /** Closes every connection with a close handshake (and waits for it), then the routes' server. */
  async stop(): Promise<void> {
    await Promise.all(this.receivers.map((r) => r.client.disconnect()));
    const server = this.server;
    this.server = undefined;
    if (server) {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    }
  }
}
