/** The typed list parameters shared by every resource. */
import type { DateTimeInput, OneOrMany, SortSpec } from '../params.js';

/** Filters every list operation accepts. */
export interface CommonFilters {
  ids?: OneOrMany<string> | undefined;
  /** Items modified after this date/time (a Date, or 'YYYY-MM-DD HH:MM:SS' UTC). */
  modified_after?: DateTimeInput | undefined;
  modified_before?: DateTimeInput | undefined;
  /** Case-insensitive keyword search over resource-specific fields. */
  q?: string | undefined;
}

/**
 * List parameters, named as on the wire. `filters` is flattened to
 * `filters-<name>` keys; lists are sent as repeated keys.
 */
export interface ListParams<Field extends string, Sort extends string, Filters extends CommonFilters> {
  /** Attributes to include in each item (API default: `_id` only). */
  attributes?: readonly (Field | (string & {}))[] | undefined;
  page?: number | undefined;
  /** 1 to 100; API default 10. */
  per_page?: number | undefined;
  /** Field names, `-` prefix for descending. */
  sort_by?: OneOrMany<SortSpec<Sort>> | undefined;
  filters?: Filters | undefined;
}
