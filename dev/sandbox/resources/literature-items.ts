import { idList, triState } from '../list-filters.js';
import type { ListSpec } from '../list-spec.js';
import type { LiteratureItem } from './types.js';

export const literatureItemsList: ListSpec<LiteratureItem> = {
  resource: 'literature-items',
  attributes: ['_id', 'archived', 'created', 'file', 'location', 'modified', 'name', 'ref'],
  sortFields: ['_id', 'created', 'modified', 'name'],
  qFields: ['name', 'ref'],
  filters: {
    'filters-account': triState('unset', (r) => r.location === null),
    'filters-archived': triState('no', (r) => r.archived),
    'filters-location': idList((r) => r.location),
  },
};
