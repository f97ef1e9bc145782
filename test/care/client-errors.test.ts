import { afterEach, describe, expect, it } from 'vitest';
import { CareApiError, createCareClient, NetworkError, NotFoundError, ServerError, UnauthorizedError, type CareLogger } from '../../src/care/index.js';
import { memoryLogger } from '../../src/logging/logger.js';
import { startCareTestServer } from '../helpers/care-test-server.js';
import { createVirtualClock } from './virtual-clock.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function setup(logger?: CareLogger, secret?: string, timeoutMs = 10_000) {
  const clock = createVirtualClock(Date.now());
  const server = await startCareTestServer({ now: clock.now });
  const client = createCareClient({ baseUrl: server.url, ...server.credentials, apiSecret: secret ?? server.credentials.apiSecret, clock, logger, timeoutMs });
  cleanups.push(
    () => server.close(),
    () => client.close(),
  );
  return { server, client };
}

const due = new Date('2026-12-01T09:00:00Z');

describe('errors', () => {
  it('survives non-JSON error bodies', async () => {
    const { server, client } = await setup();
    server.fail({ status: 404, body: '<html><h1>Not Found</h1></html>', contentType: 'text/html' }, { status: 500, body: 'boom', contentType: 'text/plain' });
    const notFound = await client.actions.list().catch((e: unknown) => e);
    expect(notFound).toBeInstanceOf(NotFoundError);
    expect(notFound).toMatchObject({ status: 404, hint: undefined });
    const serverError = await client.actions.create({ due, task: 'x' }).catch((e: unknown) => e);
    expect(serverError).toBeInstanceOf(ServerError);
    expect(serverError).toMatchObject({ status: 500, method: 'PUT', path: '/v1/actions' });
  });

  it('answers a wrong secret with UnauthorizedError, once', async () => {
    const { server, client } = await setup(undefined, 'not-the-secret');
    await expect(client.locations.list()).rejects.toBeInstanceOf(UnauthorizedError);
    expect(server.requests).toHaveLength(1);
  });

  it('keeps the socket error as the cause of a NetworkError', async () => {
    const { server, client } = await setup();
    server.fail({ drop: true }, { drop: true }, { drop: true }, { drop: true });
    const error = await client.actions.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toBeInstanceOf(CareApiError);
    expect((error as NetworkError).status).toBeUndefined();
    expect((error as NetworkError).cause).toBeInstanceOf(Error);
  });

  it('fails fast, without retrying, once the client is closed', async () => {
    const { server, client } = await setup();
    await client.close();
    const error = await client.actions.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(client.stats()).toMatchObject({ retries: 0, failures: 1 });
    expect(server.requests).toHaveLength(0);
  });
});

describe('secrets stay secret', () => {
  it('never logs or reports the secret, a signature or the query string', async () => {
    const logger = memoryLogger('debug');
    const { server, client } = await setup(logger, undefined, 700);
    const query = { filters: { q: 'needle-in-query', ids: ['6724fbcb4f73000000000001'] }, attributes: ['task' as const] };
    server.fail({ rateLimited: true, resetInMs: 100 }, { status: 503 }, { status: 404, body: '{"hint":"gone"}' });
    const errors: unknown[] = [];
    await client.actions.list(query).catch((e: unknown) => errors.push(e));
    server.fail({ drop: true }, { status: 400, body: '{"hint":"bad","arg_errors":{"task":["required"]}}' }, { delayMs: 2_500 });
    await client.actions.list(query).catch((e: unknown) => errors.push(e));
    await client.actions.create({ due, task: 'needle-in-body' }).catch((e: unknown) => errors.push(e));
    await client.actions.create({ due, task: 'needle-in-body' }).catch((e: unknown) => errors.push(e));
    expect(errors.map((e) => (e as Error).name)).toEqual(['NotFoundError', 'InvalidRequestError', 'TimeoutError']);

    const signatures = server.requests.map((r) => String(r.headers['x-carehq-signature']));
    expect(signatures).toHaveLength(7);
    const forbidden = [server.credentials.apiSecret, 'needle-in-query', 'needle-in-body', 'filters-q', '?', ...signatures];
    const exposed = [...logger.lines, ...errors.flatMap((e) => [(e as Error).message, String((e as Error).stack), JSON.stringify(e), String(e)])].join('\n');
    expect(logger.lines.length).toBeGreaterThan(5);
    for (const text of forbidden) expect(exposed).not.toContain(text);
  });
});
