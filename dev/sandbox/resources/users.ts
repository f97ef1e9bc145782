import type { ListSpec } from '../list-spec.js';
import type { User } from './types.js';

/** Users are beyond the spec (facts file): list/retrieve with the common filters only. */
export const usersList: ListSpec<User> = {
  resource: 'users',
  attributes: ['_id', 'created', 'email', 'first_name', 'last_name', 'location_role', 'locations', 'mobile', 'modified'],
  sortFields: ['_id', 'created', 'modified', 'email', 'first_name', 'last_name'],
  qFields: ['first_name', 'last_name', 'email'],
  filters: {},
};
