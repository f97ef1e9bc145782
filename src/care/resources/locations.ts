import type { OneOrMany, TriState } from '../params.js';
import { locationSchema, type Location } from '../schemas.js';
import type { Transport } from '../transport.js';
import type { CommonFilters, ListParams } from './list-params.js';
import { createReadResource, type ReadResource } from './read-resource.js';

export type LocationField = keyof Location & string;
export type LocationSortField = '_id' | 'created' | 'modified' | 'name';
export type LocationService =
  | 'assisted_living'
  | 'residential_home'
  | 'nursing_home'
  | 'independent_living'
  | 'learning_disability_care'
  | 'bariatric_care'
  | 'specialist_care'
  | 'home_care'
  | 'live_in_care';

/** `q` searches name and ref. */
export interface LocationFilters extends CommonFilters {
  accepts_dementia?: TriState | undefined;
  offers_respite?: TriState | undefined;
  /** API default `no`: suspended locations are left out unless asked for. */
  suspended?: TriState | undefined;
  brand?: OneOrMany<string> | undefined;
  groups?: OneOrMany<string> | undefined;
  services?: OneOrMany<LocationService> | undefined;
}
export type LocationListParams = ListParams<LocationField, LocationSortField, LocationFilters>;
export type LocationsResource = ReadResource<Location, LocationListParams, LocationField>;

export function createLocationsResource(transport: Transport): LocationsResource {
  return createReadResource(transport, 'locations', locationSchema);
}
