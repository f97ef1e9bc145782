import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createCareClient,
  ForbiddenError,
  InvalidRequestError,
  MethodNotAllowedError,
  NetworkError,
  NotFoundError,
  RateLimitError,
  ServerError,
  TimeoutError,
  UnauthorizedError,
  type CareClientOptions,
} from '../../src/care/index.js';
import { startCareTestServer, type CareTestServer } from '../helpers/care-test-server.js';
import { createVirtualClock, type VirtualClock } from './virtual-clock.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

/** A server and a client sharing one virtual clock: waits cost no real time. */
async function setup(serverOptions: { rateLimit?: number } = {}, clientOptions: Partial<CareClientOptions> = {}) {
  const clock: VirtualClock = createVirtualClock(Date.now());
  const server = await startCareTestServer({ now: clock.now, ...serverOptions });
  const client = createCareClient({ baseUrl: server.url, ...server.credentials, clock, random: () => 0.5, ...clientOptions });
  cleanups.push(
    () => server.close(),
    () => client.close(),
  );
  return { clock, server, client, id: server.collections.actions![0]!._id };
}

const due = new Date('2026-12-01T09:00:00Z');

describe('429: waiting for the reset', () => {
  it('waits until the Reset time, then retries re-signed with a new nonce and succeeds', async () => {
    const { server, client } = await setup();
    server.fail({ rateLimited: true, resetInMs: 1_500 });
    await expect(client.actions.list()).resolves.toMatchObject({ page: 1 });
    const [first, second] = server.requests;
    expect(first!.status).toBe(429);
    expect(second!.status).toBe(200);
    expect(second!.signatureOk).toBe(true);
    expect(second!.nonce).not.toBe(first!.nonce);
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(1_500);
    expect(Number(second!.timestamp)).toBeGreaterThan(Number(first!.timestamp));
    expect(client.stats()).toEqual({ requests: 2, retries: 1, rateLimited: 1, failures: 0 });
  });

  it('retries a create after a 429: the server refused it, nothing was created', async () => {
    const { server, client } = await setup();
    server.fail({ rateLimited: true, resetInMs: 200 });
    await expect(client.actions.create({ due, task: 'x' })).resolves.toMatchObject({ task: 'x' });
    expect(server.requests.map((r) => r.status)).toEqual([429, 200]);
  });

  it('backs off with jitter when a 429 comes without rate-limit headers, and gives up after maxRetries', async () => {
    const { server, client, clock } = await setup({}, { maxRetries: 2, retryBackoff: { baseMs: 400, maxMs: 10_000 } });
    server.fail({ rateLimited: true }, { rateLimited: true }, { rateLimited: true });
    const error = await client.actions.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(server.requests).toHaveLength(3);
    expect(clock.sleeps.filter((ms) => ms === 300 || ms === 600)).toEqual([300, 600]);
    expect(client.stats()).toEqual({ requests: 3, retries: 2, rateLimited: 3, failures: 1 });
  });

  it('paces itself by the server: Remaining=0 holds the next call until Reset, without a 429', async () => {
    const { server, client } = await setup({ rateLimit: 3 }, { rateLimitPerSecond: 50 });
    for (let i = 0; i < 7; i++) await client.actions.list();
    expect(server.requests.map((r) => r.status)).toEqual(Array(7).fill(200));
    const gaps = server.requests.slice(1).map((r, i) => r.at - server.requests[i]!.at);
    expect(gaps.filter((g) => g >= 980)).toHaveLength(2);
    expect(client.stats().rateLimited).toBe(0);
  });
});

