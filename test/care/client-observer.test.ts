import { afterEach, describe, expect, it } from 'vitest';
import { type CareAttempt, type CareClientOptions, createCareClient, NetworkError } from '../../src/care/index.js';
import { startCareTestServer } from '../helpers/care-test-server.js';
import { createVirtualClock } from './virtual-clock.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

/** A server and a client sharing one virtual clock; every attempt the client reports is kept. */
async function setup(clientOptions: Partial<CareClientOptions> = {}) {
  const clock = createVirtualClock(Date.now());
  const server = await startCareTestServer({ now: clock.now });
  const attempts: CareAttempt[] = [];
  const client = createCareClient({
    baseUrl: server.url,
    ...server.credentials,
    clock,
    random: () => 0.5,
    onAttempt: (a) => attempts.push(a),
    ...clientOptions,
  });
  cleanups.push(
    () => server.close(),
    () => client.close(),
  );
  return { server, client, attempts, id: server.collections.actions![0]!._id };
}

describe('the care client tells an observer about every attempt', () => {
  it('a 429 then a success: two attempts, the second a retry after the wait for the reset', async () => {
    const { server, client, attempts } = await setup();
    server.fail({ rateLimited: true, resetInMs: 1_500 });
    await client.actions.list();
    expect(attempts.map(({ resource, method, status, retry }) => ({ resource, method, status, retry }))).toEqual([
      { resource: 'actions', method: 'GET', status: 429, retry: false },
      { resource: 'actions', method: 'GET', status: 200, retry: true },
    ]);
    expect(attempts[0]!.backoffMs).toBe(0);
    expect(attempts[1]!.backoffMs).toBeGreaterThanOrEqual(1_500);
  });

  it('names the resource, never the Id in the path', async () => {
    const { client, attempts, id } = await setup();
    await client.actions.complete(id);
    expect(attempts).toHaveLength(1);
    expect(attempts[0]).toMatchObject({ resource: 'actions', method: 'PATCH', status: 200, retry: false });
    expect(JSON.stringify(attempts)).not.toContain(id);
  });

  it('reports the time waited in the rate limiter', async () => {
    const { client, attempts } = await setup({ rateLimitPerSecond: 1 });
    for (let i = 0; i < 3; i++) await client.actions.list();
    expect(attempts[0]!.waitedMs).toBe(0);
    expect(attempts.slice(1).every((a) => a.waitedMs >= 900)).toBe(true);
  });

  it('reports an attempt that got no answer by what happened', async () => {
    const { server, client, attempts } = await setup({ maxRetries: 0 });
    server.fail({ drop: true });
    await expect(client.actions.list()).rejects.toBeInstanceOf(NetworkError);
    expect(attempts).toHaveLength(1);
    expect(attempts[0]!.status).toBe('network-error');
  });

  it('an observer that throws never fails a call', async () => {
    const { client } = await setup({
      onAttempt: () => {
        throw new Error('observer broke');
      },
    });
    await expect(client.actions.list()).resolves.toMatchObject({ page: 1 });
  });
});
