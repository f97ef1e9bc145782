/** Contract: the delivery ledger (exactly-once notices). */
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

export function ledgerContract(h: Harness): void {
  describe('delivery ledger', () => {
    it('the first claim must send; a second holder is told it is busy; once sent, everyone is told where', async () => {
      const { store, clock } = await h.fresh();
      const first = await store.claimDelivery(key(), { holder: 'a', staleAfterMs: STALE });
      expect(first).toMatchObject({ outcome: 'claimed', delivery: { state: 'pending', attempts: 1, claimedBy: 'a', claimedAt: clock() } });
      expect(await store.claimDelivery(key(), { holder: 'b', staleAfterMs: STALE })).toMatchObject({ outcome: 'busy', delivery: { claimedBy: 'a' } });
      if (first.outcome !== 'claimed') throw new Error('unreachable');
      clock.advance(250);
      expect(await store.markSent(first.delivery.id, { channel: 'D1', ts: '1736154000.000100' })).toBe(true);
      const again = await store.claimDelivery(key(), { holder: 'b', staleAfterMs: STALE });
      expect(again).toMatchObject({ outcome: 'sent', channel: 'D1', ts: '1736154000.000100', delivery: { state: 'sent', sentAt: clock() } });
      expect(await store.countDeliveries()).toBe(1);
    });

    it('treats another occurrence, kind or recipient of the same action as a separate delivery', async () => {
      const { store } = await h.fresh();
      for (const k of [key(), key({ occurrence: '2025-01-07T09:00:00Z' }), key({ kind: 'due' }), key({ recipient: 'channel:T1/C1' })]) {
        expect((await store.claimDelivery(k, { holder: 'a', staleAfterMs: STALE })).outcome).toBe('claimed');
      }
      expect(await store.countDeliveries({ actionId: 'act-1' })).toBe(4);
    });

    it('a stale claim is reclaimed (attempts counted, previous holder named) so the new holder checks Slack first', async () => {
      const { store, clock } = await h.fresh();
      await store.claimDelivery(key(), { holder: 'dead', staleAfterMs: STALE });
      clock.advance(STALE - 1);
      expect((await store.claimDelivery(key(), { holder: 'b', staleAfterMs: STALE })).outcome).toBe('busy');
      clock.advance(1);
      const reclaimed = await store.claimDelivery(key(), { holder: 'b', staleAfterMs: STALE });
      expect(reclaimed).toMatchObject({ outcome: 'reclaimed', previousHolder: 'dead', delivery: { attempts: 2, claimedBy: 'b', claimedAt: clock() } });
      expect((await store.claimDelivery(key(), { holder: 'c', staleAfterMs: STALE })).outcome).toBe('busy');
    });

    it('a retryable failure may be tried again; a permanent one is not', async () => {
      const { store } = await h.fresh();
      const a = await store.claimDelivery(key(), { holder: 'a', staleAfterMs: STALE });
      expect(await store.markFailed(a.delivery.id, 'ratelimited', { retryable: true })).toBe(true);
      expect(await store.getDelivery(key())).toMatchObject({ state: 'failed', lastError: 'ratelimited', retryable: true });
      const retry = await store.claimDelivery(key(), { holder: 'b', staleAfterMs: STALE });
      expect(retry).toMatchObject({ outcome: 'failed-retry', delivery: { state: 'pending', attempts: 2, claimedBy: 'b' } });
      expect(await store.markFailed(retry.delivery.id, 'channel_not_found', { retryable: false })).toBe(true);
      expect(await store.claimDelivery(key(), { holder: 'c', staleAfterMs: STALE })).toMatchObject({
        outcome: 'failed',
        delivery: { lastError: 'channel_not_found', retryable: false },
      });
    });

    it('gives up after maxAttempts, whether attempts failed or went stale', async () => {
      const { store, clock } = await h.fresh();
      const opts = { staleAfterMs: STALE, maxAttempts: 2 };
      const a = await store.claimDelivery(key(), { holder: 'a', ...opts });
      await store.markFailed(a.delivery.id, 'timeout', { retryable: true });
      expect((await store.claimDelivery(key(), { holder: 'b', ...opts })).outcome).toBe('failed-retry');
      await store.markFailed(a.delivery.id, 'timeout again', { retryable: true });
      const spent = await store.claimDelivery(key(), { holder: 'c', ...opts });
      expect(spent).toMatchObject({
        outcome: 'failed',
        delivery: { state: 'failed', retryable: false, lastError: 'gave up after 2 attempts; last error: timeout again' },
      });

      const k2 = key({ actionId: 'act-2' });
      await store.claimDelivery(k2, { holder: 'a', ...opts });
      clock.advance(STALE);
      expect((await store.claimDelivery(k2, { holder: 'b', ...opts })).outcome).toBe('reclaimed');
      clock.advance(STALE);
      const gaveUp = await store.claimDelivery(k2, { holder: 'c', ...opts });
      expect(gaveUp).toMatchObject({ outcome: 'failed', delivery: { state: 'failed', retryable: false } });
      expect(gaveUp.delivery.lastError).toMatch(/stale/);
      expect(await store.countDeliveries({ state: 'failed' })).toBe(2);
    });

    it('says whether a workspace has any delivery a retry sweep could work: pending, or failed for a passing reason', async () => {
      const { store } = await h.fresh();
      const of = (team: string) => key({ recipient: `user:${team}/U1`, actionId: `A-${team}` });
      expect(await store.anyUnfinishedDeliveries('T1')).toBe(false);
      const a = await store.claimDelivery(of('T1'), { holder: 'a', staleAfterMs: STALE });
      expect(await store.anyUnfinishedDeliveries('T1')).toBe(true);
      expect(await store.anyUnfinishedDeliveries('T12')).toBe(false);
      await store.markFailed(a.delivery.id, 'channel_not_found', { retryable: false, holder: 'a' });
      expect(await store.anyUnfinishedDeliveries('T1')).toBe(false);
      const b = await store.claimDelivery(of('T12'), { holder: 'a', staleAfterMs: STALE });
      await store.markFailed(b.delivery.id, 'ratelimited', { retryable: true, holder: 'a' });
      expect(await store.anyUnfinishedDeliveries('T12')).toBe(true);
      expect(await store.anyUnfinishedDeliveries('T1')).toBe(false);
      expect(await store.anyUnfinishedDeliveries()).toBe(true);
      const c = await store.claimDelivery(key({ recipient: 'user:T7/U1' }), { holder: 'a', staleAfterMs: STALE });
      await store.markSent(c.delivery.id, { channel: 'D1', ts: '1.1' });
      expect(await store.anyUnfinishedDeliveries('T7')).toBe(false);
    });

    it('names, in one query, every workspace with a delivery a retry sweep could work (as each would be asked alone)', async () => {
      const { store } = await h.fresh();
      expect(await store.workspacesWithUnfinishedDeliveries()).toEqual(new Set());
      const of = (recipient: string, actionId: string) => key({ recipient, actionId });
      const a = await store.claimDelivery(of('user:T1/U1', 'A-1'), { holder: 'a', staleAfterMs: STALE });
      await store.claimDelivery(of('channel:T12/C1', 'A-12'), { holder: 'a', staleAfterMs: STALE });
      const c = await store.claimDelivery(of('email:T7/x@example.com', 'A-7'), { holder: 'a', staleAfterMs: STALE });
      const d = await store.claimDelivery(of('user:T9/U1', 'A-9'), { holder: 'a', staleAfterMs: STALE });
      expect(await store.workspacesWithUnfinishedDeliveries()).toEqual(new Set(['T1', 'T12', 'T7', 'T9']));
      // Sent, or failed for good: no longer; failed for a passing reason: still.
      await store.markSent(a.delivery.id, { channel: 'D1', ts: '1.1' });
      await store.markFailed(c.delivery.id, 'channel_not_found', { retryable: false, holder: 'a' });
      await store.markFailed(d.delivery.id, 'ratelimited', { retryable: true, holder: 'a' });
      const named = await store.workspacesWithUnfinishedDeliveries();
      expect(named).toEqual(new Set(['T12', 'T9']));
      for (const team of ['T1', 'T12', 'T7', 'T9', 'T']) expect(named.has(team), team).toBe(await store.anyUnfinishedDeliveries(team));
      // Two unfinished rows of one workspace name it once; a recipient without a team names none.
      await store.claimDelivery(of('user:T12/U2', 'A-12b'), { holder: 'a', staleAfterMs: STALE });
      await store.claimDelivery(of('nobody', 'A-x'), { holder: 'a', staleAfterMs: STALE });
      expect([...(await store.workspacesWithUnfinishedDeliveries())].sort()).toEqual(['T12', 'T9']);
    });

    it('a post in doubt keeps its claim until it goes stale; then the next holder is told to check Slack first', async () => {
      const { store, clock } = await h.fresh();
      const a = await store.claimDelivery(key(), { holder: 'a', staleAfterMs: STALE });
      const postedAt = Date.UTC(2026, 10, 25, 10, 0, 0);
      expect(await store.markInDoubt(a.delivery.id, 'no answer from Slack (timeout)', { holder: 'a', at: postedAt })).toBe(true);
      expect(await store.claimDelivery(key(), { holder: 'b', staleAfterMs: STALE })).toMatchObject({
        outcome: 'busy',
        delivery: { state: 'pending', claimedBy: 'a', lastError: 'no answer from Slack (timeout)', inDoubtAt: postedAt },
      });
      expect(await store.unfinishedDeliveries('completion', { staleAfterMs: STALE })).toEqual([]);
      clock.advance(STALE);
      expect((await store.unfinishedDeliveries('completion', { staleAfterMs: STALE })).map((d) => d.id)).toEqual([a.delivery.id]);
      expect(await store.claimDelivery(key(), { holder: 'b', staleAfterMs: STALE })).toMatchObject({ outcome: 'reclaimed', previousHolder: 'a' });
      expect(await store.markInDoubt(a.delivery.id, 'late', { holder: 'a', at: postedAt })).toBe(false);
    });

    it('a holder who lost its claim cannot mark the delivery failed; a second markSent keeps the first record', async () => {
      const { store, clock } = await h.fresh();
      const a = await store.claimDelivery(key(), { holder: 'a', staleAfterMs: STALE });
      clock.advance(STALE);
      await store.claimDelivery(key(), { holder: 'b', staleAfterMs: STALE });
      expect(await store.markFailed(a.delivery.id, 'late error', { retryable: true, holder: 'a' })).toBe(false);
      expect(await store.getDelivery(key())).toMatchObject({ state: 'pending', claimedBy: 'b' });
      expect(await store.markSent(a.delivery.id, { channel: 'D1', ts: '1.1' })).toBe(true);
      expect(await store.markSent(a.delivery.id, { channel: 'D1', ts: '2.2' })).toBe(false);
      expect(await store.getDeliveryById(a.delivery.id)).toMatchObject({ state: 'sent', slackTs: '1.1' });
      expect(await store.markFailed(a.delivery.id, 'x', { retryable: true })).toBe(false);
      expect(await store.getDeliveryById(999_999)).toBeNull();
    });

    it('lists and counts deliveries by state, kind, action and recipient', async () => {
      const { store } = await h.fresh();
      const ids: number[] = [];
      for (let i = 0; i < 5; i++) {
        const c = await store.claimDelivery(key({ actionId: `act-${i}`, kind: i < 3 ? 'completion' : 'due' }), { holder: 'a', staleAfterMs: STALE });
        ids.push(c.delivery.id);
      }
      await store.markSent(ids[0]!, { channel: 'C1', ts: '1.0' });
      await store.markFailed(ids[1]!, 'boom', { retryable: false });
      expect(await store.countDeliveries({ state: 'pending' })).toBe(3);
      expect(await store.countDeliveries({ kind: 'due' })).toBe(2);
      expect((await store.listDeliveries({ kind: 'completion', order: 'desc' })).map((d) => d.actionId)).toEqual(['act-2', 'act-1', 'act-0']);
      expect(await store.listDeliveries({ state: 'sent' })).toMatchObject([{ actionId: 'act-0', slackChannel: 'C1' }]);
      expect(await store.listDeliveries({ limit: 2 })).toHaveLength(2);
      expect(await store.listDeliveries({ recipient: 'nobody' })).toEqual([]);
      expect(await store.getDelivery(key({ actionId: 'none' }))).toBeNull();
    });

    it('the retry sweep gets exactly what is worth another try, least recently tried first', async () => {
      const { store, clock } = await h.fresh();
      const claim = async (actionId: string, kind = 'completion') =>
        (await store.claimDelivery(key({ actionId, kind }), { holder: 'a', staleAfterMs: STALE })).delivery.id;
      await claim('stale-pending');
      await store.markFailed(await claim('failed-passing'), 'ratelimited', { retryable: true });
      await store.markFailed(await claim('failed-for-good'), 'account_inactive', { retryable: false });
      await store.markSent(await claim('sent'), { channel: 'D1', ts: '1.1' });
      await store.markFailed(await claim('other-kind', 'urgent'), 'ratelimited', { retryable: true });
      clock.advance(STALE);
      await claim('fresh-pending');
      await store.markFailed(await claim('failed-later'), 'internal_error', { retryable: true });

      const todo = await store.unfinishedDeliveries('completion', { staleAfterMs: STALE });
      expect(todo.map((d) => d.actionId)).toEqual(['stale-pending', 'failed-passing', 'failed-later']);
      expect((await store.unfinishedDeliveries('completion', { staleAfterMs: STALE, limit: 1 })).map((d) => d.actionId)).toEqual(['stale-pending']);
      expect((await store.unfinishedDeliveries('urgent', { staleAfterMs: STALE })).map((d) => d.actionId)).toEqual(['other-kind']);
    });

    it('the retry sweep gives up, with a reason an admin can read, on deliveries out of attempts', async () => {
      const { store, clock } = await h.fresh();
      const opts = { staleAfterMs: STALE, maxAttempts: 2 };
      const failing = await store.claimDelivery(key({ actionId: 'failing' }), { holder: 'a', ...opts });
      await store.claimDelivery(key({ actionId: 'dying' }), { holder: 'a', ...opts });
      await store.markFailed(failing.delivery.id, 'internal_error', { retryable: true });
      clock.advance(STALE);
      await store.claimDelivery(key({ actionId: 'failing' }), { holder: 'b', ...opts });
      await store.claimDelivery(key({ actionId: 'dying' }), { holder: 'b', ...opts });
      await store.markFailed(failing.delivery.id, 'internal_error', { retryable: true });
      expect(await store.unfinishedDeliveries('completion', opts)).toEqual([]); // 'dying' is b's, and fresh
      clock.advance(STALE);
      expect(await store.unfinishedDeliveries('completion', opts)).toEqual([]);
      expect(await store.getDelivery(key({ actionId: 'failing' }))).toMatchObject({
        state: 'failed',
        retryable: false,
        lastError: 'gave up after 2 attempts; last error: internal_error',
      });
      expect(await store.getDelivery(key({ actionId: 'dying' }))).toMatchObject({
        state: 'failed',
        retryable: false,
        lastError: 'gave up after 2 attempts; the claim of b went stale',
      });
      expect((await store.claimDelivery(key({ actionId: 'dying' }), { holder: 'c', ...opts })).outcome).toBe('failed');
    });

    it('many claims of the same deliveries at once: each is claimed exactly once', async () => {
      const { store } = await h.fresh();
      const keys = Array.from({ length: 50 }, (_, i) => key({ actionId: `act-${i}` }));
      const outcomes = await Promise.all([...keys, ...keys, ...keys].map((k, i) => store.claimDelivery(k, { holder: `h${i % 3}`, staleAfterMs: STALE })));
      expect(outcomes.filter((o) => o.outcome === 'claimed')).toHaveLength(50);
      expect(outcomes.filter((o) => o.outcome === 'busy')).toHaveLength(100);
    });
  });
}
