/** Contract: signed requests already seen (the replay memory of the Slack receiver). */
import { describe, expect, it } from 'vitest';
import type { Harness } from '../harness.js';

export function seenRequestsContract(h: Harness): void {
  describe('seen requests', () => {
    it('a request key is new the first time and not again while it is remembered', async () => {
      const { store, clock } = await h.fresh();
      const now = clock();
      expect(await store.markRequestSeen('sig-a', { now, expiresAt: now + 60_000 })).toBe(true);
      expect(await store.markRequestSeen('sig-a', { now: now + 59_999, expiresAt: now + 120_000 })).toBe(false);
      expect(await store.markRequestSeen('sig-b', { now, expiresAt: now + 60_000 })).toBe(true);
    });

    it('accepts the health check’s write probe, which no request key can meet and the next prune removes', async () => {
      const { store, clock } = await h.fresh();
      await expect(store.probeWrite()).resolves.toBeUndefined();
      await expect(store.probeWrite()).resolves.toBeUndefined();
      expect(await store.pruneSeenRequests(clock())).toBe(1);
    });

    it('a key given back is new again at once; giving back one not remembered says so', async () => {
      const { store, clock } = await h.fresh();
      const now = clock();
      expect(await store.markRequestSeen('undo-a', { now, expiresAt: now + 60_000 })).toBe(true);
      expect(await store.forgetRequestSeen('undo-a')).toBe(true);
      expect(await store.forgetRequestSeen('undo-a')).toBe(false);
      expect(await store.markRequestSeen('undo-a', { now, expiresAt: now + 60_000 })).toBe(true);
      expect(await store.markRequestSeen('undo-a', { now, expiresAt: now + 60_000 })).toBe(false);
    });

    it('another instance on the same database remembers it too', async () => {
      const { store, clock, open } = await h.fresh();
      const other = await open();
      const now = clock();
      expect(await store.markRequestSeen('sig-a', { now, expiresAt: now + 60_000 })).toBe(true);
      expect(await other.markRequestSeen('sig-a', { now, expiresAt: now + 60_000 })).toBe(false);
    });

    it('many at once with the same key: exactly one is first', async () => {
      const { store, clock } = await h.fresh();
      const now = clock();
      const firsts = await Promise.all(Array.from({ length: 20 }, () => store.markRequestSeen('race', { now, expiresAt: now + 60_000 })));
      expect(firsts.filter(Boolean)).toHaveLength(1);
    });

    it('expired keys are pruned (counted), and an expired key counts as new', async () => {
      const { store, clock } = await h.fresh();
      const now = clock();
      await store.markRequestSeen('old-1', { now, expiresAt: now + 1_000 });
      await store.markRequestSeen('old-2', { now, expiresAt: now + 1_000 });
      await store.markRequestSeen('live', { now, expiresAt: now + 60_000 });
      expect(await store.markRequestSeen('old-1', { now: now + 1_000, expiresAt: now + 61_000 })).toBe(true);
      expect(await store.pruneSeenRequests(now + 1_000)).toBe(1);
      expect(await store.markRequestSeen('old-2', { now: now + 1_000, expiresAt: now + 61_000 })).toBe(true);
      expect(await store.markRequestSeen('live', { now: now + 1_000, expiresAt: now + 61_000 })).toBe(false);
      expect(await store.pruneSeenRequests(now + 61_000)).toBe(3);
    });
  });
}
