/**
 * Auto-pagination: async iterables over pages and over items. Pages are
 * fetched one at a time, in order, only as the consumer asks for them.
 */
import type { Page } from './schemas.js';

export interface IterateOptions {
  /** Stop after this many items (iterate) or pages (iteratePages). */
  limit?: number | undefined;
}

/** Pages from `firstPage` on, until the last page, an empty page or `maxPages`. */
export async function* paginate<T>(
  fetchPage: (page: number) => Promise<Page<T>>,
  firstPage = 1,
  maxPages = Number.POSITIVE_INFINITY,
): AsyncGenerator<Page<T>, void, undefined> {
  let pageNumber = firstPage;
  for (let fetched = 0; fetched < maxPages; fetched++) {
    const page = await fetchPage(pageNumber);
    yield page;
    // Never go backwards, even if the server echoes an unexpected page number.
    const current = Math.max(pageNumber, page.page);
    if (page.items.length === 0 || current >= page.page_count) return;
    pageNumber = current + 1;
  }
}

/** Every item of every page, at most `limit`. */
export async function* flattenPages<T>(pages: AsyncIterable<Page<T>>, limit = Number.POSITIVE_INFINITY): AsyncGenerator<T, void, undefined> {
  if (limit <= 0) return;
  let count = 0;
  for await (const page of pages) {
    for (const item of page.items) {
      yield item;
      if (++count >= limit) return;
    }
  }
}

/** Collect an async iterable into an array; a limit is required so nothing grows without bound. */
export async function collect<T>(iterable: AsyncIterable<T>, limit: number): Promise<T[]> {
  const out: T[] = [];
  if (limit <= 0) return out;
  for await (const item of iterable) {
    out.push(item);
    if (out.length >= limit) break;
  }
  return out;
}
