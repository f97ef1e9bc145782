/**
 * Contract: a workspace's reads stay in that workspace. Each team filter keeps T1's rows
 * from T12's (a team is never a prefix match of another, nor matched by case or a LIKE
 * wildcard), and leaving the filter out still reads every workspace.
 */
import { describe, expect, it } from 'vitest';
import type { Delivery, DeliveryKey } from '../../../src/store/index.js';
import type { Harness } from '../harness.js';

const STALE = 60_000;
const DAY = 24 * 3600_000;
const key = (recipient: string, actionId = 'act-1'): DeliveryKey => ({ kind: 'completion', actionId, occurrence: '2025-01-06T09:00:00Z', recipient });
const recipients = (rows: Delivery[]) => rows.map((d) => d.recipient).sort();

export function teamScopeContract(h: Harness): void {
  describe('team filters', () => {
    it('the ledger reads (retry sweep, status, list, count) keep each workspace to its own recipients', async () => {
      const { store, clock } = await h.fresh();
      const claim = async (recipient: string) => (await store.claimDelivery(key(recipient), { holder: 'a', staleAfterMs: STALE })).delivery.id;
      const failRetryable = async (recipient: string) => store.markFailed(await claim(recipient), 'ratelimited', { retryable: true });
      await failRetryable('user:T1/U1');
      await claim('channel:T1/C1'); // goes stale below
      await store.markSent(await claim('email:T1/0123456789abcdef'), { channel: 'D1', ts: '1.1' });
      await failRetryable('user:T12/U1');
      await store.markFailed(await claim('channel:T12/C1'), 'channel_not_found', { retryable: false });
      await failRetryable('user:t1/U1');
      await failRetryable('user:T%/U1');
      clock.advance(STALE);
      const all = ['channel:T1/C1', 'channel:T12/C1', 'email:T1/0123456789abcdef', 'user:T%/U1', 'user:T1/U1', 'user:T12/U1', 'user:t1/U1'];

      const sweep = (teamId?: string) => store.unfinishedDeliveries('completion', { staleAfterMs: STALE, ...(teamId === undefined ? {} : { teamId }) });
      expect(recipients(await sweep('T1'))).toEqual(['channel:T1/C1', 'user:T1/U1']);
      expect(recipients(await sweep('T12'))).toEqual(['user:T12/U1']);
      expect(recipients(await sweep('t1'))).toEqual(['user:t1/U1']);
      expect(recipients(await sweep('T%'))).toEqual(['user:T%/U1']);
      expect(await sweep('T')).toEqual([]);
      expect(recipients(await sweep())).toEqual(['channel:T1/C1', 'user:T%/U1', 'user:T1/U1', 'user:T12/U1', 'user:t1/U1']);

      expect(recipients(await store.listDeliveries({ teamId: 'T1' }))).toEqual(['channel:T1/C1', 'email:T1/0123456789abcdef', 'user:T1/U1']);
      expect(recipients(await store.listDeliveries({ teamId: 'T12', state: 'failed' }))).toEqual(['channel:T12/C1', 'user:T12/U1']);
      expect(await store.listDeliveries({ teamId: 'T_' })).toEqual([]);
      expect(recipients(await store.listDeliveries())).toEqual(all);
      expect(await store.countDeliveries({ teamId: 'T1' })).toBe(3);
      expect(await store.countDeliveries({ teamId: 'T12' })).toBe(2);
      expect(await store.countDeliveries({ teamId: 'T' })).toBe(0);
      expect(await store.countDeliveries()).toBe(all.length);

      const t1 = await store.recentDeliveries({ windowMs: DAY, teamId: 'T1' });
      expect({ ...t1, failedRows: recipients(t1.failedRows) }).toEqual({ sent: 1, pending: 1, failed: 1, failedRows: ['user:T1/U1'] });
      const t12 = await store.recentDeliveries({ windowMs: DAY, teamId: 'T12' });
      expect({ ...t12, failedRows: recipients(t12.failedRows) }).toEqual({ sent: 0, pending: 0, failed: 2, failedRows: ['channel:T12/C1', 'user:T12/U1'] });
      expect(await store.recentDeliveries({ windowMs: DAY, teamId: 'T' })).toEqual({ sent: 0, pending: 0, failed: 0, failedRows: [] });
      const every = await store.recentDeliveries({ windowMs: DAY });
      expect({ sent: every.sent, pending: every.pending, failed: every.failed, failedRows: every.failedRows.length }).toEqual({
        sent: 1,
        pending: 1,
        failed: 5,
        failedRows: 5,
      });
    });

    it("one workspace's retry sweep gives up only on its own rows out of attempts", async () => {
      const { store } = await h.fresh();
      for (const recipient of ['user:T1/U1', 'user:T12/U1']) {
        const id = (await store.claimDelivery(key(recipient), { holder: 'a', staleAfterMs: STALE })).delivery.id;
        await store.markFailed(id, 'ratelimited', { retryable: true });
      }
      expect(await store.unfinishedDeliveries('completion', { staleAfterMs: STALE, maxAttempts: 1, teamId: 'T1' })).toEqual([]);
      expect(await store.getDelivery(key('user:T1/U1'))).toMatchObject({ state: 'failed', retryable: false });
      expect(await store.getDelivery(key('user:T12/U1'))).toMatchObject({ state: 'failed', retryable: true, lastError: 'ratelimited' });
      expect(recipients(await store.unfinishedDeliveries('completion', { staleAfterMs: STALE, teamId: 'T12' }))).toEqual(['user:T12/U1']);
    });

    it('summaries on, group routes and links of a care user stay in their workspace', async () => {
      const { store } = await h.fresh();
      for (const teamId of ['T1', 'T12']) {
        await store.upsertSummarySetting({ teamId, slackUserId: 'U1', time: '07:30', days: 'weekdays', enabled: true });
        await store.upsertSummarySetting({ teamId, slackUserId: 'U2', time: '07:30', days: 'weekdays', enabled: teamId === 'T12' });
        await store.upsertRoute({ teamId, groupId: 'g1', groupName: 'Night staff', channelId: `C-${teamId}`, setUpBy: 'UA' });
        await store.upsertLink({ teamId, slackUserId: `U-${teamId}`, careUserId: 'care-1', method: 'admin', linkedBy: 'UA' });
      }
      const who = (rows: { teamId: string; slackUserId: string }[]) => rows.map((r) => `${r.teamId}/${r.slackUserId}`);

      expect(who(await store.listEnabledSummarySettings('T1'))).toEqual(['T1/U1']);
      expect(who(await store.listEnabledSummarySettings('T12'))).toEqual(['T12/U1', 'T12/U2']);
      expect(await store.listEnabledSummarySettings('T')).toEqual([]);
      expect(who(await store.listEnabledSummarySettings())).toEqual(['T1/U1', 'T12/U1', 'T12/U2']);

      expect((await store.routesForGroups(['g1', 'g2'], 'T1')).map((r) => r.channelId)).toEqual(['C-T1']);
      expect((await store.routesForGroups(['g1'], 'T12')).map((r) => r.channelId)).toEqual(['C-T12']);
      expect(await store.routesForGroups(['g1'], 'T')).toEqual([]);
      expect(await store.routesForGroups([], 'T1')).toEqual([]);
      expect((await store.routesForGroups(['g1'])).map((r) => r.channelId)).toEqual(['C-T1', 'C-T12']);

      expect(who(await store.getLinksByCareUser('care-1', 'T1'))).toEqual(['T1/U-T1']);
      expect(who(await store.getLinksByCareUser('care-1', 'T12'))).toEqual(['T12/U-T12']);
      expect(await store.getLinksByCareUser('care-1', 'T')).toEqual([]);
      expect(who(await store.getLinksByCareUser('care-1'))).toEqual(['T1/U-T1', 'T12/U-T12']);
    });
  });
}
