/**
 * The care system's changes feed: every action modified after a point, read
 * page by page sorted by `modified`. Used by the changes poll and by the
 * action cache's own sync, so both page it the same way.
 *
 * `modified_after` has whole-second resolution and excludes its own second.
 * After a full page the next request asks again from the second before the
 * last one seen (a record changed while we read moves to the end, so it
 * cannot push another out of sight); a full page all within one second is
 * stepped through by page number.
 */
import type { Action, CareClient } from '../../care/index.js';
import { parseApiDateTime } from '../../time/slack-date.js';
import { ACTION_ATTRIBUTES } from '../action-model.js';

export const FEED_PAGE_SIZE = 100;

export interface FeedPage {
  items: Action[];
  /** `now()` read just before this page's request. */
  readStart: number;
  /** The newest `modified` on this page (ms), or the point it was read from when none had one. */
  newestMs: number;
  /** False on the last page: everything modified up to now has been read. */
  more: boolean;
  /** Where the next page is read from (ms, whole seconds): everything modified before it is done once this page is. */
  nextSinceMs: number;
  /** Requests made so far, this one included. */
  requests: number;
}

const secondFloor = (ms: number) => Math.max(0, Math.floor(ms / 1000) * 1000);

/**
 * The pages after `sinceMs` (rounded down to its second), at most `maxRequests`
 * of them. The next page is requested only when the caller asks for it, so a
 * caller that works each page before moving on never skips past unfinished work.
 */
export async function* changedPages(
  care: Pick<CareClient, 'actions'>,
  options: { sinceMs: number; maxRequests: number; now: () => number },
): AsyncGenerator<FeedPage, void, undefined> {
  let since = secondFloor(options.sinceMs);
  let page = 1;
  for (let requests = 1; requests <= options.maxRequests; requests++) {
    const readStart = options.now();
    const res = await care.actions.list({
      filters: { modified_after: new Date(since) },
      attributes: [...ACTION_ATTRIBUTES],
      sort_by: ['modified'],
      per_page: FEED_PAGE_SIZE,
      page,
    });
    let newestMs = since;
    for (const a of res.items) newestMs = Math.max(newestMs, parseApiDateTime(a.modified)?.getTime() ?? newestMs);
    const more = res.items.length >= FEED_PAGE_SIZE;
    const lastSecond = secondFloor(newestMs);
    const advance = lastSecond - 1000 > since;
    const nextSinceMs = more && advance ? lastSecond - 1000 : since;
    yield { items: res.items, readStart, newestMs, more, nextSinceMs, requests };
    if (!more) return;
    page = advance ? 1 : page + 1;
    since = nextSinceMs;
  }
}
