import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type CareClient, createCareClient } from '../../src/care/index.js';
import { memoryLogger } from '../../src/logging/logger.js';
import { type RunningSandbox, startSandbox } from '../../dev/sandbox/index.js';
import { ACTION_ATTRIBUTES } from '../../src/services/action-model.js';
import { createActionCache } from '../../src/services/read-cache/action-cache.js';
import { createChangeSync } from '../../src/services/read-cache/change-sync.js';
import { createLru } from '../../src/services/read-cache/lru.js';
import { observeWrites } from '../../src/services/read-cache/observe-writes.js';
import { createReferenceCache } from '../../src/services/read-cache/reference-cache.js';
import { type CareTestServer, startCareTestServer } from '../helpers/care-test-server.js';

/**
 * The read caches on their own, against real care APIs over HTTP (the
 * sandbox, and the small test server where a request must be held in flight):
 * the memory bound, a read in flight when a change is made, stale-while-
 * revalidate for reference data, and two instances that each learn of the
 * other's writes through their own sync.
 */
const attrs = [...ACTION_ATTRIBUTES];
const clientFor = (url: string, credentials: { accountId: string; apiKey: string; apiSecret: string }) =>
  createCareClient({ baseUrl: url, ...credentials, rateLimitPerSecond: 100 });

describe('the LRU bound', () => {
  it('keeps at most maxEntries, dropping the least recently used first', () => {
    const lru = createLru<string>({ maxEntries: 3, maxBytes: 1_000, sizeOf: (v) => v.length });
    for (const k of ['a', 'b', 'c']) lru.set(k, k);
    lru.get('a'); // used: now the newest
    lru.set('d', 'd');
    expect([...lru.entries()].map(([k]) => k)).toEqual(['c', 'a', 'd']);
    expect(lru.size).toBe(3);
    expect(lru.evictions).toBe(1);
  });

  it('keeps the estimated bytes within maxBytes, and never holds one value bigger than the bound', () => {
    const lru = createLru<string>({ maxEntries: 100, maxBytes: 10, sizeOf: (v) => v.length });
    for (let i = 0; i < 20; i++) lru.set(`k${i}`, 'xxx');
    expect(lru.bytes).toBeLessThanOrEqual(10);
    expect(lru.size).toBe(3);
    expect(lru.peek('k19')).toBe('xxx');
    expect(lru.peek('k0')).toBeUndefined();
    lru.set('big', 'x'.repeat(11));
    expect(lru.peek('big')).toBeUndefined();
  });
});

