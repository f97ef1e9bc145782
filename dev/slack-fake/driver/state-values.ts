import { isDate, isTime } from '../block-kit/checks.js';
import { textMatches, textOf } from '../find-blocks.js';
import type { Block, StateValue, StateValues } from '../types.js';

type Obj = Record<string, unknown>;

/** What a person can put into an element: text, a date string, option texts, user/channel refs, a time. */
export type PersonInput = string | number | Date | readonly string[];

/** Looks up workspace ids from what a person would pick (name, email, #channel). */
export interface Resolver {
  userId(ref: string): string;
  channelId(ref: string): string;
}

const TEXT_INPUTS = ['plain_text_input', 'email_text_input', 'url_text_input', 'number_input'];

/** The value Slack reports for an element nobody touched (its initial value, or empty). */
export function initialStateValue(el: Obj): StateValue | undefined {
  const type = String(el.type);
  const v = (key: string, fallback: unknown = null) => (el[key] !== undefined ? el[key] : fallback);
  if (TEXT_INPUTS.includes(type)) return { type, value: v('initial_value') };
  switch (type) {
    case 'datepicker':
      return { type, selected_date: v('initial_date') };
    case 'timepicker':
      return { type, selected_time: v('initial_time'), ...(el.timezone ? { timezone: el.timezone } : {}) };
    case 'datetimepicker':
      return { type, selected_date_time: v('initial_date_time') };
    case 'static_select':
    case 'external_select':
    case 'radio_buttons':
      return { type, selected_option: v('initial_option') };
    case 'multi_static_select':
    case 'multi_external_select':
    case 'checkboxes':
      return { type, selected_options: v('initial_options', []) };
    case 'users_select':
      return { type, selected_user: v('initial_user') };
    case 'multi_users_select':
      return { type, selected_users: v('initial_users', []) };
    case 'conversations_select':
      return { type, selected_conversation: v('initial_conversation') };
    case 'multi_conversations_select':
      return { type, selected_conversations: v('initial_conversations', []) };
    case 'channels_select':
      return { type, selected_channel: v('initial_channel') };
    case 'multi_channels_select':
      return { type, selected_channels: v('initial_channels', []) };
    case 'rich_text_input':
      return { type, rich_text_value: v('initial_value') };
    case 'file_input':
      return { type, files: [] };
    default:
      return undefined;
  }
}

/** All options of a select/checkbox/radio element (option_groups flattened). */
export function optionsOf(el: Obj): Obj[] {
  if (Array.isArray(el.option_groups)) return el.option_groups.flatMap((g) => (Array.isArray((g as Obj).options) ? ((g as Obj).options as Obj[]) : []));
  return Array.isArray(el.options) ? (el.options as Obj[]) : [];
}

/** An option by what the person reads on it (or its value). */
export function pickOption(options: readonly Obj[], wanted: string, where: string): Obj {
  const found = options.find((o) => textMatches(textOf(o.text), wanted)) ?? options.find((o) => o.value === wanted);
  if (!found) {
    const seen = options.map((o) => textOf(o.text)).join(', ');
    throw new Error(`Slack driver: no option "${wanted}" in ${where} (options: ${seen || 'none'})`);
  }
  return found;
}

function list(input: PersonInput): string[] {
  return Array.isArray(input) ? [...input] : [String(input)];
}

function one(input: PersonInput, where: string): string {
  if (Array.isArray(input)) throw new Error(`Slack driver: ${where} takes one value, not a list`);
  return String(input);
}

/**
 * The state value after a person sets an element, in Slack's shape.
 * `options` overrides the element's own options (external selects: what the app answered).
 */
export function personStateValue(el: Obj, input: PersonInput, resolve: Resolver, where: string, options?: Obj[]): StateValue {
  const type = String(el.type);
  if (TEXT_INPUTS.includes(type)) {
    const value = one(input, where);
    if (type === 'number_input' && !Number.isFinite(Number(value))) throw new Error(`Slack driver: ${where} takes a number, got "${value}"`);
    return { type, value };
  }
  switch (type) {
    case 'datepicker': {
      const date = input instanceof Date ? input.toISOString().slice(0, 10) : one(input, where);
      if (!isDate(date)) throw new Error(`Slack driver: ${where} is a date picker; give YYYY-MM-DD, got "${date}"`);
      return { type, selected_date: date };
    }
    case 'timepicker': {
      const time = one(input as PersonInput, where);
      if (!isTime(time)) throw new Error(`Slack driver: ${where} is a time picker; give HH:mm, got "${time}"`);
      return { type, selected_time: time, ...(el.timezone ? { timezone: el.timezone } : {}) };
    }
    case 'datetimepicker': {
      const ms = input instanceof Date ? input.getTime() : typeof input === 'number' ? input * 1000 : Date.parse(one(input, where));
      if (!Number.isFinite(ms)) throw new Error(`Slack driver: ${where} takes a Date, Unix seconds or an ISO date-time`);
      return { type, selected_date_time: Math.floor(ms / 1000) };
    }
    case 'static_select':
    case 'external_select':
    case 'radio_buttons':
    case 'overflow':
      return { type, selected_option: pickOption(options ?? optionsOf(el), one(input, where), where) };
    case 'multi_static_select':
    case 'multi_external_select':
    case 'checkboxes':
      return { type, selected_options: list(input).map((w) => pickOption(options ?? optionsOf(el), w, where)) };
    case 'users_select':
      return { type, selected_user: resolve.userId(one(input, where)) };
    case 'multi_users_select':
      return { type, selected_users: list(input).map((u) => resolve.userId(u)) };
    case 'conversations_select':
      return { type, selected_conversation: resolve.channelId(one(input, where)) };
    case 'multi_conversations_select':
      return { type, selected_conversations: list(input).map((c) => resolve.channelId(c)) };
    case 'channels_select':
      return { type, selected_channel: resolve.channelId(one(input, where)) };
    case 'multi_channels_select':
      return { type, selected_channels: list(input).map((c) => resolve.channelId(c)) };
    default:
      throw new Error(`Slack driver: cannot fill a ${type} (${where})`);
  }
}

/** Whether a state value is empty (for "required field" checks). */
export function isEmptyValue(value: StateValue | undefined): boolean {
  if (!value) return true;
  const { type: _t, timezone: _z, ...rest } = value;
  return Object.values(rest).every((v) => v === null || v === undefined || v === '' || (Array.isArray(v) && v.length === 0));
}

/**
 * `view.state.values` as Slack sends it: every element of every input block
 * (touched or not), plus elements elsewhere the person has set.
 */
export function submittedValues(blocks: readonly Block[], personValues: StateValues): StateValues {
  const out: StateValues = structuredClone(personValues);
  for (const block of blocks) {
    if (block.type !== 'input') continue;
    const el = block.element as Obj | undefined;
    const blockId = block.block_id as string;
    const actionId = el?.action_id as string | undefined;
    if (!el || !actionId || out[blockId]?.[actionId]) continue;
    const initial = initialStateValue(el);
    if (initial) out[blockId] = { ...(out[blockId] ?? {}), [actionId]: initial };
  }
  return out;
}
