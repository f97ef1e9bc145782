/**
 * Response schemas. Tolerant: unknown fields are kept (loose), any field but
 * `_id` may be missing or null (lists return only the requested attributes).
 * The exported types list the known fields only.
 */
import { z } from 'zod';

const str = z.string().nullish();
const strList = z.array(z.string()).nullish();
const bool = z.boolean().nullish();
const int = z.number().nullish();

const reminderShape = {
  method: str,
  offset_type: str,
  offset_delta: int,
  offset_time_str: str,
};
export const reminderSchema = z.object(reminderShape).loose();
export type Reminder = z.output<z.ZodObject<typeof reminderShape>>;

const actionShape = {
  _id: z.string(),
  action_no: str,
  assessment: str,
  assigned_to: str,
  call: str,
  care_enquiry: str,
  comment: str,
  completed: str,
  created: str,
  due: str,
  home_visit: str,
  location: str,
  modified: str,
  notify_on_complete: strList,
  parent_subject: str,
  parent_subject_type: str,
  pin_to_calendar: str,
  reminders: z.array(reminderSchema).nullish(),
  service_users: str,
  subject_type: str,
  tag: str,
  task: str,
  urgent: bool,
  user_tags: strList,
};
export const actionSchema = z.object(actionShape).loose();
export type Action = z.output<z.ZodObject<typeof actionShape>>;

const notificationGroupShape = {
  _id: z.string(),
  created: str,
  description: str,
  email_to: strList,
  modified: str,
  name: str,
  users: strList,
};
export const notificationGroupSchema = z.object(notificationGroupShape).loose();
export type NotificationGroup = z.output<z.ZodObject<typeof notificationGroupShape>>;

const addressShape = {
  address_1: str,
  address_2: str,
  town: str,
  county: str,
  postcode: str,
  country: str,
};
export const addressSchema = z.object(addressShape).loose();
export type Address = z.output<z.ZodObject<typeof addressShape>>;

const locationShape = {
  _id: z.string(),
  accepts_dementia: bool,
  app_number: str,
  brand: str,
  care_inspectorate: str,
  care_inspectorate_id: str,
  care_inspectorate_provider_id: str,
  care_inspectorate_registered_beds: int,
  company_name: str,
  company_reg_no: str,
  created: str,
  email: str,
  groups: strList,
  invoice_payment_instructions: str,
  invoice_payment_instructions_bac: str,
  invoice_payment_instructions_card: str,
  invoice_payment_instructions_cash: str,
  invoice_payment_instructions_cheque: str,
  invoice_payment_instructions_direct_debit: str,
  invoice_payment_instructions_eft: str,
  invoice_payment_instructions_standing_order: str,
  invoicing_address: addressSchema.nullish(),
  invoicing_email: str,
  invoicing_phone: str,
  lon_lat: z.array(z.number()).nullish(),
  modified: str,
  name: str,
  offers_daycare: bool,
  offers_respite: bool,
  phone: str,
  reason_for_suspension: str,
  ref: str,
  service_user_expenses_assigned_to: str,
  service_user_expenses_invoices_due_rule: str,
  service_user_expenses_invoices_due_unit: int,
  service_user_expenses_invoicing_day: int,
  service_user_expenses_invoicing_enabled: bool,
  services: strList,
  street_address: addressSchema.nullish(),
  suspended: str,
  vat_number: str,
  website_url: str,
};
export const locationSchema = z.object(locationShape).loose();
export type Location = z.output<z.ZodObject<typeof locationShape>>;

const literatureItemShape = {
  _id: z.string(),
  archived: bool,
  created: str,
  file: str,
  location: str,
  modified: str,
  name: str,
  ref: str,
};
export const literatureItemSchema = z.object(literatureItemShape).loose();
export type LiteratureItem = z.output<z.ZodObject<typeof literatureItemShape>>;

/** A user of the care system (GET /v1/users: real, beyond the spec; fields from the facts file). */
const careUserShape = {
  _id: z.string(),
  created: str,
  modified: str,
  email: str,
  first_name: str,
  last_name: str,
  locations: strList,
  location_role: str,
  mobile: str,
};
export const careUserSchema = z.object(careUserShape).loose();
export type CareUser = z.output<z.ZodObject<typeof careUserShape>>;

/** One page of a list. */
export interface Page<T> {
  items: T[];
  page: number;
  page_count: number;
  per_page: number;
  item_count: number;
}

const count = z.number().int().nonnegative();

export function pageSchema<T>(item: z.ZodType<T>): z.ZodType<Page<T>> {
  return z.object({ items: z.array(item), page: count, page_count: count, per_page: count, item_count: count }).loose() as unknown as z.ZodType<Page<T>>;
}
