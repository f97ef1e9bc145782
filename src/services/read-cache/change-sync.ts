/**
 * Keeps this instance's action cache told of every change, from the changes
 * feed (`filters-modified_after`):
 *
 * - the changes poll (a leased job: one instance at a time) hands over each
 *   page it reads, and says when a run read everything since a point at or
 *   before this instance's own cursor: that run is this instance's sync, and
 *   no request of its own is needed;
 * - otherwise (another instance held the poll this round, or the poll here
 *   began later than this instance's cursor), `syncIfDue`, a second or a few
 *   after each poll tick, reads the changes since its own cursor (minus the
 *   same overlap the poll uses), in the background. So every instance is at
 *   most about one poll interval behind.
 *
 * The cursor is the care system's own time (the newest `modified` seen), in
 * memory only.
 */
import type { CareClient } from '../../care/index.js';
import type { Logger } from '../../logging/logger.js';
import { parseApiDateTime } from '../../time/slack-date.js';
import { changedPages } from './changes-feed.js';
import type { ActionCache } from './action-cache.js';

/** What the changes poll tells the cache. */
export interface ChangesObserver {
  /** A poll run begins, reading changes modified after `sinceMs` (care time); returns its start (a `mark()`). */
  started(run: { sinceMs: number }): number;
  /** The app's clock, read just before a request of the feed. */
  mark(): number;
  /** One page of the feed, read with a request that began at `readStart` (a `mark()`). */
  page(actions: Parameters<ActionCache['applyFeed']>[0], readStart: number): void;
  /** A poll run read every change modified after `sinceMs` (care time) visible when it began at `startedAt` (a `mark()`); `throughMs` is its new cursor. */
  covered(run: { sinceMs: number; throughMs: number; startedAt: number }): void;
}

export interface ChangeSync extends ChangesObserver {
  /**
   * Run a little after each poll tick: unless a poll run here that covers this
   * instance began within half an interval (or a sync did), read the changes
   * since the cursor.
   */
  syncIfDue(): Promise<{ skipped: boolean; requests: number }>;
  /** Whether `syncIfDue` would skip now (no request): synchronous, so a scheduler can leave the run out for nothing. */
  notDue(): boolean;
}

const MAX_REQUESTS = 200;

export function createChangeSync(deps: {
  care: CareClient;
  cache: ActionCache;
  overlapMs: number;
  intervalMs: number;
  logger: Logger;
  /**
   * Stop following the feed once nobody has read the cache on this instance for this long (a workspace idle
   * here): the cache lets go of everything, and the next read wakes the sync, whose next run is a first one.
   * Unset: always follow.
   */
  dormantAfterMs?: number | undefined;
}): ChangeSync {
  const { care, cache, overlapMs } = deps;
  let reads = -1;
  let lastReadAt = cache.now();
  let dormant = false;
  let cursorMs: number | null = null;
  let lastSyncAt: number | null = null;
  /** When a poll run here that will cover this instance began. */
  let coveringPollAt: number | null = null;
  let running: Promise<{ skipped: boolean; requests: number }> | undefined;

  const secondFloor = (ms: number) => Math.max(0, Math.floor(ms / 1000) * 1000);

  function synced(startedAt: number, throughMs: number): void {
    cursorMs = Math.max(cursorMs ?? throughMs, throughMs);
    lastSyncAt = Math.max(lastSyncAt ?? startedAt, startedAt);
    cache.synced(startedAt);
  }

  async function readChanges(): Promise<{ skipped: boolean; requests: number }> {
    const startedAt = cache.now();
    if (cursorMs === null) {
      // The first sync: from the care system's newest change on (the cache holds nothing older).
      const res = await care.actions.list({ attributes: ['_id', 'modified'], sort_by: ['-modified'], per_page: 1 });
      synced(startedAt, parseApiDateTime(res.items[0]?.modified)?.getTime() ?? 0);
      return { skipped: false, requests: 1 };
    }
    let newest = cursorMs;
    let requests = 0;
    for await (const page of changedPages(care, { sinceMs: cursorMs - overlapMs, maxRequests: MAX_REQUESTS, now: cache.now })) {
      requests = page.requests;
      cache.applyFeed(page.items, page.readStart);
      newest = Math.max(newest, page.newestMs);
      if (!page.more) {
        synced(startedAt, newest);
        return { skipped: false, requests };
      }
    }
    deps.logger.warn('the action cache sync stopped at its request limit; answers come from the API until a sync completes', { requests });
    return { skipped: false, requests };
  }

  /** Dormant (nobody read the cache here lately: it lets go of everything), or a poll or sync here covered this round. */
  function notDue(): boolean {
    if (deps.dormantAfterMs !== undefined) {
      const { hits, misses } = cache.stats();
      if (hits + misses !== reads) {
        reads = hits + misses;
        lastReadAt = cache.now();
        dormant = false;
      } else if (cache.now() - lastReadAt >= deps.dormantAfterMs) {
        if (!dormant) {
          dormant = true;
          cursorMs = null;
          lastSyncAt = null;
          coveringPollAt = null;
          cache.forget();
        }
        return true;
      }
    }
    // A poll here began this round and reads from no later than we would: it is this instance's sync.
    return recent(coveringPollAt) || recent(lastSyncAt);
  }

  const covers = (sinceMs: number) => cursorMs === null || sinceMs <= secondFloor(cursorMs - overlapMs);
  const recent = (at: number | null) => at !== null && cache.now() - at < deps.intervalMs / 2;

  return {
    // While dormant the poll's pages are not kept either: the cache stays empty until someone reads it.
    started({ sinceMs }) {
      const at = cache.now();
      if (!dormant && covers(sinceMs)) coveringPollAt = at;
      return at;
    },
    mark: () => cache.now(),
    page: (actions, readStart) => {
      if (!dormant) cache.applyFeed(actions, readStart);
    },
    covered({ sinceMs, throughMs, startedAt }) {
      // It covers us only if it read from no later than we would have.
      if (!dormant && covers(sinceMs)) synced(startedAt, throughMs);
    },
    notDue,
    syncIfDue() {
      if (notDue()) return Promise.resolve({ skipped: true, requests: 0 });
      running ??= readChanges().finally(() => {
        running = undefined;
      });
      return running;
    },
  };
}
