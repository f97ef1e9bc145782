import type { Narrow } from './list-narrow.js';
import type { ResourceName } from './store.js';
import type { WireRecord } from './resources/types.js';

/** Result of parsing one filter parameter: a narrowing, nothing (no filtering), or messages. */
export type FilterOutcome<T> = { narrow?: Narrow<T>; errors?: string[] };

/**
 * One resource-specific filter. `parse` gets the parameter's non-empty values
 * (an empty list when absent, so defaults such as `suspended=no` apply).
 */
export interface FilterDef<T> {
  parse(values: readonly string[]): FilterOutcome<T>;
}

/** What the list operation of a resource allows. */
export interface ListSpec<T extends WireRecord> {
  resource: ResourceName;
  /** Attribute names a client may request. */
  attributes: readonly string[];
  sortFields: readonly string[];
  /** Fields searched (case-insensitive substring) by `filters-q`. */
  qFields: readonly (keyof T & string)[];
  /** Resource-specific filters by parameter name (`filters-...`). */
  filters: Readonly<Record<string, FilterDef<T>>>;
}
