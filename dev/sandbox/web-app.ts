import { z } from 'zod';
import { ApiError } from './errors.js';
import { paramsFrom, type Params } from './params.js';
import type { Action } from './resources/types.js';
import { formatDateTime } from './wire-time.js';

/**
 * The controls act as the care system's own web app: they take JSON, turn it
 * into the same form parameters the API takes, and go through the same
 * validation and operations (so modified is bumped exactly as by the API).
 */
const reminderSchema = z
  .object({
    method: z.string(),
    offset_type: z.string().optional(),
    offset_delta: z.union([z.number(), z.string()]).nullable().optional(),
    offset_time_str: z.string().nullable().optional(),
  })
  .strict();

export const webActionSchema = z
  .object({
    due: z.string().optional(),
    task: z.string().optional(),
    assigned_to: z.string().nullable().optional(),
    notify_on_complete: z.array(z.string()).optional(),
    pin_to_calendar: z.string().nullable().optional(),
    urgent: z.boolean().optional(),
    user_tags: z.array(z.string()).optional(),
    reminders: z.array(reminderSchema).optional(),
    care_enquiry: z.string().nullable().optional(),
    service_user: z.string().nullable().optional(),
  })
  .strict();

export type WebActionInput = z.infer<typeof webActionSchema>;

/** Parse a JSON body with a zod schema; a mismatch is a 400 with arg_errors by field. */
export function parseJson<T>(schema: z.ZodType<T>, body: unknown): T {
  const result = schema.safeParse(body ?? {});
  if (result.success) return result.data;
  const argErrors: Record<string, string[]> = {};
  for (const issue of result.error.issues) {
    const key = issue.path.length > 0 ? issue.path.join('.') : '(body)';
    (argErrors[key] ??= []).push(issue.message);
  }
  throw new ApiError(400, 'Invalid JSON body for this control.', argErrors);
}

/** ISO date/times (with a T) are accepted for convenience and turned into the wire format. */
function wireDue(due: string): string {
  if (!due.includes('T')) return due;
  const ms = Date.parse(due);
  return Number.isNaN(ms) ? due : formatDateTime(ms);
}

/** The web app's JSON as the API's form parameters. */
export function toFormParams(input: WebActionInput): Params {
  const record: Record<string, string | string[] | undefined> = {
    due: input.due === undefined ? undefined : wireDue(input.due),
    task: input.task,
    assigned_to: input.assigned_to ?? undefined,
    notify_on_complete: input.notify_on_complete,
    pin_to_calendar: input.pin_to_calendar ?? undefined,
    urgent: input.urgent ? 'true' : undefined,
    user_tags: input.user_tags,
    care_enquiry: input.care_enquiry ?? undefined,
    service_user: input.service_user ?? undefined,
  };
  (input.reminders ?? []).forEach((r, i) => {
    record[`reminders_${i}-method`] = r.method;
    if (r.offset_type !== undefined) record[`reminders_${i}-offset_type`] = r.offset_type;
    if (r.offset_delta !== undefined && r.offset_delta !== null) record[`reminders_${i}-offset_delta`] = String(r.offset_delta);
    if (r.offset_time_str !== undefined && r.offset_time_str !== null) record[`reminders_${i}-offset_time_str`] = r.offset_time_str;
  });
  return paramsFrom(record);
}

/** The editable fields of an existing action, in the web app's JSON shape (base of a partial edit). */
export function editableFields(action: Action): WebActionInput {
  return {
    due: action.due,
    task: action.task,
    assigned_to: action.assigned_to,
    notify_on_complete: action.notify_on_complete,
    pin_to_calendar: action.pin_to_calendar,
    urgent: action.urgent,
    user_tags: action.user_tags,
    reminders: action.reminders.map((r) => ({
      method: r.method,
      offset_type: r.offset_type,
      offset_delta: r.offset_delta,
      offset_time_str: r.offset_time_str ?? null,
    })),
  };
}
