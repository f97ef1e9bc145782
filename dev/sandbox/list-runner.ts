import type { Collection } from './collection.js';
import type { ListQuery } from './list-query.js';
import type { RecordCache } from './record-cache.js';
import type { WireRecord } from './resources/types.js';

/**
 * Run a parsed list query over a collection and return the page body as JSON
 * text: the sorted order (and its filter columns) comes from the collection's
 * cache, each filter narrows one array of flags, and each item's projection
 * JSON is cached per record.
 */
export function runList<T extends WireRecord>(collection: Collection<T>, query: ListQuery<T>, cache: RecordCache): string {
  const view = collection.sorted(query.sortKey, query.compare);
  const { records } = view;
  const start = (query.page - 1) * query.perPage;
  const end = start + query.perPage;
  let pageItems: readonly T[];
  let total: number;
  if (query.narrows.length === 0) {
    total = records.length;
    pageItems = records.slice(start, end);
  } else {
    const keep = new Uint8Array(records.length).fill(1);
    for (const narrow of query.narrows) narrow(view, keep);
    const picked: T[] = [];
    total = 0;
    for (let i = 0; i < keep.length; i++) {
      if (keep[i] === 0) continue;
      if (total >= start && total < end) picked.push(records[i] as T);
      total++;
    }
    pageItems = picked;
  }
  const key = query.attributes.join(',');
  const parts = pageItems.map((r) => cache.project(r, query.attributes, key));
  const pageCount = Math.ceil(total / query.perPage);
  return `{"item_count":${parts.length},"items":[${parts.join(',')}],"page":${query.page},"page_count":${pageCount},"per_page":${query.perPage}}`;
}
