/** Contract: each person's own morning summary setting. */
import { describe, expect, it } from 'vitest';
import type { SummarySettingInput } from '../../../src/store/index.js';
import { isStoreError } from '../../../src/store/index.js';
import type { Harness } from '../harness.js';

const setting = (over: Partial<SummarySettingInput> = {}): SummarySettingInput => ({
  teamId: 'T1',
  slackUserId: 'U1',
  time: '07:30',
  days: 'weekdays',
  enabled: true,
  ...over,
});

export function summariesContract(h: Harness): void {
  describe('morning summary settings', () => {
    it('keeps a person’s setting as given, stamped with when it was set', async () => {
      const { store, clock } = await h.fresh();
      const saved = await store.upsertSummarySetting(setting());
      expect(saved).toEqual({ ...setting(), setAt: clock() });
      expect(await store.getSummarySetting('T1', 'U1')).toEqual(saved);
      expect(await store.getSummarySetting('T1', 'U2')).toBeNull();
      expect(await store.getSummarySetting('T2', 'U1')).toBeNull();
    });

    it('one per person: a change replaces it; off keeps the time and days and leaves the list of those on', async () => {
      const { store, clock } = await h.fresh();
      await store.upsertSummarySetting(setting());
      await store.upsertSummarySetting(setting({ slackUserId: 'U2', days: 'daily' }));
      await store.upsertSummarySetting(setting({ teamId: 'T0', slackUserId: 'U9' }));
      clock.advance(60_000);
      await store.upsertSummarySetting(setting({ time: '06:45', days: 'daily' }));
      expect(await store.getSummarySetting('T1', 'U1')).toEqual({ ...setting({ time: '06:45', days: 'daily' }), setAt: clock() });
      expect((await store.listEnabledSummarySettings()).map((s) => `${s.teamId}/${s.slackUserId}`)).toEqual(['T0/U9', 'T1/U1', 'T1/U2']);

      await store.upsertSummarySetting(setting({ slackUserId: 'U2', days: 'daily', enabled: false }));
      expect(await store.getSummarySetting('T1', 'U2')).toMatchObject({ time: '07:30', days: 'daily', enabled: false });
      expect((await store.listEnabledSummarySettings()).map((s) => s.slackUserId)).toEqual(['U9', 'U1']);
    });

    it('another instance on the same database sees the same settings', async () => {
      const { store, open } = await h.fresh();
      await store.upsertSummarySetting(setting());
      const other = await open();
      expect(await other.getSummarySetting('T1', 'U1')).toMatchObject({ time: '07:30', enabled: true });
    });

    it.each([
      ['a time that is not HH:MM', { time: '7:30' }],
      ['an hour past 23', { time: '24:00' }],
      ['unknown days', { days: 'weekends' as SummarySettingInput['days'] }],
    ])('refuses %s with a clear error and keeps nothing', async (_label, bad) => {
      const { store } = await h.fresh();
      const error = await store.upsertSummarySetting(setting(bad)).catch((e: unknown) => e);
      expect(isStoreError(error, 'invalid-input')).toBe(true);
      expect(await store.getSummarySetting('T1', 'U1')).toBeNull();
    });
  });
}
