/**
 * GET /v1/users: real but beyond the spec (needs the key's Users > Read
 * permission). Callers should expect ForbiddenError (403) or NotFoundError
 * (404) and fall back to links made by admins.
 */
import { careUserSchema, type CareUser } from '../schemas.js';
import type { Transport } from '../transport.js';
import type { CommonFilters, ListParams } from './list-params.js';
import { createReadResource, type ReadResource } from './read-resource.js';

export type CareUserField = keyof CareUser & string;
/** Only the sort fields every resource shares (the users endpoint is not documented). */
export type CareUserSortField = '_id' | 'created' | 'modified';
export type CareUserFilters = CommonFilters;
export type CareUserListParams = ListParams<CareUserField, CareUserSortField, CareUserFilters>;
export type UsersResource = ReadResource<CareUser, CareUserListParams, CareUserField>;

export function createUsersResource(transport: Transport): UsersResource {
  return createReadResource(transport, 'users', careUserSchema);
}
