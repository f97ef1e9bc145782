import { LIMITS, formatBlockError } from '../block-kit/limits.js';
import { validateBlocks } from '../block-kit/validate-blocks.js';
import type { FakeChannel, MessageMetadata, Block } from '../types.js';
import { ApiError, validationError } from './api-error.js';
import { optJson, optString, type Args } from './args.js';
import type { ApiContext } from './context.js';

/** Message content from chat.* / response_url arguments, validated like Slack. */
export interface MessageContent {
  text?: string;
  blocks?: Block[];
  attachments?: Block[];
  metadata?: MessageMetadata;
}

export function parseBlocks(value: unknown): Block[] | undefined {
  if (value === undefined) return undefined;
  const errors = validateBlocks(value, 'message', '/blocks');
  if (errors.length > 0) throw validationError('invalid_blocks', errors.map(formatBlockError));
  return value as Block[];
}

export function parseContent(args: Args, options: { requireSomething: boolean }): MessageContent {
  const text = optString(args, 'text');
  const blocks = parseBlocks(optJson(args, 'blocks', 'invalid_blocks_format'));
  const attachments = optJson(args, 'attachments', 'invalid_attachments');
  if (attachments !== undefined && !Array.isArray(attachments)) throw new ApiError('invalid_attachments');
  const rawMetadata = optJson(args, 'metadata', 'invalid_metadata_format');
  let metadata: MessageMetadata | undefined;
  if (rawMetadata !== undefined) {
    const m = rawMetadata as Record<string, unknown>;
    const payload = m.event_payload;
    if (typeof m.event_type !== 'string' || typeof payload !== 'object' || payload === null || Array.isArray(payload)) {
      throw new ApiError('invalid_metadata_format');
    }
    metadata = { event_type: m.event_type, event_payload: payload as Record<string, unknown> };
  }
  if (options.requireSomething && !text && !blocks?.length && !(attachments as unknown[] | undefined)?.length) throw new ApiError('no_text');
  if (text && text.length > LIMITS.messageText) throw new ApiError('msg_too_long');
  return {
    ...(text !== undefined ? { text } : {}),
    ...(blocks !== undefined ? { blocks } : {}),
    ...(attachments !== undefined ? { attachments: attachments as Block[] } : {}),
    ...(metadata ? { metadata } : {}),
  };
}

/** The conversation a bot post goes to: a user id means that person's IM with the bot. */
export function channelForPost(ctx: ApiContext, ref: string): FakeChannel {
  const { store } = ctx;
  const user = /^[UW][A-Z0-9]+$/.test(ref) ? store.user(ref) : undefined;
  if (user && !user.is_bot) return store.imWith(user.id);
  const channel = store.channel(ref);
  if (!channel) throw new ApiError('channel_not_found');
  if (channel.is_archived) throw new ApiError('is_archived');
  const isMember = channel.members.includes(store.state.bot.userId);
  if (isMember) return channel;
  if (channel.is_private || channel.is_im) throw new ApiError('channel_not_found');
  if (store.hasScope('chat:write.public')) return channel;
  throw new ApiError('not_in_channel');
}

/** A conversation the bot may look at (private ones only when it is a member). */
export function channelForRead(ctx: ApiContext, ref: string): FakeChannel {
  const { store } = ctx;
  const channel = store.channel(ref);
  if (!channel) throw new ApiError('channel_not_found');
  if ((channel.is_private || channel.is_im) && !channel.members.includes(store.state.bot.userId)) throw new ApiError('channel_not_found');
  return channel;
}

export function requireScope(ctx: ApiContext, scope: string): void {
  if (!ctx.store.hasScope(scope)) {
    throw new ApiError('missing_scope', { needed: scope, provided: ctx.store.state.bot.scopes.join(',') });
  }
}
