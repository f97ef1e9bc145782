import type { WebClient } from '@slack/web-api';
import type { Action } from '../care/index.js';
import type { Store, Subscription } from '../store/index.js';
import { urgentAlert } from '../slack/views/notices.js';
import { toActionViews } from './action-views.js';
import type { ChannelPolicy } from './channel-policy.js';
import type { Deliverer, DeliveryResult } from './delivery.js';
import type { IdentityService } from './identity.js';

export interface UrgentAlerts {
  /**
   * Look at one changed action: when it is open and urgent, alert every channel
   * subscribed to urgent alerts, once per time it became urgent (an "episode").
   */
  consider(action: Action, subscriptions: Subscription[]): Promise<DeliveryResult[]>;
}

const episodeCursor = (actionId: string) => `urgent-episode:${actionId}`;

export function createUrgentAlerts(deps: { store: Store; slack: WebClient; identity: IdentityService; channels: ChannelPolicy; deliverer: Deliverer; now: () => Date }): UrgentAlerts {
  return {
    async consider(action, subscriptions) {
      const results: DeliveryResult[] = [];
      const key = episodeCursor(action._id);
      let episode = await deps.store.getCursor(key);
      if (!action.urgent || action.completed) {
        if (episode) await deps.store.setCursor(key, ''); // the episode is over: becoming urgent again alerts again
        return results;
      }
      if (!episode) {
        episode = action.modified ?? deps.now().toISOString();
        await deps.store.setCursor(key, episode);
      }
      const targets = subscriptions.filter((s) => s.urgentAlerts && (!s.filters.locationId || s.filters.locationId === action.location));
      for (const sub of targets) {
        const [view] = await toActionViews([action], sub.teamId, deps.identity);
        const showTask = await deps.channels.showTasksIn(sub.teamId, sub.channelId);
        const alert = urgentAlert(view!, { now: deps.now(), timezone: sub.timeZone, showTask });
        results.push(
          await deps.deliverer.deliver({ kind: 'urgent', actionId: action._id, occurrence: episode, recipient: `channel:${sub.teamId}/${sub.channelId}` }, sub.channelId, alert),
        );
      }
      return results;
    },
  };
}