describe('retrying failures', () => {
  it('retries a GET after 502/503/504 with fresh signatures', async () => {
    const { server, client } = await setup();
    server.fail({ status: 502 }, { status: 503, body: 'Service Unavailable', contentType: 'text/plain' }, { status: 504 });
    await expect(client.actions.list()).resolves.toMatchObject({ page: 1 });
    expect(server.requests.map((r) => r.status)).toEqual([502, 503, 504, 200]);
    expect(new Set(server.requests.map((r) => r.nonce)).size).toBe(4);
    expect(server.requests.every((r) => r.signatureOk)).toBe(true);
  });

  it('retries a GET after a 500, but not a complete or a create', async () => {
    const { server, client, id } = await setup();
    server.fail({ status: 500, body: 'boom', contentType: 'text/plain' });
    await expect(client.actions.list()).resolves.toMatchObject({ page: 1 });
    expect(server.requests.map((r) => r.status)).toEqual([500, 200]);
    server.fail({ status: 500 });
    await expect(client.actions.complete(id)).rejects.toBeInstanceOf(ServerError);
    server.fail({ status: 500 });
    await expect(client.actions.create({ due, task: 'x' })).rejects.toBeInstanceOf(ServerError);
    expect(server.requests.map((r) => `${r.method} ${r.status}`)).toEqual(['GET 500', 'GET 200', 'PATCH 500', 'PUT 500']);
  });

  it('does not retry a create after a 503: the action may exist', async () => {
    const { server, client } = await setup();
    server.fail({ status: 503 });
    await expect(client.actions.create({ due, task: 'x' })).rejects.toBeInstanceOf(ServerError);
    expect(server.requests).toHaveLength(1);
  });

  it('retries complete, reopen and update after a 503 (idempotent PATCHes)', async () => {
    const { server, client, id } = await setup();
    server.fail({ status: 503 });
    await client.actions.complete(id);
    server.fail({ status: 503 });
    await client.actions.reopen(id);
    server.fail({ status: 503 });
    await client.actions.update(id, { due, task: 'y' });
    expect(server.requests.map((r) => r.status)).toEqual([503, 200, 503, 200, 503, 200]);
  });

  it('retries a GET over a dropped connection, but not a create', async () => {
    const { server, client } = await setup();
    server.fail({ drop: true });
    await expect(client.actions.list()).resolves.toMatchObject({ page: 1 });
    server.fail({ drop: true });
    const error = await client.actions.create({ due, task: 'x' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(server.requests.filter((r) => r.method === 'PUT')).toHaveLength(1);
  });

  it('times out a slow answer: a GET is retried, a create is not', async () => {
    const { server, client } = await setup({}, { timeoutMs: 700 });
    server.fail({ delayMs: 2_500 });
    await expect(client.actions.list()).resolves.toMatchObject({ page: 1 });
    expect(client.stats().retries).toBe(1);
    server.fail({ delayMs: 2_500 });
    const error = await client.actions.create({ due, task: 'x' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ method: 'PUT', path: '/v1/actions', timeoutMs: 700 });
  });

  it('retries a create whose connection was refused, once the server is there', async () => {
    const port = await freePort();
    const clock = createVirtualClock(Date.now());
    let server: CareTestServer | undefined;
    // The server comes up while the client backs off after the refusal.
    const startOnFirstSleep = {
      now: clock.now,
      sleep: async (ms: number) => {
        server ??= await startCareTestServer({ port, now: clock.now });
        await clock.sleep(ms);
      },
    };
    const credentials = { accountId: 'acc-test', apiKey: 'key-test', apiSecret: 'secret-test-0123456789' };
    const client = createCareClient({ baseUrl: `http://127.0.0.1:${port}`, ...credentials, clock: startOnFirstSleep });
    cleanups.push(
      async () => server?.close(),
      () => client.close(),
    );
    await expect(client.actions.create({ due, task: 'after refusal' })).resolves.toMatchObject({ task: 'after refusal' });
    expect(client.stats()).toMatchObject({ requests: 2, retries: 1 });
    expect(server!.requests).toHaveLength(1);
  });

  it('never retries 400, 401, 403, 404 or 405', async () => {
    const { server, client } = await setup();
    const cases = [
      [400, InvalidRequestError],
      [401, UnauthorizedError],
      [403, ForbiddenError],
      [404, NotFoundError],
      [405, MethodNotAllowedError],
    ] as const;
    for (const [status, type] of cases) {
      server.fail({ status, body: JSON.stringify({ hint: `nope ${status}` }) });
      const error = await client.actions.list().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(type);
      expect(error).toMatchObject({ status, hint: `nope ${status}` });
    }
    expect(server.requests).toHaveLength(5);
    expect(client.stats()).toEqual({ requests: 5, retries: 0, rateLimited: 0, failures: 5 });
  });

  it('gives up after maxRetries with the last error', async () => {
    const { server, client } = await setup({}, { maxRetries: 3 });
    server.fail({ status: 503 }, { status: 503 }, { status: 503 }, { status: 503 }, { status: 503 });
    await expect(client.actions.list()).rejects.toBeInstanceOf(ServerError);
    expect(server.requests).toHaveLength(4);
  });
});

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}
