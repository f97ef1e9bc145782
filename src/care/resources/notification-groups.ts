import { notificationGroupSchema, type NotificationGroup } from '../schemas.js';
import type { Transport } from '../transport.js';
import type { CommonFilters, ListParams } from './list-params.js';
import { createReadResource, type ReadResource } from './read-resource.js';

export type NotificationGroupField = keyof NotificationGroup & string;
export type NotificationGroupSortField = '_id' | 'created' | 'modified' | 'name';
/** `q` searches description and name. */
export type NotificationGroupFilters = CommonFilters;
export type NotificationGroupListParams = ListParams<NotificationGroupField, NotificationGroupSortField, NotificationGroupFilters>;
export type NotificationGroupsResource = ReadResource<NotificationGroup, NotificationGroupListParams, NotificationGroupField>;

export function createNotificationGroupsResource(transport: Transport): NotificationGroupsResource {
  return createReadResource(transport, 'notification-groups', notificationGroupSchema);
}
