/** Contract: job cursors, job leases, audit log, health. */
import { describe, expect, it } from 'vitest';
import { isStoreError } from '../../../src/store/index.js';
import type { Harness } from '../harness.js';

export function jobsContract(h: Harness): void {
  describe('job cursors', () => {
    it('remembers where a job got to', async () => {
      const { store } = await h.fresh();
      expect(await store.getCursor('completions')).toBeNull();
      await store.setCursor('completions', '2025-01-06 09:00:00');
      await store.setCursor('completions', '2025-01-06 09:05:00');
      await store.setCursor('other', 'x');
      expect(await store.getCursor('completions')).toBe('2025-01-06 09:05:00');
    });

    it('lists cursors by an exact prefix (no wildcard) and forgets one', async () => {
      const { store } = await h.fresh();
      await store.setCursor('reassign:a', '1');
      await store.setCursor('reassign:b@T1', '2');
      await store.setCursor('reassign:c@T12', '3');
      await store.setCursor('reassignX', '4');
      await store.setCursor('other', '5');
      expect(await store.listCursors('reassign:')).toEqual([
        { name: 'reassign:a', value: '1' },
        { name: 'reassign:b@T1', value: '2' },
        { name: 'reassign:c@T12', value: '3' },
      ]);
      expect(await store.listCursors('reassign:', 'T1')).toEqual([{ name: 'reassign:b@T1', value: '2' }]);
      expect(await store.listCursors('reassign_')).toEqual([]);
      expect(await store.deleteCursor('reassign:a')).toBe(true);
      expect(await store.deleteCursor('reassign:a')).toBe(false);
      expect((await store.listCursors('reassign:')).map((c) => c.name)).toEqual(['reassign:b@T1', 'reassign:c@T12']);
    });
  });

  describe('job leases', () => {
    it('only one holder has a job at a time; the holder can extend it', async () => {
      const { store, clock } = await h.fresh();
      expect(await store.acquireLease('digest', 'a', 30_000)).toBe(true);
      expect(await store.acquireLease('digest', 'b', 30_000)).toBe(false);
      clock.advance(20_000);
      expect(await store.acquireLease('digest', 'a', 30_000)).toBe(true);
      expect(await store.getLease('digest')).toMatchObject({ holder: 'a', expiresAt: clock() + 30_000 });
      expect(await store.acquireLease('other-job', 'b', 30_000)).toBe(true);
    });

    it("a dead holder's lease is taken over once it expires, and the old holder cannot renew it", async () => {
      const { store, clock } = await h.fresh();
      await store.acquireLease('digest', 'dead', 10_000);
      clock.advance(9_999);
      expect(await store.acquireLease('digest', 'b', 10_000)).toBe(false);
      clock.advance(1);
      expect(await store.acquireLease('digest', 'b', 10_000)).toBe(true);
      expect(await store.getLease('digest')).toMatchObject({ holder: 'b', acquiredAt: clock() });
      expect(await store.renewLease('digest', 'dead', 10_000)).toBe(false);
      expect(await store.renewLease('digest', 'b', 10_000)).toBe(true);
    });

    it('releasing lets the next holder in at once; only the holder can release', async () => {
      const { store } = await h.fresh();
      await store.acquireLease('digest', 'a', 60_000);
      expect(await store.releaseLease('digest', 'b')).toBe(false);
      expect(await store.releaseLease('digest', 'a')).toBe(true);
      expect(await store.getLease('digest')).toBeNull();
      expect(await store.acquireLease('digest', 'b', 60_000)).toBe(true);
    });

    it('many acquirers at once: exactly one wins', async () => {
      const { store } = await h.fresh();
      const wins = await Promise.all(Array.from({ length: 20 }, (_, i) => store.acquireLease('race', `h${i}`, 60_000)));
      expect(wins.filter(Boolean)).toHaveLength(1);
    });
  });

  describe('audit log', () => {
    it('records who did what to which action, newest first, with details', async () => {
      const { store, clock } = await h.fresh();
      await store.appendAudit({ teamId: 'T1', userId: 'U1', verb: 'action.complete', actionId: 'act-1', details: { via: 'button' } });
      clock.advance(1000);
      await store.appendAudit({ teamId: 'T1', userId: 'U2', verb: 'subscription.set', details: { channel: 'C1', days: ['mon'] } });
      clock.advance(1000);
      const last = await store.appendAudit({ teamId: 'T1', userId: 'U1', verb: 'action.reopen', actionId: 'act-1' });
      expect(last).toMatchObject({ verb: 'action.reopen', details: {}, at: clock(), actionId: 'act-1' });
      const all = await store.listAudit();
      expect(all.map((e) => e.verb)).toEqual(['action.reopen', 'subscription.set', 'action.complete']);
      expect(all[1]).toMatchObject({ userId: 'U2', actionId: null, details: { channel: 'C1', days: ['mon'] } });
      expect((await store.listAudit({ actionId: 'act-1' })).map((e) => e.verb)).toEqual(['action.reopen', 'action.complete']);
      expect(await store.listAudit({ limit: 1 })).toHaveLength(1);
      expect(await store.listAudit({ teamId: 'T9' })).toEqual([]);
    });

    it('reads the entries of one verb for many actions in one query', async () => {
      const { store } = await h.fresh();
      await store.appendAudit({ teamId: 'T1', userId: 'U1', verb: 'action.complete', actionId: 'act-1', details: { completed: '2026-03-10 10:42:00' } });
      await store.appendAudit({ teamId: 'T1', userId: 'U2', verb: 'action.complete', actionId: 'act-2' });
      await store.appendAudit({ teamId: 'T1', userId: 'U1', verb: 'action.reopen', actionId: 'act-1' });
      await store.appendAudit({ teamId: 'T1', userId: 'U3', verb: 'action.complete', actionId: 'act-3' });
      const found = await store.listAudit({ verb: 'action.complete', actionIds: ['act-1', 'act-2'] });
      expect(found.map((e) => [e.actionId, e.userId])).toEqual([
        ['act-2', 'U2'],
        ['act-1', 'U1'],
      ]);
      expect(found[1]!.details).toEqual({ completed: '2026-03-10 10:42:00' });
      expect(await store.listAudit({ verb: 'action.complete', actionIds: [] })).toEqual([]);
    });
  });

  describe('health', () => {
    it('answers a ping while open and says it is closed afterwards', async () => {
      const { store } = await h.fresh();
      expect(store.kind).toBe(h.kind);
      await expect(store.ping()).resolves.toBeUndefined();
      await store.close();
      await store.close();
      const error = await store.ping().catch((e: unknown) => e);
      expect(isStoreError(error, 'closed')).toBe(true);
    });
  });
}
