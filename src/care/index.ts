/**
 * The care API client: `createCareClient(options)`.
 *
 * One client = one keep-alive connection pool, one rate limiter shared by all
 * of its calls, one set of counters. Close it with `client.close()`.
 */
import type { AddressRule } from './address-guard.js';
import { systemClock, type CareClock } from './clock.js';
import { parseBaseUrl } from './http.js';
import { noopLogger, type CareLogger } from './logger.js';
import { createRateLimiter } from './rate-limiter.js';
import { createActionsResource, type ActionsResource } from './resources/actions.js';
import { createLiteratureItemsResource, type LiteratureItemsResource } from './resources/literature-items.js';
import { createLocationsResource, type LocationsResource } from './resources/locations.js';
import { createNotificationGroupsResource, type NotificationGroupsResource } from './resources/notification-groups.js';
import { createUsersResource, type UsersResource } from './resources/users.js';
import { DEFAULT_BACKOFF, type BackoffOptions } from './retry-policy.js';
import type { CareAttemptObserver } from './observer.js';
import type { CareClientStats } from './stats.js';
import type { CarePools } from './shared-pools.js';
import { createTransport } from './transport.js';

export interface CareClientOptions {
  /** Host address, with or without a trailing `/v1`, e.g. `https://api.carehq.co.uk`. */
  baseUrl: string;
  accountId: string;
  apiKey: string;
  apiSecret: string;
  /** Client-side pacing (burst = the same number). Default 10. */
  rateLimitPerSecond?: number | undefined;
  /** Deadline of one attempt (connect + headers + body). Default 10 000 ms. */
  timeoutMs?: number | undefined;
  /** Retries after the first attempt. Default 3. */
  maxRetries?: number | undefined;
  /** Exponential back-off between retries (with jitter). Default 500 ms doubling up to 8 s. */
  retryBackoff?: Partial<BackoffOptions> | undefined;
  /** A 429 whose reset is further away than this is thrown, not waited for. Default 30 000 ms. */
  maxRateLimitWaitMs?: number | undefined;
  /** Connections in the keep-alive pool (with `pools`: requests at once). Default 10. */
  connections?: number | undefined;
  /** The instance's shared connections to the care API (shared-pools.ts): closed by their owner, not by the client. */
  pools?: CarePools | undefined;
  logger?: CareLogger | undefined;
  /** For tests: virtual time. */
  clock?: CareClock | undefined;
  /** For tests: jitter source in [0, 1). Default Math.random. */
  random?: (() => number) | undefined;
  /** Told about every HTTP attempt (resource, method, status, waits): for metrics. Must be quick; its errors are ignored. */
  onAttempt?: CareAttemptObserver | undefined;
  /**
   * Connect only to IP addresses this accepts (e.g. isPublicAddress), checked after resolving the host
   * and connected to as checked; a refused one fails at once with a NetworkError whose code is
   * ADDRESS_REFUSED_CODE, and is not retried. Absent: any address.
   */
  allowAddress?: AddressRule | undefined;
}

export interface CareClient {
  actions: ActionsResource;
  notificationGroups: NotificationGroupsResource;
  locations: LocationsResource;
  literatureItems: LiteratureItemsResource;
  users: UsersResource;
  /** Counters of this client since it was created. */
  stats(): CareClientStats;
  /** Close the connection pool (waits for requests in flight); later calls fail with NetworkError. Safe to call twice. */
  close(): Promise<void>;
}

function required(value: unknown, name: string): string {
  if (typeof value !== 'string' || value.trim() === '') throw new TypeError(`createCareClient: ${name} is required`);
  return value;
}

function nonNegative(value: number | undefined, fallback: number, name: string, integer = false): number {
  const v = value ?? fallback;
  if (!Number.isFinite(v) || v < 0 || (integer && !Number.isInteger(v)))
    throw new RangeError(`createCareClient: ${name} must be a non-negative ${integer ? 'integer' : 'number'}`);
  return v;
}

