/** Contract: the delivery ledger as an admin's status sees it (recent counts, failed reasons, Retry). */
import { describe, expect, it } from 'vitest';
import type { DeliveryKey } from '../../../src/store/index.js';
import type { Harness } from '../harness.js';

const key = (over: Partial<DeliveryKey> = {}): DeliveryKey => ({
  kind: 'completion',
  actionId: 'act-1',
  occurrence: '2025-01-06T09:00:00Z',
  recipient: 'user:T1/U1',
  ...over,
});
const STALE = 60_000;
const HOUR = 3600_000;
const DAY = 24 * HOUR;

export function ledgerAdminContract(h: Harness): void {
  describe('delivery ledger: status and Retry', () => {
    it('counts the rows changed within the window by state, and gives the newest failed ones with their reasons', async () => {
      const { store, clock } = await h.fresh();
      const claim = async (actionId: string) => {
        const c = await store.claimDelivery(key({ actionId }), { holder: 'a', staleAfterMs: STALE });
        return c.delivery.id;
      };
      // Two days ago: a sent one and a failed one, outside a 24-hour window.
      await store.markSent(await claim('old-sent'), { channel: 'D1', ts: '1.0' });
      await store.markFailed(await claim('old-failed'), 'channel_not_found', { retryable: false });
      clock.advance(2 * DAY);
      await store.markSent(await claim('sent-1'), { channel: 'D1', ts: '2.0' });
      await store.markSent(await claim('sent-2'), { channel: 'D1', ts: '3.0' });
      await claim('pending-1');
      clock.advance(HOUR);
      await store.markFailed(await claim('failed-1'), 'account_inactive', { retryable: false });
      clock.advance(HOUR);
      await store.markFailed(await claim('failed-2'), 'gave up after 5 attempts; last error: ratelimited', { retryable: false });

      const recent = await store.recentDeliveries({ windowMs: DAY });
      expect({ sent: recent.sent, pending: recent.pending, failed: recent.failed }).toEqual({ sent: 2, pending: 1, failed: 2 });
      expect(recent.failedRows.map((d) => [d.actionId, d.lastError])).toEqual([
        ['failed-2', 'gave up after 5 attempts; last error: ratelimited'],
        ['failed-1', 'account_inactive'],
      ]);
      expect((await store.recentDeliveries({ windowMs: DAY, failedLimit: 1 })).failedRows.map((d) => d.actionId)).toEqual(['failed-2']);
      expect(await store.recentDeliveries({ windowMs: 3 * DAY, failedLimit: 0 })).toMatchObject({ sent: 3, failed: 3, failedRows: [] });
      clock.advance(DAY);
      expect(await store.recentDeliveries({ windowMs: DAY })).toMatchObject({ sent: 0, pending: 0, failed: 1, failedRows: [{ actionId: 'failed-2' }] });
    });

    it('Retry reopens a failed row with fresh attempts, keeping its reason until the next try; the claim still decides who sends', async () => {
      const { store, clock } = await h.fresh();
      const first = await store.claimDelivery(key(), { holder: 'a', staleAfterMs: STALE });
      await store.markFailed(first.delivery.id, 'channel_not_found', { retryable: false });
      expect((await store.claimDelivery(key(), { holder: 'b', staleAfterMs: STALE })).outcome).toBe('failed');
      clock.advance(1000);
      const reopened = await store.reopenDelivery(first.delivery.id);
      expect(reopened).toMatchObject({ state: 'failed', retryable: true, attempts: 0, lastError: 'channel_not_found', updatedAt: clock() });
      // Two admins at once, or an admin and the retry sweep: one claim wins.
      const claims = await Promise.all(['x', 'y', 'z'].map((holder) => store.claimDelivery(key(), { holder, staleAfterMs: STALE })));
      expect(claims.map((c) => c.outcome).sort()).toEqual(['busy', 'busy', 'failed-retry']);
      const winner = claims.find((c) => c.outcome === 'failed-retry')!;
      expect(winner.delivery).toMatchObject({ state: 'pending', attempts: 1 });
      // Neither a pending nor a sent row is reopened.
      expect(await store.reopenDelivery(first.delivery.id)).toBeNull();
      await store.markSent(winner.delivery.id, { channel: 'C1', ts: '9.0' });
      expect(await store.reopenDelivery(first.delivery.id)).toBeNull();
      expect(await store.getDeliveryById(first.delivery.id)).toMatchObject({ state: 'sent', slackTs: '9.0' });
      expect(await store.reopenDelivery(999_999)).toBeNull();
    });

    it('Retry brings back a row the sweep gave up on (out of attempts)', async () => {
      const { store } = await h.fresh();
      const opts = { holder: 'a', staleAfterMs: STALE, maxAttempts: 2 };
      for (let i = 0; i < 2; i++) {
        const c = await store.claimDelivery(key(), opts);
        await store.markFailed(c.delivery.id, 'ratelimited', { retryable: true });
      }
      const gaveUp = await store.claimDelivery(key(), opts);
      expect(gaveUp).toMatchObject({ outcome: 'failed', delivery: { retryable: false, lastError: 'gave up after 2 attempts; last error: ratelimited' } });
      await store.reopenDelivery(gaveUp.delivery.id);
      expect(await store.unfinishedDeliveries('completion', { staleAfterMs: STALE, maxAttempts: 2 })).toMatchObject([{ id: gaveUp.delivery.id, attempts: 0 }]);
      expect(await store.claimDelivery(key(), opts)).toMatchObject({ outcome: 'failed-retry', delivery: { attempts: 1 } });
    });
  });
}
