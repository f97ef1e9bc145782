/**
 * Retries never starve: whatever else failed for good or ran out of attempts,
 * a delivery worth another try is found and retried until its budget is spent,
 * and every delivery ends as sent or as failed with a reason an admin can read.
 */
import { describe, expect, it } from 'vitest';
import { unfinishedDeliveries } from '../../../src/services/notices/delivery.js';
import { DEFAULT_MAX_ATTEMPTS, type DeliveryKey, type Store, soleWorkspaceStore } from '../../../src/store/index.js';
import { PG_SKIPPED, TEST_DATABASE_URL } from '../../helpers/pg.js';
import { type Harness, postgresHarness, sqliteHarness } from '../../store/harness.js';

const STALE = 60_000;
const key = (actionId: string): DeliveryKey => ({ kind: 'completion', actionId, occurrence: '2025-01-06T09:00:00Z', recipient: 'user:T1/U1' });

/** Claim each delivery and fail it for good, as a DM to a deactivated account does. */
async function failForGood(store: Store, actionIds: string[]): Promise<void> {
  for (const id of actionIds) {
    const c = await store.claimDelivery(key(id), { holder: 'a', staleAfterMs: STALE });
    await store.markFailed(c.delivery.id, 'account_inactive', { retryable: false });
  }
}

function suite(h: Harness): void {
  it('a retryable failure is retried until its attempts are spent, however many newer deliveries failed for good', async () => {
    const { store, clock } = await h.fresh();
    const first = await store.claimDelivery(key('act-retry'), { holder: 'a', staleAfterMs: STALE });
    await store.markFailed(first.delivery.id, 'ratelimited', { retryable: true });
    await failForGood(
      store,
      Array.from({ length: 200 }, (_, i) => `act-gone-${i}`),
    );

    let retries = 0;
    for (let round = 0; round < 10; round++) {
      clock.advance(1_000);
      const todo = await unfinishedDeliveries(
        soleWorkspaceStore(store, async () => 'T1'),
        'completion',
        { now: clock(), staleAfterMs: STALE },
      );
      const mine = todo.find((d) => d.actionId === 'act-retry');
      if (!mine) break;
      const claim = await store.claimDelivery(key('act-retry'), { holder: 'b', staleAfterMs: STALE });
      expect(claim.outcome).toBe('failed-retry');
      retries++;
      await store.markFailed(claim.delivery.id, 'ratelimited', { retryable: true });
    }
    expect(retries).toBe(DEFAULT_MAX_ATTEMPTS - 1);
    const row = await store.getDelivery(key('act-retry'));
    expect(row).toMatchObject({ state: 'failed', retryable: false, attempts: DEFAULT_MAX_ATTEMPTS });
    expect(row?.lastError).toMatch(/gave up after 5 attempts.*ratelimited/);
  });

  it('claims that ran out of attempts end as failed with a reason, and do not hide a stale claim behind them', async () => {
    const { store, clock } = await h.fresh();
    const ids = Array.from({ length: 200 }, (_, i) => `act-dead-${i}`);
    // Each of these was claimed, and every holder died mid-post, DEFAULT_MAX_ATTEMPTS times.
    for (let attempt = 1; attempt <= DEFAULT_MAX_ATTEMPTS; attempt++) {
      await Promise.all(ids.map((id) => store.claimDelivery(key(id), { holder: `dead-${attempt}`, staleAfterMs: STALE })));
      clock.advance(STALE);
    }
    await store.claimDelivery(key('act-stale'), { holder: 'crashed', staleAfterMs: STALE });
    clock.advance(STALE);

    const todo = await unfinishedDeliveries(
      soleWorkspaceStore(store, async () => 'T1'),
      'completion',
      { now: clock(), staleAfterMs: STALE },
    );
    expect(todo.map((d) => d.actionId)).toEqual(['act-stale']);
    expect(await store.countDeliveries({ state: 'pending' })).toBe(1);
    const dead = await store.listDeliveries({ state: 'failed', limit: 1000 });
    expect(dead).toHaveLength(200);
    for (const d of dead) {
      expect(d.retryable).toBe(false);
      expect(d.lastError).toMatch(/gave up after 5 attempts/);
    }
  });
}

describe('unfinished deliveries on SQLite', () => suite(sqliteHarness()));

if (!TEST_DATABASE_URL) {
  console.warn(PG_SKIPPED);
  it.skip(PG_SKIPPED, () => {});
}
describe.skipIf(!TEST_DATABASE_URL)('unfinished deliveries on PostgreSQL', () => suite(postgresHarness(TEST_DATABASE_URL ?? '')));
