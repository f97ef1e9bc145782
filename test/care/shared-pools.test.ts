/**
 * One instance's care clients (one per workspace) sharing its connections to the care API: a workspace polled
 * every few seconds reuses a warm connection instead of opening one a poll, each client still sends at most its
 * own number of requests at once, and closing one workspace's client leaves the others working.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createCareClient, NetworkError } from '../../src/care/index.js';
import { createCarePools } from '../../src/care/shared-pools.js';
import { startCareTestServer } from '../helpers/care-test-server.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function setup(shared: boolean, connections?: number) {
  const server = await startCareTestServer();
  cleanups.push(() => server.close());
  const pools = shared ? createCarePools() : undefined;
  if (pools) cleanups.push(() => pools.close());
  const client = () => {
    const c = createCareClient({ baseUrl: server.url, ...server.credentials, pools, connections, maxRetries: 0 });
    cleanups.push(() => c.close());
    return c;
  };
  return { server, pools, client };
}

describe("an instance's care clients sharing its connections", () => {
  it('six workspaces polled one after another share a connection or two (six without sharing)', async () => {
    const opened: number[] = [];
    for (const shared of [true, false]) {
      const { server, client } = await setup(shared);
      const clients = Array.from({ length: 6 }, () => client());
      for (let round = 0; round < 4; round++) for (const c of clients) await c.actions.list({ per_page: 1 });
      expect(server.requests.filter((r) => r.status === 200)).toHaveLength(24);
      opened.push(server.connections().opened);
    }
    // Shared: the next request finds the last one's connection free (or, just as it is freed, opens a second).
    expect(opened[0]).toBeLessThanOrEqual(2);
    expect(opened[1]).toBe(6);
  });

  it('a client sends at most its number of requests at once, however many it is asked for', async () => {
    const { server, client } = await setup(true, 2);
    const c = client();
    server.fail(...Array.from({ length: 6 }, () => ({ delayMs: 50 })));
    await Promise.all(Array.from({ length: 6 }, () => c.actions.list({ per_page: 1 })));
    expect(server.requests.filter((r) => r.status === 200)).toHaveLength(6);
    expect(server.connections().mostAtOnce).toBe(2);
  });

  it('a workspace let go closes its client alone: it sends nothing more, the others go on until the instance closes them all', async () => {
    const { server, pools, client } = await setup(true);
    const [gone, staying] = [client(), client()];
    await gone.actions.list({ per_page: 1 });
    await gone.close();
    await expect(gone.actions.list({ per_page: 1 })).rejects.toBeInstanceOf(NetworkError);
    await expect(staying.actions.list({ per_page: 1 })).resolves.toMatchObject({ page: 1 });
    expect(server.requests).toHaveLength(2);
    await pools!.close();
    await expect(staying.actions.list({ per_page: 1 })).rejects.toBeInstanceOf(NetworkError);
  });
});
