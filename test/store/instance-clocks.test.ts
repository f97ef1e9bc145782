/**
 * Instances whose clocks disagree share one database: claims and leases keep
 * the database's time, so an instance whose clock runs a minute ahead neither
 * takes over a fresh claim nor a live lease. Each store is opened the way the
 * app opens it, with its own (here skewed) app clock and no test clock.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { DeliveryKey, OpenedStore, StoreConfig } from '../../src/store/index.js';
import { openStore } from '../../src/store/index.js';
import { createTestSchema, PG_SKIPPED, TEST_DATABASE_URL } from '../helpers/pg.js';

const STALE = 30_000;
const key = (actionId: string): DeliveryKey => ({ kind: 'completion', actionId, occurrence: '2025-01-06T09:00:00Z', recipient: 'user:T1/U1' });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Two instances on one database: `behind` 30 s slow, `ahead` 30 s fast (60 s apart). */
async function twoInstances(config: StoreConfig): Promise<{ behind: OpenedStore; ahead: OpenedStore }> {
  const behind = await openStore({ ...config, clock: () => Date.now() - 30_000 });
  const ahead = await openStore({ ...config, clock: () => Date.now() + 30_000 });
  onTestFinished(async () => {
    await behind.close();
    await ahead.close();
  });
  return { behind, ahead };
}

function suite(database: () => Promise<StoreConfig>): void {
  it('a fresh claim is never taken over by an instance whose clock runs ahead, whoever claimed first', async () => {
    const { behind, ahead } = await twoInstances(await database());
    expect((await behind.claimDelivery(key('a1'), { holder: 'behind', staleAfterMs: STALE })).outcome).toBe('claimed');
    expect((await ahead.claimDelivery(key('a1'), { holder: 'ahead', staleAfterMs: STALE })).outcome).toBe('busy');
    expect((await ahead.claimDelivery(key('a2'), { holder: 'ahead', staleAfterMs: STALE })).outcome).toBe('claimed');
    expect((await behind.claimDelivery(key('a2'), { holder: 'behind', staleAfterMs: STALE })).outcome).toBe('busy');
    expect(await ahead.unfinishedDeliveries('completion', { staleAfterMs: STALE })).toEqual([]);
    expect(await behind.getDelivery(key('a1'))).toMatchObject({ state: 'pending', claimedBy: 'behind', attempts: 1 });
    expect(await ahead.getDelivery(key('a2'))).toMatchObject({ state: 'pending', claimedBy: 'ahead', attempts: 1 });
  });

  it('a live lease is held by one instance only, whichever clock is ahead', async () => {
    const { behind, ahead } = await twoInstances(await database());
    expect(await behind.acquireLease('digest', 'behind', STALE)).toBe(true);
    expect(await ahead.acquireLease('digest', 'ahead', STALE)).toBe(false);
    expect(await ahead.acquireLease('poll', 'ahead', STALE)).toBe(true);
    expect(await behind.acquireLease('poll', 'behind', STALE)).toBe(false);
    expect(await behind.renewLease('digest', 'behind', STALE)).toBe(true);
    expect(await ahead.getLease('digest')).toMatchObject({ holder: 'behind' });
    expect(await behind.getLease('poll')).toMatchObject({ holder: 'ahead' });
  });

  it("a dead holder's short lease and claim are still taken over once they expire by the database's clock", async () => {
    const { behind, ahead } = await twoInstances(await database());
    expect(await ahead.acquireLease('digest', 'ahead', 200)).toBe(true);
    await ahead.claimDelivery(key('a3'), { holder: 'ahead', staleAfterMs: 200 });
    let took = false;
    for (let i = 0; i < 100 && !took; i++) {
      await sleep(50);
      took = await behind.acquireLease('digest', 'behind', 60_000);
    }
    expect(took).toBe(true);
    expect((await behind.claimDelivery(key('a3'), { holder: 'behind', staleAfterMs: 200 })).outcome).toBe('reclaimed');
  });
}

describe('instances with different clocks on one SQLite file', () => {
  suite(async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'store-clocks-'));
    onTestFinished(() => fs.rmSync(dir, { recursive: true, force: true }));
    return { dataDir: dir };
  });
});

if (!TEST_DATABASE_URL) {
  console.warn(PG_SKIPPED);
  it.skip(PG_SKIPPED, () => {});
}
describe.skipIf(!TEST_DATABASE_URL)('instances with different clocks on one PostgreSQL schema', () => {
  suite(async () => {
    const schema = await createTestSchema(TEST_DATABASE_URL ?? '', 'clocks');
    onTestFinished(() => schema.drop());
    return { databaseUrl: TEST_DATABASE_URL, schema: schema.name, poolSize: 2 };
  });
});
