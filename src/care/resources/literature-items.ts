import type { OneOrMany, TriState } from '../params.js';
import { literatureItemSchema, type LiteratureItem } from '../schemas.js';
import type { Transport } from '../transport.js';
import type { CommonFilters, ListParams } from './list-params.js';
import { createReadResource, type ReadResource } from './read-resource.js';

export type LiteratureItemField = keyof LiteratureItem & string;
export type LiteratureItemSortField = '_id' | 'created' | 'modified' | 'name';

/** `q` searches name and ref. */
export interface LiteratureItemFilters extends CommonFilters {
  /** Available at account level. */
  account?: TriState | undefined;
  /** API default `no`: archived items are left out unless asked for. */
  archived?: TriState | undefined;
  location?: OneOrMany<string> | undefined;
}
export type LiteratureItemListParams = ListParams<LiteratureItemField, LiteratureItemSortField, LiteratureItemFilters>;
export type LiteratureItemsResource = ReadResource<LiteratureItem, LiteratureItemListParams, LiteratureItemField>;

export function createLiteratureItemsResource(transport: Transport): LiteratureItemsResource {
  return createReadResource(transport, 'literature-items', literatureItemSchema);
}
