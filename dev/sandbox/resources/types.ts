/** Resources exactly as they go on the wire (stored in this form, so lists need no conversion). */

/** Date/time string `YYYY-MM-DD HH:MM:SS` (UTC). */
export type WireDateTime = string;

export interface WireRecord {
  _id: string;
  created: WireDateTime;
  modified: WireDateTime;
}

export interface User extends WireRecord {
  email: string;
  first_name: string;
  last_name: string;
  location_role: string | null;
  locations: string[];
  mobile: string | null;
}

export interface NotificationGroup extends WireRecord {
  description: string;
  email_to: string[];
  name: string;
  users: string[];
}

export interface Address {
  address_1: string;
  address_2: string;
  town: string;
  county: string;
  postcode: string;
  country: string;
}

export type Service =
  | 'assisted_living'
  | 'residential_home'
  | 'nursing_home'
  | 'independent_living'
  | 'learning_disability_care'
  | 'bariatric_care'
  | 'specialist_care'
  | 'home_care'
  | 'live_in_care';

export const SERVICES: readonly Service[] = [
  'assisted_living',
  'residential_home',
  'nursing_home',
  'independent_living',
  'learning_disability_care',
  'bariatric_care',
  'specialist_care',
  'home_care',
  'live_in_care',
];

export interface Location extends WireRecord {
  accepts_dementia: boolean;
  app_number: string | null;
  brand: string | null;
  care_inspectorate: string | null;
  care_inspectorate_id: string | null;
  care_inspectorate_provider_id: string | null;
  care_inspectorate_registered_beds: number | null;
  company_name: string | null;
  company_reg_no: string | null;
  email: string | null;
  groups: string[];
  invoice_payment_instructions: string | null;
  invoice_payment_instructions_bac: string | null;
  invoice_payment_instructions_card: string | null;
  invoice_payment_instructions_cash: string | null;
  invoice_payment_instructions_cheque: string | null;
  invoice_payment_instructions_direct_debit: string | null;
  invoice_payment_instructions_eft: string | null;
  invoice_payment_instructions_standing_order: string | null;
  invoicing_address: Address;
  invoicing_email: string | null;
  invoicing_phone: string | null;
  lon_lat: [number, number] | null;
  name: string;
  offers_daycare: boolean;
  offers_respite: boolean;
  phone: string | null;
  reason_for_suspension: string | null;
  ref: string | null;
  service_user_expenses_assigned_to: string | null;
  service_user_expenses_invoices_due_rule: string | null;
  service_user_expenses_invoices_due_unit: number | null;
  service_user_expenses_invoicing_day: number | null;
  service_user_expenses_invoicing_enabled: boolean;
  services: Service[];
  street_address: Address;
  suspended: WireDateTime | null;
  vat_number: string | null;
  website_url: string | null;
}

export interface LiteratureItem extends WireRecord {
  archived: boolean;
  file: string;
  location: string | null;
  name: string;
  ref: string;
}

export const REMINDER_METHODS = ['email', 'sms_or_whatsapp', 'voice', 'user_pref'] as const;
export const OFFSET_TYPES = ['none', 'delta', 'time'] as const;
export const OFFSET_DELTAS = [5, 10, 15, 30, 45, 60] as const;
export const PIN_TO_CALENDAR = ['location', 'user'] as const;

export interface Reminder {
  method: (typeof REMINDER_METHODS)[number];
  offset_type: (typeof OFFSET_TYPES)[number];
  offset_delta: number | null;
  /** Present only when offset_type is `time` (the real API may omit it). */
  offset_time_str?: string;
}

export type SubjectType = 'assessment' | 'call' | 'care_enquiry' | 'comment' | 'location' | 'home_visit' | 'service_user';
export type ParentSubjectType = 'care_enquiry' | 'service_user';

export interface Action extends WireRecord {
  action_no: string;
  assessment: string | null;
  assigned_to: string | null;
  call: string | null;
  care_enquiry: string | null;
  comment: string | null;
  completed: WireDateTime | null;
  due: WireDateTime;
  home_visit: string | null;
  location: string | null;
  notify_on_complete: string[];
  parent_subject: string | null;
  parent_subject_type: ParentSubjectType | null;
  pin_to_calendar: (typeof PIN_TO_CALENDAR)[number] | null;
  reminders: Reminder[];
  service_users: string | null;
  subject_type: SubjectType | null;
  tag: string | null;
  task: string;
  urgent: boolean;
  user_tags: string[];
}

/** A care enquiry or service user the sandbox knows of (not served; gives actions their location). */
export interface Subject {
  _id: string;
  type: ParentSubjectType;
  location: string | null;
  name: string;
}
