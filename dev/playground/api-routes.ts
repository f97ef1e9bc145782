/**
 * The playground's JSON API: one route per backend act, each body checked
 * with zod before the backend sees it.
 */
import { z } from 'zod';
import type { ButtonClick, OptionSelection, PlaygroundBackend, ViewStateValues } from './backend.js';

const id = z.string().min(1).max(255);
const text = z.object({ type: z.enum(['plain_text', 'mrkdwn']), text: z.string(), emoji: z.boolean().optional(), verbatim: z.boolean().optional() });
const option = z.object({ text, value: z.string().max(2000), description: text.optional(), url: z.string().optional() });
const actionNo = z.union([z.string().min(1).max(64), z.number().int().nonnegative()]);

const target = {
  userId: id,
  where: z.enum(['message', 'home', 'modal']),
  channelId: id.optional(),
  ts: z
    .string()
    .regex(/^\d+\.\d+$/, 'expected a Slack ts like "1700000000.000100"')
    .optional(),
  isEphemeral: z.boolean().optional(),
  viewId: id.optional(),
  blockId: id,
  actionId: id,
};
const needsMessage = (t: { where: string; channelId?: string | undefined; ts?: string | undefined }) => t.where !== 'message' || (!!t.channelId && !!t.ts);
const messageRule = { message: 'channelId and ts are required when where is "message"', path: ['where'] };

const stateValue = z
  .object({
    type: z.string().min(1),
    value: z.string().nullable().optional(),
    selected_date: z.string().nullable().optional(),
    selected_time: z.string().nullable().optional(),
    selected_date_time: z.number().int().nullable().optional(),
    timezone: z.string().optional(),
    selected_user: z.string().nullable().optional(),
    selected_users: z.array(z.string()).optional(),
    selected_channel: z.string().nullable().optional(),
    selected_channels: z.array(z.string()).optional(),
    selected_conversation: z.string().nullable().optional(),
    selected_conversations: z.array(z.string()).optional(),
    selected_option: option.nullable().optional(),
    selected_options: z.array(option).optional(),
  })
  .strict();

/** A modal's `view.state.values` as the page collected them. */
const viewValues = z.record(z.string(), z.record(z.string(), stateValue));

const schemas = {
  'slash-command': z.object({
    userId: id,
    channelId: id,
    text: z
      .string()
      .regex(/^\/[\w-]+/, 'a slash command starts with "/" and a command name')
      .max(4000),
  }),
  'post-message': z.object({ userId: id, channelId: id, text: z.string().trim().min(1, 'the message is empty').max(40_000), threadTs: target.ts }),
  'click-button': z.object({ ...target, value: z.string().max(2000).optional(), values: viewValues.optional() }).refine(needsMessage, messageRule),
  'select-option': z
    .object({
      ...target,
      values: viewValues.optional(),
      selected: z.discriminatedUnion('type', [
        z.object({ type: z.enum(['static_select', 'overflow', 'external_select']), selected_option: option }),
        z.object({ type: z.literal('users_select'), selected_user: id }),
        z.object({ type: z.literal('datepicker'), selected_date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'expected YYYY-MM-DD') }),
      ]),
    })
    .refine(needsMessage, messageRule),
  'submit-modal': z.object({ userId: id, viewId: id.optional(), values: viewValues }),
  'close-modal': z.object({ userId: id, viewId: id.optional() }),
  'suggest-options': z.object({ userId: id, blockId: id, actionId: id, value: z.string().max(2000), viewId: id.optional() }),
  'open-home': z.object({ userId: id }),
  'simulate/complete-action': z.object({ action: actionNo }),
  'simulate/advance-clock': z.object({}).optional(),
  'simulate/advance-shift': z.object({}).optional(),
  'simulate/advance-15': z.object({}).optional(),
  'simulate/mark-urgent': z.object({ action: actionNo }),
  'simulate/list-actions': z.object({}).optional(),
} as const;

export type RouteName = keyof typeof schemas;

/** Runs one validated request against the backend; the answer is sent as JSON. */
const handlers: { [K in RouteName]: (b: PlaygroundBackend, body: z.infer<(typeof schemas)[K]>) => Promise<unknown> } = {
  'slash-command': (b, x) => b.sendSlashCommand(x.userId, x.channelId, x.text),
  'post-message': (b, x) => b.postMessage(x.userId, x.channelId, x.text, x.threadTs),
  'click-button': (b, { userId, ...click }) => b.clickButton(userId, click as ButtonClick),
  'select-option': (b, { userId, ...selection }) => b.selectOption(userId, selection as OptionSelection),
  'submit-modal': (b, x) => b.submitModal(x.userId, x.values as ViewStateValues, x.viewId),
  'close-modal': (b, x) => b.closeModal(x.userId, x.viewId),
  'suggest-options': async (b, { userId, ...query }) => ({ options: await b.suggestOptions(userId, query) }),
  'open-home': (b, x) => b.openHome(x.userId),
  'simulate/complete-action': (b, x) => b.simulate.completeActionInWebApp(x.action),
  'simulate/advance-clock': (b) => b.simulate.advanceClockToNextDigest(),
  'simulate/advance-shift': (b) => b.simulate.advanceClockToNextShift(),
  'simulate/advance-15': (b) => b.simulate.advanceClock15Minutes(),
  'simulate/mark-urgent': (b, x) => b.simulate.markActionUrgent(x.action),
  'simulate/list-actions': async (b) => ({ actions: await b.simulate.listSimulatableActions() }),
};

export function isRoute(name: string): name is RouteName {
  return Object.hasOwn(schemas, name);
}

export type ParseResult = { ok: true; run: (backend: PlaygroundBackend) => Promise<unknown> } | { ok: false; error: string };

/** Validate a body for a route; the error names each bad field. */
export function parseRequest(route: RouteName, body: unknown): ParseResult {
  const parsed = schemas[route].safeParse(body);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.length ? i.path.join('.') : 'body'}: ${i.message}`);
    return { ok: false, error: `Invalid request to /api/${route}: ${problems.join('; ')}` };
  }
  const handler = handlers[route] as (b: PlaygroundBackend, x: unknown) => Promise<unknown>;
  return { ok: true, run: (backend) => handler(backend, parsed.data) };
}
