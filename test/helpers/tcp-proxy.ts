/**
 * A TCP proxy on a loopback port in front of another server (a test's
 * PostgreSQL): stopping it makes that server unreachable for whoever connects
 * through it (open connections are cut, new ones refused), without touching
 * the server itself, which other tests and people share.
 */
import { createServer, type Socket, connect } from 'node:net';

export interface TcpProxy {
  port: number;
  /** Cut every connection and stop listening: the target is now unreachable through this port. */
  stop(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  const track = (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('error', () => s.destroy());
  };
  const server = createServer((client) => {
    const upstream = connect(target.port, target.host);
    track(client);
    track(upstream);
    client.pipe(upstream);
    upstream.pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  let stopped: Promise<void> | undefined;
  return {
    port,
    stop: () =>
      (stopped ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      })),
  };
}
