/**
 * Everyone's open actions due soon, as one list the whole instance shares:
 * `/care mine`, `/care due …` and every Home tab are the same list filtered
 * by assignee in memory, so forty people opening their Home tabs at a shift
 * change cost one read (a few pages), not forty. It reaches a little further
 * than anyone's "next 7 days" in any time zone (callers filter by their own
 * window, as they always did). Used while the action cache may answer from
 * memory and while the list stays small enough to hold; otherwise each
 * person's own query, as before.
 */
import type { Action } from '../../care/index.js';
import type { Logger } from '../../logging/logger.js';
import { ACTION_ATTRIBUTES } from '../action-model.js';
import type { ActionCache } from './action-cache.js';
import type { ListQuery } from './action-filters.js';

/** The shared list holds at most this many actions; beyond it, per-person queries. */
export const SHARED_LIST_LIMIT = 1_000;
const DAY_MS = 86_400_000;
/** After the shared list was found too big, per-person queries for this long before trying again. */
const TOO_BIG_FOR_MS = 10 * 60_000;

export interface OpenActions {
  /**
   * This care user's open actions due in `range` (the API's UTC date filters;
   * more may come back: callers filter by their precise window), sorted by
   * due time, at most `limit`.
   */
  of(careUserId: string, range: { start_date?: string; end_date: string }, now: Date, limit: number): Promise<Action[]>;
}

/** Everyone's open actions due up to a little beyond anyone's "next 7 days" from `now`. */
function sharedQuery(now: Date): ListQuery {
  const end = new Date(now.getTime() + 9 * DAY_MS).toISOString().slice(0, 10);
  return { filters: { completed: 'no', end_date: end }, attributes: [...ACTION_ATTRIBUTES], sort_by: ['due'], per_page: 100, limit: SHARED_LIST_LIMIT };
}

export function createOpenActions(cache: ActionCache, logger: Logger): OpenActions {
  let tooBigUntil = 0;
  // Read once as soon as answers may come from memory (at start), so the first people do not wait for it.
  cache.onTrusted(() => {
    cache
      .list(sharedQuery(new Date(cache.now())), { background: true, ahead: true })
      .catch((err) => logger.warn('could not read the open actions ahead', { error: err }));
  });
  return {
    async of(careUserId, range, now, limit) {
      const shared = sharedQuery(now);
      if (cache.trusted() && range.end_date <= String(shared.filters?.end_date) && cache.now() >= tooBigUntil) {
        const everyone = await cache.list(shared, { background: true });
        if (everyone.length < SHARED_LIST_LIMIT) return everyone.filter((a) => a.assigned_to === careUserId).slice(0, limit);
        tooBigUntil = cache.now() + TOO_BIG_FOR_MS;
      }
      return cache.list(
        { filters: { assigned_to: careUserId, completed: 'no', ...range }, attributes: [...ACTION_ATTRIBUTES], sort_by: ['due'], per_page: 100, limit },
        { background: true },
      );
    },
  };
}
