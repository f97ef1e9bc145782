import { randomBytes, randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { type RawData, WebSocket, WebSocketServer } from 'ws';
import { foreignRequest, type LocalAddress } from '../../local-http/local-only.js';
import type { Logger } from '../../../src/logging/logger.js';
import type { Clock } from '../clock.js';
import { type DisconnectReason, disconnectMessage, type EnvelopeRetry, type EnvelopeType, envelope, helloMessage, parseAck } from './messages.js';

type Obj = Record<string, unknown>;

/** Where the app's WebSocket connects (the path of the URL apps.connections.open hands out). */
export const SOCKET_PATH = '/link/';
/** Slack lets an app hold this many connections at once. */
export const MAX_CONNECTIONS = 10;

export interface SocketModeOptions {
  appId: string;
  clock: Clock;
  logger: Logger;
  /** How often the fake pings each connection, as Slack does (the client gives up after 30 s without one). Default 10 s. */
  pingIntervalMs?: number;
  /** After a `disconnect` message, how long the app has to close the connection before the fake closes it. Default 10 s. */
  disconnectGraceMs?: number;
  /** How long a URL from apps.connections.open may wait before it is used (once). Default 30 s. */
  ticketLifetimeMs?: number;
}

/** One WebSocket connection the app opened, as the fake saw it. */
export interface SocketConnectionInfo {
  id: string;
  /** Fake clock, ms. */
  openedAt: number;
  /** `draining`: told to go (`disconnect`), given no new envelopes. */
  state: 'open' | 'draining' | 'closed';
  /** Envelopes sent on it. */
  envelopes: number;
  /** Envelopes sent on it and not yet acked (nor timed out). */
  inFlight: number;
  disconnectReason?: DisconnectReason | 'too_many_websockets';
  closedAt?: number;
  /** 1000: closed cleanly by a close handshake; 1006: dropped without one. */
  closeCode?: number;
  /** Who started the close: the app (its client), or Slack (the fake: a drop, the grace running out). */
  closedBy?: 'app' | 'slack';
}

/** One envelope the fake sent (or could not send), for tests. */
export interface EnvelopeRecord {
  envelopeId?: string;
  type: EnvelopeType;
  /** The payload's own type: block_actions, view_submission, event_callback; or the command. */
  name: string;
  connection?: string;
  retryAttempt?: number;
  acked: boolean;
  failure?: 'timeout' | 'network_error';
}

/** The app's answer to one envelope. `payload` is what an HTTP ack body would be. */
export interface SocketAnswer {
  acked: boolean;
  payload?: Obj;
  latencyMs: number;
  /** `network_error`: no connection to send it on within the ack timeout, or the connection closed before the ack. */
  failure?: 'timeout' | 'network_error';
  connection?: string;
}

type Settled = { kind: 'acked'; payload: Obj } | { kind: 'closed' };

interface Pending {
  resolve(settled: Settled): void;
  done: Promise<Settled>;
}

interface Connection {
  info: SocketConnectionInfo;
  ws: WebSocket;
  pending: Map<string, Pending>;
  timers: NodeJS.Timeout[];
  closingBySlack: boolean;
}

function refuse(socket: Duplex, status: number, reason: string): void {
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Type: text/plain\r\nContent-Length: ${reason.length}\r\n\r\n${reason}`);
}

function payloadName(type: EnvelopeType, payload: Obj): string {
  if (type === 'slash_commands') return String(payload.command ?? '');
  if (type === 'events_api') return String((payload.event as Obj | undefined)?.type ?? payload.type ?? '');
  return String(payload.type ?? '');
}

/**
 * Slack's Socket Mode side: hands out single-use WebSocket URLs (through
 * apps.connections.open), greets each connection with `hello`, pings it, sends
 * envelopes to one open connection at a time (round robin) and waits for the
 * app's ack, asks connections to go (`disconnect`) or drops them.
 */
export class FakeSocketMode {
  private readonly wss = new WebSocketServer({ noServer: true });
  private readonly tickets = new Map<string, number>();
  private readonly conns: Connection[] = [];
  private readonly log: EnvelopeRecord[] = [];
  private readonly usable = new EventEmitter();
  private seq = 0;
  private turn = 0;
  private baseUrl = '';

  constructor(private readonly options: SocketModeOptions) {
    this.usable.setMaxListeners(0);
  }

  /** Serves the WebSocket upgrades of `server` (the fake's own HTTP server). */
  attach(server: Server, baseUrl: string, local: LocalAddress): void {
    this.baseUrl = baseUrl;
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => this.upgrade(req, socket, head, local));
  }

  /** A fresh single-use URL, as apps.connections.open answers. */
  openUrl(): string {
    const ticket = randomBytes(16).toString('hex');
    this.tickets.set(ticket, performance.now() + (this.options.ticketLifetimeMs ?? 30_000));
    const url = new URL(SOCKET_PATH, this.baseUrl.replace(/^http/, 'ws'));
    url.search = new URLSearchParams({ ticket, app_id: this.options.appId }).toString();
    return url.toString();
  }

  connections(): SocketConnectionInfo[] {
    return this.conns.map((c) => this.infoOf(c));
  }

  /** Connections that get envelopes now (open, greeted, not told to go). */
  openConnections(): SocketConnectionInfo[] {
    return this.conns.filter((c) => this.isUsable(c)).map((c) => this.infoOf(c));
  }

  envelopes(): EnvelopeRecord[] {
    return structuredClone(this.log);
  }

  /**
   * Sends one envelope on an open connection and waits for its ack, all
   * within `timeoutMs` of now (Slack's 3 s). With no open connection, it waits
   * for one (a reconnecting app) until that same deadline.
   */
  async dispatch(type: EnvelopeType, payload: Obj, options: { timeoutMs: number; retry?: EnvelopeRetry }): Promise<SocketAnswer> {
    const started = performance.now();
    const deadline = started + options.timeoutMs;
    const record: EnvelopeRecord = { type, name: payloadName(type, payload), acked: false, ...(options.retry ? { retryAttempt: options.retry.attempt } : {}) };
    this.log.push(record);
    const conn = await this.nextConnection(deadline);
    if (!conn) {
      record.failure = 'network_error';
      return { acked: false, failure: 'network_error', latencyMs: performance.now() - started };
    }
    const envelopeId = randomUUID();
    record.envelopeId = envelopeId;
    record.connection = conn.info.id;
    let resolve!: (s: Settled) => void;
    const done = new Promise<Settled>((r) => {
      resolve = r;
    });
    conn.pending.set(envelopeId, { resolve, done });
    conn.info.envelopes += 1;
    conn.ws.send(JSON.stringify(envelope(envelopeId, type, payload, options.retry)));
    let timedOut = false;
    const timer = setTimeout(
      () => {
        timedOut = true;
        resolve({ kind: 'closed' });
      },
      Math.max(0, deadline - performance.now()),
    );
    const settled = await done;
    clearTimeout(timer);
    conn.pending.delete(envelopeId);
    const latencyMs = performance.now() - started;
    if (settled.kind === 'acked') {
      record.acked = true;
      return { acked: true, payload: settled.payload, latencyMs, connection: conn.info.id };
    }
    const failure = timedOut ? 'timeout' : 'network_error';
    record.failure = failure;
    return { acked: false, failure, latencyMs, connection: conn.info.id };
  }

  /**
   * Asks connections to go, like Slack: they get no new envelopes, those in
   * flight are acked (or time out) first, then the `disconnect` message; a
   * connection the app has not closed within the grace period is closed by the fake.
   */
  async disconnect(reason: DisconnectReason, options: { connection?: string } = {}): Promise<void> {
    const targets = this.targets(options.connection).filter((c) => c.info.state === 'open');
    await Promise.all(
      targets.map(async (c) => {
        c.info.state = 'draining';
        c.info.disconnectReason = reason;
        await Promise.all([...c.pending.values()].map((p) => p.done));
        if (c.ws.readyState !== WebSocket.OPEN) return;
        c.ws.send(JSON.stringify(disconnectMessage(reason)));
        const grace = setTimeout(() => this.closeBySlack(c, 1001), this.options.disconnectGraceMs ?? 10_000);
        grace.unref();
        c.timers.push(grace);
      }),
    );
  }

  /** Drops connections without a close handshake (a network failure, a Slack host going away). */
  drop(options: { connection?: string } = {}): void {
    for (const c of this.targets(options.connection)) {
      if (c.info.state === 'closed') continue;
      c.closingBySlack = true;
      c.ws.terminate();
    }
  }

  async close(): Promise<void> {
    this.drop();
    this.tickets.clear();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }

  private targets(id: string | undefined): Connection[] {
    if (id === undefined) return [...this.conns];
    const found = this.conns.find((c) => c.info.id === id);
    if (!found) throw new Error(`Slack fake: no socket connection ${id}`);
    return [found];
  }

  private infoOf(c: Connection): SocketConnectionInfo {
    return { ...structuredClone(c.info), inFlight: c.pending.size };
  }

  private isUsable(c: Connection): boolean {
    return c.info.state === 'open' && c.ws.readyState === WebSocket.OPEN;
  }

  private async nextConnection(deadline: number): Promise<Connection | undefined> {
    for (;;) {
      const open = this.conns.filter((c) => this.isUsable(c));
      if (open.length > 0) {
        this.turn = (this.turn + 1) % open.length;
        return open[this.turn];
      }
      const left = deadline - performance.now();
      if (left <= 0) return undefined;
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          this.usable.off('usable', done);
          resolve();
        };
        const timer = setTimeout(done, left);
        this.usable.on('usable', done);
      });
    }
  }

  private upgrade(req: IncomingMessage, socket: Duplex, head: Buffer, local: LocalAddress): void {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const ticket = url.searchParams.get('ticket') ?? '';
    const expires = this.tickets.get(ticket);
    this.tickets.delete(ticket);
    if (url.pathname !== SOCKET_PATH) refuse(socket, 404, 'Not Found');
    else if (foreignRequest(req, local)) refuse(socket, 403, 'Forbidden');
    else if (expires === undefined || expires < performance.now()) refuse(socket, 401, 'Unauthorized');
    else this.wss.handleUpgrade(req, socket, head, (ws) => this.accept(ws));
  }

  private accept(ws: WebSocket): void {
    this.seq += 1;
    const c: Connection = {
      info: { id: `conn-${this.seq}`, openedAt: this.options.clock.now(), state: 'open', envelopes: 0, inFlight: 0 },
      ws,
      pending: new Map(),
      timers: [],
      closingBySlack: false,
    };
    this.conns.push(c);
    ws.on('message', (data: RawData, isBinary: boolean) => this.onMessage(c, data, isBinary));
    ws.on('close', (code: number) => this.onClose(c, code));
    ws.on('error', (error) => this.options.logger.debug('slack fake: socket error', { connection: c.info.id, error: error.message }));
    const open = this.conns.filter((x) => x.info.state !== 'closed').length;
    if (open > MAX_CONNECTIONS) {
      c.info.state = 'draining';
      c.info.disconnectReason = 'too_many_websockets';
      ws.send(JSON.stringify({ type: 'disconnect', reason: 'too_many_websockets', debug_info: { host: 'applink-fake-1' } }));
      this.closeBySlack(c, 1008);
      return;
    }
    ws.send(JSON.stringify(helloMessage(this.options.appId, open)));
    const ping = setInterval(() => {
      if (ws.readyState === WebSocket.OPEN) ws.ping();
    }, this.options.pingIntervalMs ?? 10_000);
    ping.unref();
    c.timers.push(ping);
    this.options.logger.debug('slack fake: socket connection opened', { connection: c.info.id });
    this.usable.emit('usable');
  }

  private onMessage(c: Connection, data: RawData, isBinary: boolean): void {
    if (isBinary) return;
    const ack = parseAck(data.toString());
    if (!ack) return;
    const pending = c.pending.get(ack.envelopeId);
    if (!pending) {
      this.options.logger.debug('slack fake: ack for no envelope in flight (late or unknown)', { connection: c.info.id });
      return;
    }
    pending.resolve({ kind: 'acked', payload: ack.payload });
  }

  private onClose(c: Connection, code: number): void {
    c.info.state = 'closed';
    c.info.closedAt = this.options.clock.now();
    c.info.closeCode = code;
    c.info.closedBy = c.closingBySlack ? 'slack' : 'app';
    for (const t of c.timers) clearTimeout(t);
    for (const p of c.pending.values()) p.resolve({ kind: 'closed' });
    this.options.logger.debug('slack fake: socket connection closed', { connection: c.info.id, code, by: c.info.closedBy });
  }

  private closeBySlack(c: Connection, code: number): void {
    if (c.info.state === 'closed' || c.ws.readyState !== WebSocket.OPEN) return;
    c.closingBySlack = true;
    c.ws.close(code);
  }
}