export function createCareClient(options: CareClientOptions): CareClient {
  const endpoint = parseBaseUrl(required(options.baseUrl, 'baseUrl'));
  const credentials = {
    accountId: required(options.accountId, 'accountId'),
    apiKey: required(options.apiKey, 'apiKey'),
    apiSecret: required(options.apiSecret, 'apiSecret'),
  };
  const clock = options.clock ?? systemClock;
  const rate = options.rateLimitPerSecond ?? 10;
  if (!(rate > 0) || !Number.isFinite(rate)) throw new RangeError('createCareClient: rateLimitPerSecond must be > 0');
  const maxRateLimitWaitMs = nonNegative(options.maxRateLimitWaitMs, 30_000, 'maxRateLimitWaitMs');
  const timeoutMs = nonNegative(options.timeoutMs, 10_000, 'timeoutMs');
  if (timeoutMs === 0) throw new RangeError('createCareClient: timeoutMs must be > 0');

  const transport = createTransport({
    endpoint,
    credentials,
    limiter: createRateLimiter({ ratePerSecond: rate, clock, maxBlockMs: maxRateLimitWaitMs }),
    clock,
    random: options.random ?? Math.random,
    logger: options.logger ?? noopLogger,
    timeoutMs,
    maxRetries: nonNegative(options.maxRetries, 3, 'maxRetries', true),
    backoff: { ...DEFAULT_BACKOFF, ...options.retryBackoff },
    maxRateLimitWaitMs,
    connections: options.connections,
    pools: options.pools,
    onAttempt: options.onAttempt,
    allowAddress: options.allowAddress,
  });

  return {
    actions: createActionsResource(transport),
    notificationGroups: createNotificationGroupsResource(transport),
    locations: createLocationsResource(transport),
    literatureItems: createLiteratureItemsResource(transport),
    users: createUsersResource(transport),
    stats: () => transport.stats(),
    close: () => transport.close(),
  };
}

export type { CareClock } from './clock.js';
export type { AddressRule } from './address-guard.js';
export { ADDRESS_REFUSED_CODE } from './address-refused.js';
export { isPublicAddress } from './ip-ranges.js';
export { systemClock } from './clock.js';
export type { CareLogger } from './logger.js';
export type { CareClientStats } from './stats.js';
export type { CareAttempt, CareAttemptObserver } from './observer.js';
export type { BackoffOptions } from './retry-policy.js';
export {
  CareApiError,
  InvalidRequestError,
  UnauthorizedError,
  ForbiddenError,
  NotFoundError,
  MethodNotAllowedError,
  RateLimitError,
  ServerError,
  NetworkError,
  TimeoutError,
  ResponseValidationError,
  errorFromResponse,
  type ArgErrors,
  type ValidationIssue,
} from './errors.js';
export type { Action, Reminder, NotificationGroup, Location, Address, LiteratureItem, CareUser, Page } from './schemas.js';
export {
  actionSchema,
  reminderSchema,
  notificationGroupSchema,
  locationSchema,
  literatureItemSchema,
  careUserSchema,
  pageSchema,
} from './schemas.js';
export type { DateInput, DateTimeInput, OneOrMany, SortSpec, TriState } from './params.js';
export { formatDate, formatDateTime } from './params.js';
export type { IterateOptions } from './pagination.js';
export { collect } from './pagination.js';
export type { CommonFilters, ListParams } from './resources/list-params.js';
export type { ReadResource, RetrieveOptions } from './resources/read-resource.js';
export type { ActionInput, ActionUpdateInput, ReminderInput, ReminderMethod, ReminderOffsetType, ReminderOffsetDelta } from './resources/action-input.js';
export type { ActionsResource, ActionField, ActionFilters, ActionListParams, ActionSortField } from './resources/actions.js';
export type {
  NotificationGroupsResource,
  NotificationGroupField,
  NotificationGroupFilters,
  NotificationGroupListParams,
  NotificationGroupSortField,
} from './resources/notification-groups.js';
export type { LocationsResource, LocationField, LocationFilters, LocationListParams, LocationService, LocationSortField } from './resources/locations.js';
export type {
  LiteratureItemsResource,
  LiteratureItemField,
  LiteratureItemFilters,
  LiteratureItemListParams,
  LiteratureItemSortField,
} from './resources/literature-items.js';
export type { UsersResource, CareUserField, CareUserFilters, CareUserListParams, CareUserSortField } from './resources/users.js';
