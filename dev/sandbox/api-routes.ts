import { ApiError } from './errors.js';
import type { Permission } from './keys.js';
import type { ListSpec } from './list-spec.js';
import { parseListQuery } from './list-query.js';
import { runList } from './list-runner.js';
import type { Params } from './params.js';
import type { RecordCache } from './record-cache.js';
import type { ResponseCache } from './response-cache.js';
import { completeAction, createAction, reopenAction, updateAction } from './resources/action-ops.js';
import { actionsList } from './resources/actions.js';
import { literatureItemsList } from './resources/literature-items.js';
import { locationsList } from './resources/locations.js';
import { notificationGroupsList } from './resources/notification-groups.js';
import type { WireRecord } from './resources/types.js';
import { usersList } from './resources/users.js';
import type { ResourceName, Store } from './store.js';

export interface RouteContext {
  store: Store;
  cache: RecordCache;
  lists: ResponseCache;
  params: Params;
  /** Raw query string (the key of cached list responses). */
  query: string;
  /** The `<id>` path segment, when the route has one. */
  id: string;
}

/** Returns the JSON body of a 200 response (or throws an ApiError). */
export type Handler = (ctx: RouteContext) => string;

export interface Operation {
  permission: Permission;
  handler: Handler;
}

export interface Route {
  /** e.g. `/v1/actions/:id/complete` (stats key). */
  template: string;
  resource: ResourceName;
  methods: Readonly<Record<string, Operation>>;
}

const SPECS: Record<ResourceName, ListSpec<WireRecord>> = {
  actions: actionsList as unknown as ListSpec<WireRecord>,
  'notification-groups': notificationGroupsList as unknown as ListSpec<WireRecord>,
  locations: locationsList as unknown as ListSpec<WireRecord>,
  'literature-items': literatureItemsList as unknown as ListSpec<WireRecord>,
  users: usersList as unknown as ListSpec<WireRecord>,
};

const SINGULAR: Record<ResourceName, string> = {
  actions: 'action',
  'notification-groups': 'notification group',
  locations: 'location',
  'literature-items': 'literature item',
  users: 'user',
};

function listHandler(resource: ResourceName): Handler {
  return ({ store, cache, lists, params, query }) => {
    const collection = store.collection(resource);
    const key = `${resource}?${query}`;
    const cached = lists.get(key, collection.changeCount);
    if (cached !== undefined) return cached;
    const body = runList(collection, parseListQuery(SPECS[resource], params, cache.haystack), cache);
    lists.set(key, collection.changeCount, body);
    return body;
  };
}

function retrieveHandler(resource: ResourceName): Handler {
  return ({ store, cache, id }) => {
    const record = store.collection(resource).get(id);
    if (!record) throw new ApiError(404, `No ${SINGULAR[resource]} with Id ${id}.`);
    return cache.full(record);
  };
}

function table(): Map<string, Route> {
  const routes = new Map<string, Route>();
  for (const resource of Object.keys(SPECS) as ResourceName[]) {
    const listOps: Record<string, Operation> = { GET: { permission: 'read', handler: listHandler(resource) } };
    const itemOps: Record<string, Operation> = { GET: { permission: 'read', handler: retrieveHandler(resource) } };
    if (resource === 'actions') {
      listOps.PUT = { permission: 'create', handler: ({ store, cache, params }) => cache.full(createAction(store, params)) };
      itemOps.PATCH = { permission: 'update', handler: ({ store, cache, params, id }) => cache.full(updateAction(store, id, params)) };
    }
    routes.set(resource, { template: `/v1/${resource}`, resource, methods: listOps });
    routes.set(`${resource}/:id`, { template: `/v1/${resource}/:id`, resource, methods: itemOps });
  }
  const complete: Handler = ({ store, cache, id }) => cache.full(completeAction(store, id));
  const reopen: Handler = ({ store, cache, id }) => cache.full(reopenAction(store, id));
  routes.set('actions/:id/complete', {
    template: '/v1/actions/:id/complete',
    resource: 'actions',
    methods: { PATCH: { permission: 'update', handler: complete } },
  });
  routes.set('actions/:id/reopen', { template: '/v1/actions/:id/reopen', resource: 'actions', methods: { PATCH: { permission: 'update', handler: reopen } } });
  return routes;
}

const ROUTES = table();

/** Match `/v1/...` (trailing slashes ignored) to a route and its `<id>`. */
export function matchRoute(path: string): { route: Route; id: string } | undefined {
  const parts = path.split('/').filter((p) => p !== '');
  if (parts[0] !== 'v1' || parts.length < 2 || parts.length > 4) return undefined;
  const [, resource, id = '', action] = parts as [string, string, string?, string?];
  const key = parts.length === 2 ? resource : parts.length === 3 ? `${resource}/:id` : `${resource}/:id/${action}`;
  const route = ROUTES.get(key);
  return route ? { route, id } : undefined;
}
