import { dateBound, idList, triState } from '../list-filters.js';
import type { ListSpec } from '../list-spec.js';
import type { Action } from './types.js';

export const ACTION_ATTRIBUTES: readonly (keyof Action)[] = [
  '_id',
  'action_no',
  'assessment',
  'assigned_to',
  'call',
  'care_enquiry',
  'comment',
  'completed',
  'created',
  'due',
  'home_visit',
  'location',
  'modified',
  'notify_on_complete',
  'parent_subject',
  'parent_subject_type',
  'pin_to_calendar',
  'reminders',
  'service_users',
  'subject_type',
  'tag',
  'task',
  'urgent',
  'user_tags',
];

export const actionsList: ListSpec<Action> = {
  resource: 'actions',
  attributes: ACTION_ATTRIBUTES,
  sortFields: ['_id', 'created', 'completed', 'due', 'modified'],
  qFields: ['action_no', 'task'],
  filters: {
    'filters-assigned_to': idList((r) => r.assigned_to),
    'filters-completed': triState('unset', (r) => r.completed !== null),
    'filters-urgent': triState('unset', (r) => r.urgent),
    'filters-start_date': dateBound('from', (r) => r.due),
    'filters-end_date': dateBound('to', (r) => r.due),
    'filters-parent_subject': idList((r) => r.parent_subject),
  },
};
