/**
 * Which channels hear of an urgent action: only those set up for urgent alerts; a digest-only channel is not
 * alerted, and a channel set up a moment ago is read at once.
 */
import { describe, expect, it } from 'vitest';
import type { Subscription } from '../../../src/store/index.js';
import { urgentAlertChannelsFor, urgentAlertSubscriptions, urgentAlertSubscriptionsOf } from '../../../src/services/urgent/urgent-audience.js';

const channel = (channelId: string, urgentAlerts: boolean, locationId?: string): Subscription => ({
  teamId: 'T1',
  channelId,
  time: '08:00',
  days: 'weekdays',
  timeZone: 'Europe/London',
  filters: locationId ? { locationId } : {},
  showTaskText: false,
  postWhenEmpty: false,
  urgentAlerts,
  channelPrivate: false,
  setUpBy: 'U1',
  setUpAt: 0,
});

describe('who hears of an urgent action', () => {
  it('the channels set up for urgent alerts, never a digest-only channel', () => {
    const told = urgentAlertSubscriptions([channel('C-digest', false), channel('C-urgent', true), channel('C-both', true)]);
    expect(told.map((s) => s.channelId)).toEqual(['C-urgent', 'C-both']);
    expect(urgentAlertSubscriptions([channel('C-digest', false)])).toEqual([]);
  });

  it('reads the channels as they are at each use: one set up since the last alert is alerted too', async () => {
    const subscriptions = [channel('C-urgent', true)];
    const store = { listSubscriptions: async () => subscriptions };
    expect((await urgentAlertSubscriptionsOf(store)).map((s) => s.channelId)).toEqual(['C-urgent']);
    subscriptions.push(channel('C-new', true), channel('C-quiet', false));
    expect((await urgentAlertSubscriptionsOf(store)).map((s) => s.channelId)).toEqual(['C-urgent', 'C-new']);
  });

  it('an alert about an action goes to the urgent channels of its location and of every location, not of another', () => {
    const subscriptions = [
      channel('C-all', true),
      channel('C-rose', true, 'rose-wing'),
      channel('C-oak', true, 'oak-wing'),
      channel('C-rose-digest', false, 'rose-wing'),
    ];
    expect(urgentAlertChannelsFor(subscriptions, { location: 'rose-wing' }).map((s) => s.channelId)).toEqual(['C-all', 'C-rose']);
    expect(urgentAlertChannelsFor(subscriptions, {}).map((s) => s.channelId)).toEqual(['C-all']);
  });
});
