/**
 * One workspace's view of the store, for a deployment serving many: every
 * list a workspace's services make stays inside its team, and its cursors
 * (poll position, urgent episodes, assignment memory...) are its own. A
 * workspace's services are built over this view, never over the whole store,
 * so one care provider's data cannot reach another's Slack.
 *
 * Rows already keyed by team (links, subscriptions, settings) are read by
 * their key as before. Care Ids (actions, care users, groups) are not unique
 * across care accounts, so every list by a care Id is narrowed to the team.
 */
import type { Delivery, Store } from '../store/index.js';

/** The name a workspace's cursor is kept under (single-workspace deployments keep the bare name). */
export const workspaceCursor = (name: string, teamId: string) => `${name}@${teamId}`;

const recipientTeam = (recipient: string) => /^[a-z-]+:([^/]*)\//.exec(recipient)?.[1];

export function storeForWorkspace(store: Store, teamId: string): Store {
  const inTeam = (d: Delivery | null) => (d && recipientTeam(d.recipient) === teamId ? d : null);
  const overrides: Partial<Store> = {
    getLinksByCareUser: (careUserId) => store.getLinksByCareUser(careUserId, teamId),
    listLinks: () => store.listLinks(teamId),
    listLinkRequests: (filter) => store.listLinkRequests({ ...filter, teamId }),
    getLinkRequest: async (id) => {
      const request = await store.getLinkRequest(id);
      return request?.teamId === teamId ? request : null;
    },
    listSubscriptions: () => store.listSubscriptions(teamId),
    listEnabledSummarySettings: () => store.listEnabledSummarySettings(teamId),
    listRoutes: () => store.listRoutes(teamId),
    routesForGroups: (groupIds) => store.routesForGroups(groupIds, teamId),
    getDeliveryById: async (id) => inTeam(await store.getDeliveryById(id)),
    reopenDelivery: async (id) => ((await overrides.getDeliveryById!(id)) ? store.reopenDelivery(id) : null),
    listDeliveries: (filter) => store.listDeliveries({ ...filter, teamId }),
    countDeliveries: (filter) => store.countDeliveries({ ...filter, teamId }),
    unfinishedDeliveries: (kind, query) => store.unfinishedDeliveries(kind, { ...query, teamId }),
    recentDeliveries: (query) => store.recentDeliveries({ ...query, teamId }),
    listAudit: (query) => store.listAudit({ ...query, teamId }),
    getCursor: (name) => store.getCursor(workspaceCursor(name, teamId)),
    setCursor: (name, value) => store.setCursor(workspaceCursor(name, teamId), value),
    // A workspace's services never close the shared store.
    close: async () => undefined,
  };
  return new Proxy(store, {
    get(target, property, receiver) {
      if (Object.hasOwn(overrides, property)) return overrides[property as keyof Store];
      const value = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
