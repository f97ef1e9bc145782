import type { Collection } from './collection.js';
import type { ListQuery } from './list-query.js';
import type { RecordCache } from './record-cache.js';
import type { WireRecord } from './resources/types.js';

/**
 * Run a parsed list query over a collection and return the page body as JSON
 * text: the sorted order comes from the collection's cache, filters are one
 * pass, and each item's projection JSON is cached per record.
 */
export function runList<T extends WireRecord>(collection: Collection<T>, query: ListQuery<T>, cache: RecordCache): string {
  const sorted = collection.sorted(query.sortKey, query.compare);
  const start = (query.page - 1) * query.perPage;
  const end = start + query.perPage;
  let pageItems: readonly T[];
  let total: number;
  const { predicates } = query;
  if (predicates.length === 0) {
    total = sorted.length;
    pageItems = sorted.slice(start, end);
  } else {
    const picked: T[] = [];
    const match = combine(predicates);
    total = 0;
    for (let i = 0, n = sorted.length; i < n; i++) {
      const record = sorted[i] as T;
      if (!match(record)) continue;
      if (total >= start && total < end) picked.push(record);
      total++;
    }
    pageItems = picked;
  }
  const key = query.attributes.join(',');
  const parts = pageItems.map((r) => cache.project(r, query.attributes, key));
  const pageCount = Math.ceil(total / query.perPage);
  return `{"item_count":${parts.length},"items":[${parts.join(',')}],"page":${query.page},"page_count":${pageCount},"per_page":${query.perPage}}`;
}

/** One predicate for all (monomorphic call site in the loop). */
function combine<T>(predicates: readonly ((record: T) => boolean)[]): (record: T) => boolean {
  if (predicates.length === 1) return predicates[0] as (record: T) => boolean;
  return (record) => {
    for (let i = 0; i < predicates.length; i++) if (!(predicates[i] as (r: T) => boolean)(record)) return false;
    return true;
  };
}
