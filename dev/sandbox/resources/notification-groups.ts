import type { ListSpec } from '../list-spec.js';
import type { NotificationGroup } from './types.js';

export const notificationGroupsList: ListSpec<NotificationGroup> = {
  resource: 'notification-groups',
  attributes: ['_id', 'created', 'description', 'email_to', 'modified', 'name', 'users'],
  sortFields: ['_id', 'created', 'modified', 'name'],
  qFields: ['description', 'name'],
  filters: {},
};
