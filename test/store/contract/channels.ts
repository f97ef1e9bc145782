/** Contract: channel digest subscriptions and notification-group routes. */
import { describe, expect, it } from 'vitest';
import type { SubscriptionInput } from '../../../src/store/index.js';
import { isStoreError } from '../../../src/store/index.js';
import type { Harness } from '../harness.js';

const digest = (over: Partial<SubscriptionInput> = {}): SubscriptionInput => ({
  teamId: 'T1',
  channelId: 'C1',
  time: '08:30',
  days: 'weekdays',
  timeZone: 'Europe/London',
  filters: { careUserIds: ['care-1', 'care-2'], slackUserIds: ['U7'], urgentOnly: true, locationId: 'loc-1' },
  showTaskText: false,
  postWhenEmpty: true,
  urgentAlerts: true,
  channelPrivate: true,
  setUpBy: 'UADMIN',
  ...over,
});

export function channelsContract(h: Harness): void {
  describe('channel subscriptions', () => {
    it('keeps every setting of a channel digest as given', async () => {
      const { store, clock } = await h.fresh();
      const saved = await store.upsertSubscription(digest());
      expect(saved).toEqual({ ...digest(), setUpAt: clock() });
      expect(await store.getSubscription('T1', 'C1')).toEqual(saved);
      expect(await store.getSubscription('T1', 'C2')).toBeNull();
    });

    it('keeps false flags false and an empty filter empty', async () => {
      const { store } = await h.fresh();
      await store.upsertSubscription(digest({ filters: {}, postWhenEmpty: false, urgentAlerts: false, channelPrivate: false, showTaskText: true }));
      expect(await store.getSubscription('T1', 'C1')).toMatchObject({
        filters: {},
        postWhenEmpty: false,
        urgentAlerts: false,
        channelPrivate: false,
        showTaskText: true,
      });
    });

    it('re-configuring a channel replaces its digest (one per channel)', async () => {
      const { store, clock } = await h.fresh();
      await store.upsertSubscription(digest());
      clock.advance(1000);
      await store.upsertSubscription(digest({ time: '17:00', days: 'daily', filters: { mineOnly: true }, setUpBy: 'U2' }));
      const all = await store.listSubscriptions();
      expect(all).toHaveLength(1);
      expect(all[0]).toMatchObject({ time: '17:00', days: 'daily', filters: { mineOnly: true }, setUpBy: 'U2', setUpAt: clock() });
    });

    it('lists per workspace and deletes once', async () => {
      const { store } = await h.fresh();
      await store.upsertSubscription(digest());
      await store.upsertSubscription(digest({ channelId: 'C2' }));
      await store.upsertSubscription(digest({ teamId: 'T2' }));
      expect((await store.listSubscriptions('T1')).map((s) => s.channelId)).toEqual(['C1', 'C2']);
      expect(await store.deleteSubscription('T1', 'C1')).toBe(true);
      expect(await store.deleteSubscription('T1', 'C1')).toBe(false);
      expect(await store.listSubscriptions()).toHaveLength(2);
    });

    it.each([
      ['a time that is not HH:MM', { time: '8:30' }],
      ['an hour past 23', { time: '24:00' }],
      ['an unknown time zone', { timeZone: 'Mars/Olympus' }],
      ['filters of the wrong shape', { filters: { careUserIds: 'care-1' } as unknown as SubscriptionInput['filters'] }],
    ])('refuses %s with a clear error and keeps nothing', async (_label, bad) => {
      const { store } = await h.fresh();
      const error = await store.upsertSubscription(digest(bad)).catch((e: unknown) => e);
      expect(isStoreError(error, 'invalid-input')).toBe(true);
      expect(await store.listSubscriptions()).toEqual([]);
    });
  });

  describe('notification-group routes', () => {
    it("routes groups to channels and finds the routes for an action's groups", async () => {
      const { store, clock } = await h.fresh();
      const route = await store.upsertRoute({ teamId: 'T1', groupId: 'g1', groupName: 'Night staff', channelId: 'C1', setUpBy: 'UA' });
      expect(route).toEqual({ teamId: 'T1', groupId: 'g1', groupName: 'Night staff', channelId: 'C1', setUpBy: 'UA', setUpAt: clock() });
      await store.upsertRoute({ teamId: 'T1', groupId: 'g2', groupName: 'Managers', channelId: 'C2', setUpBy: 'UA' });
      await store.upsertRoute({ teamId: 'T2', groupId: 'g1', groupName: 'Night staff', channelId: 'C9', setUpBy: 'UB' });
      const found = await store.routesForGroups(['g1', 'unknown', 'g1']);
      expect(found.map((r) => `${r.teamId}/${r.channelId}`)).toEqual(['T1/C1', 'T2/C9']);
      expect(await store.routesForGroups([])).toEqual([]);
      expect((await store.listRoutes('T1')).map((r) => r.groupName)).toEqual(['Managers', 'Night staff']);
    });

    it('re-routing a group moves it to the new channel; deleting stops it', async () => {
      const { store } = await h.fresh();
      await store.upsertRoute({ teamId: 'T1', groupId: 'g1', groupName: 'Night', channelId: 'C1', setUpBy: 'UA' });
      await store.upsertRoute({ teamId: 'T1', groupId: 'g1', groupName: 'Night staff', channelId: 'C5', setUpBy: 'UB' });
      expect(await store.listRoutes()).toMatchObject([{ groupName: 'Night staff', channelId: 'C5', setUpBy: 'UB' }]);
      expect(await store.deleteRoute('T1', 'g1')).toBe(true);
      expect(await store.routesForGroups(['g1'])).toEqual([]);
    });
  });
}
