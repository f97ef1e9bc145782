import { choiceList, idList, triState } from '../list-filters.js';
import type { ListSpec } from '../list-spec.js';
import { SERVICES, type Location } from './types.js';

const LOCATION_ATTRIBUTES: readonly (keyof Location)[] = [
  '_id', 'accepts_dementia', 'app_number', 'brand', 'care_inspectorate', 'care_inspectorate_id',
  'care_inspectorate_provider_id', 'care_inspectorate_registered_beds', 'company_name', 'company_reg_no',
  'created', 'email', 'groups', 'invoice_payment_instructions', 'invoice_payment_instructions_bac',
  'invoice_payment_instructions_card', 'invoice_payment_instructions_cash', 'invoice_payment_instructions_cheque',
  'invoice_payment_instructions_direct_debit', 'invoice_payment_instructions_eft',
  'invoice_payment_instructions_standing_order', 'invoicing_address', 'invoicing_email', 'invoicing_phone',
  'lon_lat', 'modified', 'name', 'offers_daycare', 'offers_respite', 'phone', 'reason_for_suspension', 'ref',
  'service_user_expenses_assigned_to', 'service_user_expenses_invoices_due_rule',
  'service_user_expenses_invoices_due_unit', 'service_user_expenses_invoicing_day',
  'service_user_expenses_invoicing_enabled', 'services', 'street_address', 'suspended', 'vat_number', 'website_url',
];

export const locationsList: ListSpec<Location> = {
  resource: 'locations',
  attributes: LOCATION_ATTRIBUTES,
  sortFields: ['_id', 'created', 'modified', 'name'],
  qFields: ['name', 'ref'],
  filters: {
    'filters-accepts_dementia': triState('unset', (r) => r.accepts_dementia),
    'filters-offers_respite': triState('unset', (r) => r.offers_respite),
    'filters-suspended': triState('no', (r) => r.suspended !== null),
    'filters-brand': idList((r) => r.brand),
    'filters-groups': idList((r) => r.groups),
    'filters-services': choiceList(SERVICES, (r) => r.services),
  },
};
