/**
 * The care data this instance holds for speed, built once per workspace (workspaces/compose/core.ts): the
 * action cache and its change sync, the reference cache, and the care client
 * the services write through (writes told to the action cache). In memory
 * only, bounded, per instance.
 */
import type { CareClient } from '../../care/index.js';
import type { Logger } from '../../logging/logger.js';
import { type ActionCache, createActionCache } from './action-cache.js';
import { type CareUserDirectory, createCareUserDirectory } from './care-users.js';
import { type ChangeSync, createChangeSync } from './change-sync.js';
import { observeWrites } from './observe-writes.js';
import { createReferenceCache, type ReferenceCache } from './reference-cache.js';

export interface ReadCaches {
  actions: ActionCache;
  reference: ReferenceCache;
  /** Care users for names and linking, read once and shared. */
  users: CareUserDirectory;
  sync: ChangeSync;
  /** The client services use: every action write is told to `actions`. */
  care: CareClient;
  /** Resolves once no read of the caches is in flight (background refreshes, warm-up reads). */
  idle(): Promise<void>;
}

export interface ReadCacheSettings {
  /** Estimated bytes of care data held, in all (default 48 MB: 32 for actions, 16 for reference data). */
  maxBytes?: number;
  /** How long reference data is answered before a background refresh (default 5 minutes). */
  referenceFreshMs?: number;
  /** Stop following the changes feed after this long without a read here (change-sync.ts); default: never. */
  dormantAfterMs?: number;
  /**
   * The sync's interval (seconds): an instance no poll covers reads the feed itself once no poll or sync began
   * within half of it, and answers from memory while one began within two of it. Default: the poll's interval,
   * and at least FOLLOW_AT_LEAST_SECONDS, so that a fast poll does not make every other instance read as often.
   */
  followSeconds?: number;
}

/**
 * With a poll every 5 s (2% of a key's 10 requests a second), every other instance reading the feed every 5 s too
 * would add 2% each; at this interval each adds one request every 30 s (0.33%), and its answers are at most about
 * 30 s behind the web app (the polling instance's: one poll).
 */
export const FOLLOW_AT_LEAST_SECONDS = 60;

export function createReadCaches(deps: {
  care: CareClient;
  now: () => number;
  logger: Logger;
  /** The changes poll's interval (the sync's is at least FOLLOW_AT_LEAST_SECONDS) and overlap (the sync keeps the same). */
  pollSeconds: number;
  overlapMs: number;
  settings?: ReadCacheSettings | undefined;
}): ReadCaches {
  const logger = deps.logger.child({ component: 'read-cache' });
  const intervalMs = (deps.settings?.followSeconds ?? Math.max(deps.pollSeconds, FOLLOW_AT_LEAST_SECONDS)) * 1000;
  const total = deps.settings?.maxBytes ?? 48 * 1024 * 1024;
  const actions = createActionCache({
    care: deps.care,
    now: deps.now,
    logger,
    // Answers from memory only while a sync began within two intervals (one may fail or run late).
    maxLagMs: 2 * intervalMs,
    maxBytes: Math.floor((total * 2) / 3),
  });
  const reference = createReferenceCache({
    now: deps.now,
    logger,
    maxBytes: Math.floor(total / 3),
    ...(deps.settings?.referenceFreshMs !== undefined ? { freshMs: deps.settings.referenceFreshMs } : {}),
  });
  const users = createCareUserDirectory({ care: deps.care, reference, logger });
  // Read at start (once the cache follows the changes feed), so the first Home tabs do not wait for the names.
  actions.onTrusted(() => void users.directory());
  const sync = createChangeSync({
    care: deps.care,
    cache: actions,
    overlapMs: deps.overlapMs,
    intervalMs,
    logger,
    dormantAfterMs: deps.settings?.dormantAfterMs,
  });
  const idle = async () => {
    await Promise.all([actions.idle(), reference.idle()]);
  };
  return { actions, reference, users, sync, care: observeWrites(deps.care, actions), idle };
}
