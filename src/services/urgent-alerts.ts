import type { Action, CareClient } from '../care/index.js';
import type { Logger } from '../logging/logger.js';
import type { Store, Subscription } from '../store/index.js';
import { ACTION_ATTRIBUTES, type ActionView } from './action-model.js';
import { toActionViews } from './action-views.js';
import type { ChannelPolicy } from './channel-policy.js';
import { unfinishedDeliveries, type Deliverer, type DeliveryResult } from './delivery.js';
import type { IdentityService } from './identity.js';
import type { MessageRenderers } from './renderers.js';

export interface UrgentAlerts {
  /**
   * Look at one changed action: when it is open and urgent, alert every channel
   * subscribed to urgent alerts, once per time it became urgent (an "episode").
   */
  consider(action: Action, subscriptions: Subscription[]): Promise<DeliveryResult[]>;
  /**
   * Try again the alerts that failed for a passing reason or were left pending
   * by a crashed run (the poller reads an action again only within its overlap).
   * An action no longer urgent is not alerted.
   */
  retryUnfinished(subscriptions: Subscription[]): Promise<number>;
}

const episodeCursor = (actionId: string) => `urgent-episode:${actionId}`;

export function createUrgentAlerts(deps: {
  store: Store;
  care: CareClient;
  identity: IdentityService;
  channels: ChannelPolicy;
  deliverer: Deliverer;
  render: Pick<MessageRenderers, 'urgentAlert'>;
  now: () => Date;
  staleAfterMs: number;
  logger: Logger;
}): UrgentAlerts {
  const alerts: UrgentAlerts = {
    async retryUnfinished(subscriptions) {
      const todo = await unfinishedDeliveries(deps.store, 'urgent', { staleAfterMs: deps.staleAfterMs, limit: 100 });
      const actionIds = new Set<string>();
      for (const d of todo) {
        // Only the episode still running: an alert of an episode that ended is not sent late (the row says so).
        if ((await deps.store.getCursor(episodeCursor(d.actionId))) === d.occurrence) actionIds.add(d.actionId);
        else await deps.deliverer.record(d, { failed: 'no longer urgent', retryable: false });
      }
      for (const id of actionIds) {
        try {
          await alerts.consider(await deps.care.actions.retrieve(id, { attributes: [...ACTION_ATTRIBUTES] }), subscriptions);
        } catch (err) {
          deps.logger.warn('retrying an urgent alert failed; it stays in the ledger for the next run', { actionId: id, error: err });
        }
      }
      return actionIds.size;
    },

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
      const views = new Map<string, ActionView>(); // one view per team, however many channels
      for (const sub of targets) {
        const view = views.get(sub.teamId) ?? (await toActionViews([action], sub.teamId, deps.identity))[0]!;
        views.set(sub.teamId, view);
        const showTask = await deps.channels.showTasksIn(sub.teamId, sub.channelId);
        const alert = deps.render.urgentAlert(view, { now: deps.now(), timezone: sub.timeZone, showTask, shared: true });
        results.push(
          await deps.deliverer.deliver(
            { kind: 'urgent', actionId: action._id, occurrence: episode, recipient: `channel:${sub.teamId}/${sub.channelId}` },
            sub.channelId,
            alert,
          ),
        );
      }
      return results;
    },
  };
  return alerts;
}
