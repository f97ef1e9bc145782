import type { FakeChannel } from '../types.js';
import { ApiError } from './api-error.js';
import { optBool, optNumber, optString, requireString } from './args.js';
import { channelForRead, requireScope } from './content.js';
import type { ApiContext, MethodHandler } from './context.js';

function channelObject(ctx: ApiContext, c: FakeChannel): Record<string, unknown> {
  const base = { id: c.id, created: c.created, is_archived: c.is_archived, is_org_shared: false, context_team_id: ctx.store.state.team.id };
  if (c.is_im) return { ...base, is_im: true, user: c.user, is_user_deleted: false, priority: 0 };
  const isMember = c.members.includes(ctx.store.state.bot.userId);
  return {
    ...base,
    name: c.name,
    name_normalized: c.name,
    is_channel: !c.is_mpim,
    is_group: false,
    is_im: false,
    is_mpim: c.is_mpim,
    is_private: c.is_private,
    is_general: c.name === 'general',
    is_shared: false,
    is_ext_shared: false,
    is_member: isMember,
    creator: c.creator,
    topic: { value: c.topic, creator: '', last_set: 0 },
    purpose: { value: c.purpose, creator: '', last_set: 0 },
    num_members: c.members.length,
  };
}

const open: MethodHandler = (ctx, args) => {
  const { store } = ctx;
  const channelRef = optString(args, 'channel');
  if (channelRef) {
    const im = store.channel(channelRef);
    if (!im || !(im.is_im || im.is_mpim)) throw new ApiError('channel_not_found');
    return { channel: optBool(args, 'return_im') ? channelObject(ctx, im) : { id: im.id }, already_open: true };
  }
  const ids = requireString(args, 'users', 'users_list_not_supplied')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const users = ids.map((id) => store.state.users.find((u) => u.id === id));
  if (users.some((u) => !u)) throw new ApiError('user_not_found');
  if (users.some((u) => u?.is_bot)) throw new ApiError('cannot_dm_bot');
  if (ids.length === 1) {
    requireScope(ctx, 'im:write');
    const existed = store.state.channels.some((c) => c.is_im && c.user === ids[0]);
    const im = store.imWith(ids[0] as string);
    return { channel: optBool(args, 'return_im') ? channelObject(ctx, im) : { id: im.id }, ...(existed ? { already_open: true } : {}) };
  }
  requireScope(ctx, 'mpim:write');
  const members = [...new Set([...ids, store.state.bot.userId])].sort();
  let mpim = store.state.channels.find((c) => c.is_mpim && [...c.members].sort().join() === members.join());
  if (!mpim) {
    const names = members.map((id) => store.state.users.find((u) => u.id === id)?.name ?? id);
    mpim = {
      id: store.ids.next('C'),
      name: `mpdm-${names.join('--')}-1`,
      is_private: true,
      is_im: false,
      is_mpim: true,
      members,
      created: Math.floor(store.clock.now() / 1000),
      creator: store.state.bot.userId,
      topic: '',
      purpose: '',
      is_archived: false,
    };
    store.state.channels.push(mpim);
    store.emit({ kind: 'channel.opened', channel: mpim.id });
  }
  return { channel: { id: mpim.id } };
};

const info: MethodHandler = (ctx, args) => {
  const channel = channelForRead(ctx, requireString(args, 'channel', 'channel_not_found'));
  requireScope(ctx, channel.is_im ? 'im:read' : channel.is_mpim ? 'mpim:read' : channel.is_private ? 'groups:read' : 'channels:read');
  return { channel: channelObject(ctx, channel) };
};

const LIST_TYPES: Record<string, { scope: string; matches: (c: FakeChannel) => boolean }> = {
  public_channel: { scope: 'channels:read', matches: (c) => !c.is_im && !c.is_mpim && !c.is_private },
  private_channel: { scope: 'groups:read', matches: (c) => !c.is_im && !c.is_mpim && c.is_private },
  mpim: { scope: 'mpim:read', matches: (c) => c.is_mpim },
  im: { scope: 'im:read', matches: (c) => c.is_im },
};

/**
 * conversations.list: the channel-like conversations of the types asked for
 * (default public_channel), each type needing its read scope. A bot sees every
 * public channel, but private channels, group DMs and DMs only when it is in
 * them. Like Slack, a page is cut before that filter, so a page may hold fewer
 * than `limit` (even none) while `next_cursor` says there is more.
 */
const list: MethodHandler = (ctx, args) => {
  const { store } = ctx;
  const typeNames = (optString(args, 'types') ?? 'public_channel')
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
  if (typeNames.length === 0 || typeNames.some((t) => !(t in LIST_TYPES))) throw new ApiError('invalid_types');
  const types = typeNames.map((t) => LIST_TYPES[t]!);
  for (const t of types) requireScope(ctx, t.scope);
  const limit = optNumber(args, 'limit') ?? 100;
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new ApiError('invalid_limit');
  const excludeArchived = optBool(args, 'exclude_archived') ?? false;
  const cursor = optString(args, 'cursor');
  const start = cursor
    ? Number(
        Buffer.from(cursor, 'base64')
          .toString('utf8')
          .replace(/^channel:/, ''),
      )
    : 0;
  if (!Number.isInteger(start) || start < 0) throw new ApiError('invalid_cursor');
  const bot = store.state.bot.userId;
  const all = store.state.channels;
  const visible = (c: FakeChannel) => types.some((t) => t.matches(c)) && (!c.is_private || c.members.includes(bot)) && !(excludeArchived && c.is_archived);
  const page = all.slice(start, start + limit).filter(visible);
  const next = start + limit < all.length ? Buffer.from(`channel:${start + limit}`).toString('base64') : '';
  return { channels: page.map((c) => channelObject(ctx, c)), response_metadata: { next_cursor: next } };
};

const authTest: MethodHandler = (ctx) => {
  const { team, bot } = ctx.store.state;
  return {
    url: `https://${team.domain}.slack.com/`,
    team: team.name,
    user: bot.name,
    team_id: team.id,
    user_id: bot.userId,
    bot_id: bot.botId,
    ...(ctx.store.orgWideInstall ? { enterprise_id: ctx.store.orgWideInstall.enterprise.id, is_enterprise_install: true } : { is_enterprise_install: false }),
  };
};

export const conversationMethods: Record<string, MethodHandler> = {
  'auth.test': authTest,
  'conversations.open': open,
  'conversations.info': info,
  'conversations.list': list,
};
