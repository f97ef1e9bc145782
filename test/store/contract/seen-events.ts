/** Contract: Events API deliveries already admitted, by event_id (the receiver runs each event once). */
import { describe, expect, it } from 'vitest';
import type { Harness } from '../harness.js';

const MINUTE = 60_000;

export function seenEventsContract(h: Harness): void {
  describe('seen events', () => {
    const at = (now: number, claim: string) => ({ claim, now, staleBefore: now - 30_000, expiresAt: now + 15 * MINUTE });

    it('an event runs once: a copy of one that was acked is refused, on any instance, until it expires', async () => {
      const { store, clock, open } = await h.fresh();
      const other = await open();
      const now = clock();
      expect(await store.admitEvent('Ev1', at(now, 'a'))).toBe('admitted');
      expect(await store.settleEvent('Ev1', 'a', 'acked')).toBe(true);
      expect(await store.admitEvent('Ev1', at(now + 1_000, 'b'))).toBe('acked');
      expect(await other.admitEvent('Ev1', at(now + 10 * MINUTE, 'c'))).toBe('acked');
      expect(await store.admitEvent('Ev2', at(now, 'd'))).toBe('admitted');
      expect(await other.admitEvent('Ev1', at(now + 15 * MINUTE, 'e'))).toBe('admitted');
    });

    it('a copy arriving while the first is still being answered is refused; once that one is abandoned (never answered), the next copy runs', async () => {
      const { store, clock } = await h.fresh();
      const now = clock();
      expect(await store.admitEvent('Ev1', at(now, 'first'))).toBe('admitted');
      expect(await store.admitEvent('Ev1', at(now + 3_000, 'retry-1'))).toBe('in-flight');
      expect(await store.admitEvent('Ev1', at(now + 60_000, 'retry-2'))).toBe('admitted');
      // The abandoned copy answering late changes nothing: the row is the retry's.
      expect(await store.settleEvent('Ev1', 'first', 'acked')).toBe(false);
      expect(await store.settleEvent('Ev1', 'retry-2', 'acked')).toBe(true);
      expect(await store.admitEvent('Ev1', at(now + 6 * MINUTE, 'retry-3'))).toBe('acked');
    });

    it('a copy answered with an error lets the next copy run at once', async () => {
      const { store, clock } = await h.fresh();
      const now = clock();
      expect(await store.admitEvent('Ev1', at(now, 'first'))).toBe('admitted');
      expect(await store.settleEvent('Ev1', 'first', 'failed')).toBe(true);
      expect(await store.admitEvent('Ev1', at(now + 1, 'retry-1'))).toBe('admitted');
    });

    it('many copies at once: exactly one runs', async () => {
      const { store, clock } = await h.fresh();
      const now = clock();
      const admitted = await Promise.all(Array.from({ length: 20 }, (_, i) => store.admitEvent('race', at(now, `c${i}`))));
      expect(admitted.filter((a) => a === 'admitted')).toHaveLength(1);
    });

    it('expired events are pruned (counted)', async () => {
      const { store, clock } = await h.fresh();
      const now = clock();
      await store.admitEvent('old', { claim: 'a', now, staleBefore: now, expiresAt: now + 1_000 });
      await store.admitEvent('live', at(now, 'b'));
      expect(await store.pruneSeenEvents(now + 1_000)).toBe(1);
      expect(await store.pruneSeenEvents(now + 15 * MINUTE)).toBe(1);
    });
  });
}