describe('the action cache against the sandbox', () => {
  let sandbox: RunningSandbox;
  let care: CareClient;
  let ids: string[];
  const control = async (path: string, body?: unknown, method = body === undefined ? 'GET' : 'POST') => {
    const res = await fetch(`${sandbox.controlsUrl}/${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return (await res.json()) as any;
  };
  const listRequests = async () => {
    const stats = await control('stats');
    return Object.values((stats.byRoute['GET /v1/actions'] ?? {}) as Record<string, number>).reduce((a, b) => a + b, 0);
  };

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, seed: 'demo', controls: true, rateLimit: 0 });
    care = clientFor(sandbox.url, sandbox.credentials);
    ids = (await care.actions.collect({ attributes: ['_id'], sort_by: ['_id'], per_page: 100, limit: 300 })).map((a) => a._id);
  });
  afterAll(async () => {
    await care?.close();
    await sandbox?.stop();
  });

  it('holds no more than its bound: beyond it the oldest go, and a list whose actions went is read again', async () => {
    const cache = createActionCache({ care, now: Date.now, logger: memoryLogger(), maxLagMs: 60_000, maxRecords: 50, maxLists: 2 });
    const sync = createChangeSync({ care, cache, overlapMs: 300_000, intervalMs: 30_000, logger: memoryLogger() });
    await sync.syncIfDue();
    const byIds = (from: number) => ({
      filters: { ids: ids.slice(from, from + 20), completed: 'unset' as const },
      attributes: attrs,
      per_page: 100,
      limit: 20,
    });
    for (const from of [0, 20, 40]) expect(await cache.list(byIds(from))).toHaveLength(20);
    const stats = cache.stats();
    expect(stats.records).toBeLessThanOrEqual(50);
    expect(stats.lists).toBeLessThanOrEqual(2);
    expect(stats.evictions).toBeGreaterThan(0);
    await control('stats/reset', {});
    await cache.list(byIds(40)); // the newest: still held
    expect(await listRequests()).toBe(0);
    await cache.list(byIds(0)); // the oldest: gone, read again
    expect(await listRequests()).toBe(1);
  });

  it('keeps its estimated bytes within the byte bound', async () => {
    const cache = createActionCache({ care, now: Date.now, logger: memoryLogger(), maxLagMs: 60_000, maxBytes: 40_000 });
    for (let from = 0; from < 300; from += 100) {
      await cache.list({ filters: { ids: ids.slice(from, from + 100), completed: 'unset' }, attributes: attrs, per_page: 100, limit: 100 });
    }
    const stats = cache.stats();
    expect(stats.bytes).toBeLessThanOrEqual(40_000);
    expect(stats.records).toBeLessThan(300);
    expect(stats.evictions).toBeGreaterThan(0);
  });

  it('two instances: a write through one is seen by the other once its own sync has run', async () => {
    const logger = memoryLogger();
    let clock = Date.now();
    const now = () => clock;
    const careA = clientFor(sandbox.url, sandbox.credentials);
    const careB = clientFor(sandbox.url, sandbox.credentials);
    try {
      const a = createActionCache({ care: careA, now, logger, maxLagMs: 120_000 });
      const syncA = createChangeSync({ care: careA, cache: a, overlapMs: 300_000, intervalMs: 60_000, logger });
      const b = createActionCache({ care: careB, now, logger, maxLagMs: 120_000 });
      const writerB = observeWrites(careB, b);
      await syncA.syncIfDue();
      const open = { filters: { ids: ids.slice(100, 130), completed: 'no' as const }, attributes: attrs, per_page: 100, limit: 100 };
      const before = await a.list(open);
      const target = before[0]!;
      await writerB.actions.complete(target._id);
      // A cannot know yet: its answer still comes from memory (at most one sync behind).
      expect((await a.list(open)).map((x) => x._id)).toContain(target._id);
      clock += 50_000; // past three quarters of the interval: A's own sync reads the changes
      const ran = await syncA.syncIfDue();
      expect(ran.skipped).toBe(false);
      expect((await a.list(open)).map((x) => x._id)).not.toContain(target._id);
      await writerB.actions.reopen(target._id);
    } finally {
      await careA.close();
      await careB.close();
    }
  });

  it('a workspace nobody reads here stops costing syncs, and the next read wakes it with fresh answers', async () => {
    let clock = Date.now();
    const logger = memoryLogger();
    const cache = createActionCache({ care, now: () => clock, logger, maxLagMs: 120_000 });
    const sync = createChangeSync({ care, cache, overlapMs: 300_000, intervalMs: 60_000, logger, dormantAfterMs: 600_000 });
    const open = { filters: { ids: ids.slice(200, 220), completed: 'no' as const }, attributes: attrs, per_page: 100, limit: 100 };
    expect((await sync.syncIfDue()).requests).toBe(1);
    const before = await cache.list(open);
    // Eleven quiet minutes, one tick a minute: syncs until ten minutes after the last read, then none.
    const requests: number[] = [];
    for (let minute = 1; minute <= 11; minute++) {
      clock += 60_000;
      requests.push((await sync.syncIfDue()).requests);
    }
    expect(requests.slice(0, 9).every((n) => n >= 1)).toBe(true);
    expect(requests.slice(-1)).toEqual([0]);
    expect(sync.notDue()).toBe(true); // what the scheduler asks first: the run is left out
    expect(cache.stats()).toMatchObject({ records: 0, lists: 0, trusted: false });
    // A poll run on this instance meanwhile neither fills it nor makes it answer from memory.
    const at = sync.started({ sinceMs: clock - 300_000 });
    sync.page(before, at);
    sync.covered({ sinceMs: clock - 300_000, throughMs: clock, startedAt: at });
    expect(cache.stats()).toMatchObject({ records: 0, lists: 0, trusted: false });

    // Meanwhile someone completes one in the web app; the next read asks the API and shows it.
    const target = before[0]!;
    await control(`actions/${target._id}/complete`, {});
    expect((await cache.list(open)).map((a) => a._id)).not.toContain(target._id);
    clock += 60_000;
    expect(sync.notDue()).toBe(false);
    expect((await sync.syncIfDue()).requests).toBe(1); // awake again: a first sync, one request
    await control(`actions/${target._id}/reopen`, {});
  });

  it('a change the feed brings is news for the lists even when a search already brought the new state', async () => {
    let clock = Date.now();
    const logger = memoryLogger();
    const cache = createActionCache({ care, now: () => clock, logger, maxLagMs: 120_000 });
    const sync = createChangeSync({ care, cache, overlapMs: 300_000, intervalMs: 60_000, logger });
    await sync.syncIfDue();
    const users = await care.users.collect({ attributes: ['_id'], per_page: 100, limit: 2 });
    const [ann, ben] = users.map((u) => u._id);
    const byAssignee = { filters: { assigned_to: ann!, completed: 'no' as const }, attributes: attrs, per_page: 100, limit: 500 };
    const before = await cache.list(byAssignee);
    const moved = (
      await care.actions.collect({ filters: { assigned_to: ben!, completed: 'no' }, attributes: ['_id', 'action_no'], per_page: 1, limit: 1 })
    )[0]!;
    expect(before.map((a) => a._id)).not.toContain(moved._id);
    await control(`actions/${moved._id}`, { assigned_to: ann }, 'PATCH'); // in the web app
    // A search reads the moved action (never held before) in its new state, before the feed says anything.
    for await (const _ of cache.remembering(care.actions.iterate({ filters: { ids: [moved._id], completed: 'unset' }, attributes: attrs, limit: 1 })));
    clock += 40_000;
    await sync.syncIfDue();
    expect((await cache.list(byAssignee)).map((a) => a._id)).toContain(moved._id);
  });

  it('reference data: answered from memory while fresh; when stale, answered at once while one background read refreshes it', async () => {
    let clock = Date.now();
    const logger = memoryLogger();
    const reference = createReferenceCache({ now: () => clock, logger, freshMs: 60_000, maxStaleMs: 600_000 });
    const count = () => care.actions.list({ filters: { q: 'Quokka' }, attributes: ['_id'], per_page: 100 }).then((p) => p.items.length);
    await control('stats/reset', {});
    expect(await reference.get('quokkas', count)).toBe(0); // the first-ever read waits
    expect(await reference.get('quokkas', count)).toBe(0);
    expect(await listRequests()).toBe(1);
    await control('actions', { task: 'Feed the Quokka', due: new Date(Date.now() + 3_600_000).toISOString() });
    clock += 61_000;
    // Stale: the old answer at once, and one read in the background.
    const stale = await Promise.all([reference.get('quokkas', count), reference.get('quokkas', count)]);
    expect(stale).toEqual([0, 0]);
    expect(reference.stats().refreshes).toBe(1);
    let fresh = 0;
    for (let i = 0; i < 100 && fresh === 0; i++) {
      await new Promise((r) => setTimeout(r, 20));
      fresh = await reference.get('quokkas', count);
    }
    expect(fresh).toBe(1);
    expect(await listRequests()).toBe(2);
  });
});

describe('a read in flight when a change is made through the app', () => {
  let server: CareTestServer;
  let care: CareClient;
  afterEach(async () => {
    await care?.close();
    await server?.close();
  });

  it('is neither joined by a read that begins after the change nor kept', async () => {
    server = await startCareTestServer({ actions: 5 });
    care = clientFor(server.url, server.credentials);
    const cache = createActionCache({ care, now: Date.now, logger: memoryLogger(), maxLagMs: 60_000 });
    const sync = createChangeSync({ care, cache, overlapMs: 300_000, intervalMs: 30_000, logger: memoryLogger() });
    await sync.syncIfDue();
    const writer = observeWrites(care, cache);
    const open = { filters: { completed: 'no' as const }, attributes: attrs, per_page: 100, limit: 100 };
    const target = server.collections.actions![0]!._id;
    const before = server.requests.length;

    server.fail({ delayMs: 300 }); // the first read is held in flight
    const first = cache.list(open);
    await writer.actions.complete(target);
    const second = await cache.list(open); // begins after the change: its own request
    expect(second.map((a) => a._id)).not.toContain(target);
    await first;
    const third = await cache.list(open); // from memory: the second read's answer, not the first's
    expect(third.map((a) => a._id)).not.toContain(target);
    const gets = server.requests.slice(before).filter((r) => r.method === 'GET');
    expect(gets).toHaveLength(2);
  });
});
