/**
 * Several app instances on one PostgreSQL database: two stores with their own
 * pools race for the same leases, claims and decisions; exactly one wins each.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeliveryKey, Store } from '../../src/store/index.js';
import { openStore } from '../../src/store/index.js';
import type { TestSchema } from '../helpers/pg.js';
import { createTestSchema, PG_SKIPPED, TEST_DATABASE_URL } from '../helpers/pg.js';
import { testClock } from './harness.js';

if (!TEST_DATABASE_URL) {
  console.warn(PG_SKIPPED);
  it.skip(PG_SKIPPED, () => {});
}

describe.skipIf(!TEST_DATABASE_URL)('PostgreSQL with two instances', () => {
  const url = TEST_DATABASE_URL ?? '';
  const clock = testClock();
  let schema: TestSchema;
  let a: Store;
  let b: Store;

  beforeAll(async () => {
    schema = await createTestSchema(url, 'race');
    [a, b] = await Promise.all([
      openStore({ databaseUrl: url, schema: schema.name, clock, sharedClock: clock, poolSize: 6 }),
      openStore({ databaseUrl: url, schema: schema.name, clock, sharedClock: clock, poolSize: 6 }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
    await schema?.drop();
  });

  it('two instances racing for the same leases: exactly one holds each', async () => {
    const names = Array.from({ length: 100 }, (_, i) => `job-${i}`);
    const results = await Promise.all(names.map((n) => Promise.all([a.acquireLease(n, 'a', 60_000), b.acquireLease(n, 'b', 60_000)])));
    for (const [wonA, wonB] of results) expect(wonA !== wonB).toBe(true);
    const holders = await Promise.all(names.map((n) => a.getLease(n)));
    for (const [i, [wonA]] of results.entries()) expect(holders[i]?.holder).toBe(wonA ? 'a' : 'b');
  });

  it("a dead instance's lease is taken over by the other once it expires", async () => {
    expect(await a.acquireLease('digest', 'a', 5_000)).toBe(true);
    expect(await b.acquireLease('digest', 'b', 5_000)).toBe(false);
    clock.advance(5_000);
    expect(await b.acquireLease('digest', 'b', 5_000)).toBe(true);
    expect(await a.renewLease('digest', 'a', 5_000)).toBe(false);
  });

  it('1,000 deliveries claimed by both instances at once: each claimed exactly once, none lost', async () => {
    const keys: DeliveryKey[] = Array.from({ length: 1000 }, (_, i) => ({
      kind: 'completion',
      actionId: `act-${i}`,
      occurrence: '2025-01-06T09:00:00Z',
      recipient: 'user:T1/U1',
    }));
    const opts = (holder: string) => ({ holder, staleAfterMs: 60_000 });
    const race = await Promise.all(keys.map((k) => Promise.all([a.claimDelivery(k, opts('a')), b.claimDelivery(k, opts('b'))])));
    const winners = race.map(([ra, rb]) => [ra.outcome, rb.outcome].sort().join('+'));
    expect(new Set(winners)).toEqual(new Set(['busy+claimed']));
    const wonByA = race.filter(([ra]) => ra.outcome === 'claimed').length;
    expect(wonByA).toBeGreaterThan(0);
    expect(await a.countDeliveries({ kind: 'completion' })).toBe(1000);
    expect(await b.countDeliveries({ state: 'pending' })).toBe(1000);

    // Both instances now see every claim as stale and race to reclaim.
    clock.advance(60_000);
    const again = await Promise.all(keys.map((k) => Promise.all([a.claimDelivery(k, opts('a')), b.claimDelivery(k, opts('b'))])));
    for (const [ra, rb] of again) expect([ra.outcome, rb.outcome].sort()).toEqual(['busy', 'reclaimed']);
    const rows = await a.listDeliveries({ kind: 'completion', limit: 2000 });
    expect(rows).toHaveLength(1000);
    expect(rows.every((d) => d.attempts === 2)).toBe(true);
  }, 120_000); // a bound on waiting for 4,000 claims on a loaded machine, not a speed target (bench/store.ts measures that)

  it('two admins on two instances deciding the same request: one decision wins', async () => {
    const { request } = await a.createLinkRequest({ teamId: 'T1', slackUserId: 'U1', careUserId: 'care-1' });
    const results = await Promise.all([
      a.decideLinkRequest(request.id, 'approved', 'UA'),
      b.decideLinkRequest(request.id, 'rejected', 'UB'),
      a.decideLinkRequest(request.id, 'rejected', 'UC'),
      b.decideLinkRequest(request.id, 'approved', 'UD'),
    ]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    const final = await b.getLinkRequest(request.id);
    const link = await b.getLinkBySlackUser('T1', 'U1');
    expect(link !== null).toBe(final?.state === 'approved');
  });

  it('a burst of queries larger than the pool waits its turn instead of failing as unreachable', async () => {
    // One connection and a connect timeout of 300 ms (long enough for a loaded machine to connect): 2,500 claims
    // queue far longer than that behind the one connection, and none may fail as if the server were unreachable.
    const small = await openStore({ databaseUrl: url, schema: schema.name, clock, sharedClock: clock, poolSize: 1, connectTimeoutMs: 300 });
    try {
      const outcomes = await Promise.all(
        Array.from({ length: 2500 }, (_, i) =>
          small.claimDelivery({ kind: 'burst', actionId: `b-${i}`, occurrence: 'o', recipient: 'r' }, { holder: 's', staleAfterMs: 1000 }),
        ),
      );
      expect(outcomes.every((o) => o.outcome === 'claimed')).toBe(true);
    } finally {
      await small.close();
    }
  });

  it('two instances asking for a link at once open one pending request', async () => {
    const both = await Promise.all([a.createLinkRequest({ teamId: 'T1', slackUserId: 'U5' }), b.createLinkRequest({ teamId: 'T1', slackUserId: 'U5' })]);
    expect(both.map((r) => r.created).sort()).toEqual([false, true]);
    expect(both[0].request.id).toBe(both[1].request.id);
  });
});
