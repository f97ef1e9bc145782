import type { FakeMessage } from '../types.js';
import { ApiError } from './api-error.js';
import { requireString, type Args } from './args.js';
import { channelForPost, parseContent } from './content.js';
import type { ApiContext, MethodHandler } from './context.js';

/** The message object Slack returns (without the fake's bookkeeping fields). */
export function publicMessage(m: FakeMessage, includeMetadata = true): Record<string, unknown> {
  const { via: _via, channel: _channel, metadata, ...rest } = m;
  return includeMetadata && metadata ? { ...rest, metadata } : rest;
}

function threadFor(ctx: ApiContext, channel: string, threadTs: string | undefined): string | undefined {
  if (!threadTs) return undefined;
  const parent = ctx.store.findMessage(channel, threadTs);
  if (!parent) return undefined;
  return parent.thread_ts ?? parent.ts;
}

const postMessage: MethodHandler = (ctx, args) => {
  const { store } = ctx;
  const channel = channelForPost(ctx, requireString(args, 'channel', 'channel_not_found'));
  const content = parseContent(args, { requireSomething: true });
  const { bot, team } = store.state;
  const threadTs = threadFor(ctx, channel.id, optionalTs(args, 'thread_ts'));
  const message: FakeMessage = {
    type: 'message',
    ts: store.newTs(),
    channel: channel.id,
    user: bot.userId,
    bot_id: bot.botId,
    app_id: bot.appId,
    team: team.id,
    text: content.text ?? '',
    ...(content.blocks ? { blocks: content.blocks } : {}),
    ...(content.attachments ? { attachments: content.attachments } : {}),
    ...(content.metadata ? { metadata: content.metadata } : {}),
    ...(threadTs ? { thread_ts: threadTs } : {}),
    via: 'chat.postMessage',
  };
  store.addMessage(message);
  return { channel: channel.id, ts: message.ts, message: publicMessage(message) };
};

function optionalTs(args: Args, key: string): string | undefined {
  const v = args[key];
  return typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : undefined;
}

const postEphemeral: MethodHandler = (ctx, args) => {
  const { store } = ctx;
  const channel = channelForPost(ctx, requireString(args, 'channel', 'channel_not_found'));
  const user = store.user(requireString(args, 'user', 'user_not_found'));
  if (!user) throw new ApiError('user_not_found');
  if (!channel.members.includes(user.id)) throw new ApiError('user_not_in_channel');
  const content = parseContent(args, { requireSomething: true });
  const ts = store.newTs();
  const threadTs = optionalTs(args, 'thread_ts');
  store.addEphemeral({
    ts,
    channel: channel.id,
    user: user.id,
    text: content.text ?? '',
    ...(content.blocks ? { blocks: content.blocks } : {}),
    ...(content.attachments ? { attachments: content.attachments } : {}),
    ...(threadTs ? { thread_ts: threadTs } : {}),
    via: 'chat.postEphemeral',
  });
  return { message_ts: ts };
};

function findOwnMessage(ctx: ApiContext, args: Args, notOwnError: string): FakeMessage {
  const { store } = ctx;
  const ref = requireString(args, 'channel', 'channel_not_found');
  const channel = store.channel(ref);
  if (!channel) throw new ApiError('channel_not_found');
  const message = store.findMessage(channel.id, requireString(args, 'ts', 'message_not_found'));
  if (!message || message.subtype === 'tombstone') throw new ApiError('message_not_found');
  if (message.user !== store.state.bot.userId) throw new ApiError(notOwnError);
  return message;
}

const update: MethodHandler = (ctx, args) => {
  const message = findOwnMessage(ctx, args, 'cant_update_message');
  const content = parseContent(args, { requireSomething: false });
  if (content.text === undefined && content.blocks === undefined && content.attachments === undefined) throw new ApiError('no_text');
  ctx.store.updateMessage(message, content, true);
  return { channel: message.channel, ts: message.ts, text: message.text, message: publicMessage(message) };
};

const del: MethodHandler = (ctx, args) => {
  const message = findOwnMessage(ctx, args, 'cant_delete_message');
  ctx.store.deleteMessage(message);
  return { channel: message.channel, ts: message.ts };
};

export const chatMethods: Record<string, MethodHandler> = {
  'chat.postMessage': postMessage,
  'chat.postEphemeral': postEphemeral,
  'chat.update': update,
  'chat.delete': del,
};
