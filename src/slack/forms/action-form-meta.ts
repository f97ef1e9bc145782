import { z } from 'zod';
import { isValidTimeZone } from '../../time/zones.js';
import { CARE_ID } from '../ids.js';

/** Where a card was clicked (see edited-in-place.ts, EditOrigin), as carried in a form's sealed metadata. */
export const EditOriginSchema = z.object({
  channel: z.string(),
  ts: z.string().optional(),
  threadTs: z.string().optional(),
  responseUrl: z.string().url().optional(),
  blockId: z.string().optional(),
});

/** The action form's private_metadata as sealed for the person (see views/action-form-modal.ts, ActionModalMeta). */
export const ActionFormMetaSchema = z.object({
  mode: z.enum(['create', 'edit']),
  actionId: z.string().regex(CARE_ID).optional(),
  tz: z.string().refine(isValidTimeZone),
  channelId: z.string().optional(),
  threadTs: z.string().optional(),
  origin: EditOriginSchema.optional(),
  dueWas: z.string().datetime().optional(),
  farAheadOk: z.string().datetime().optional(),
  shared: z.object({ assignee: z.string().regex(CARE_ID).nullable(), name: z.string().max(80).nullable(), urgent: z.boolean() }).optional(),
  editOk: z
    .string()
    .regex(/^[0-9a-f]{16}$/)
    .optional(),
  taskCut: z.object({ from: z.number().int().positive(), digest: z.string().regex(/^[0-9a-f]{16}$/) }).optional(),
  typed: z.object({ asNew: z.string().max(30).optional(), unread: z.array(z.string().max(40)).max(5).optional() }).optional(),
});
export type ActionFormMeta = z.infer<typeof ActionFormMetaSchema>;
