import type { SlackUser } from '../types.js';
import { tzName, tzOffset } from '@date-fns/tz';
import { ApiError } from './api-error.js';
import { optNumber, optString, requireString } from './args.js';
import { requireScope } from './content.js';
import type { ApiContext, MethodHandler } from './context.js';

/** The user object as this bot may see it: no email without users:read.email; tz_offset as of now (DST). */
function visible(ctx: ApiContext, user: SlackUser): SlackUser {
  const copy = structuredClone(user);
  const at = new Date(ctx.store.clock.now());
  copy.tz_offset = tzOffset(copy.tz, at) * 60;
  copy.tz_label = tzName(copy.tz, at, 'long');
  if (!ctx.store.hasScope('users:read.email')) delete copy.profile.email;
  return copy;
}

const info: MethodHandler = (ctx, args) => {
  requireScope(ctx, 'users:read');
  const ref = requireString(args, 'user', 'user_not_found');
  const user = ctx.store.state.users.find((u) => u.id === ref);
  if (!user) throw new ApiError('user_not_found');
  return { user: visible(ctx, user) };
};

const lookupByEmail: MethodHandler = (ctx, args) => {
  requireScope(ctx, 'users:read.email');
  const email = requireString(args, 'email', 'users_not_found').toLowerCase();
  const user = ctx.store.state.users.find((u) => u.profile.email?.toLowerCase() === email);
  if (!user) throw new ApiError('users_not_found');
  return { user: visible(ctx, user) };
};

const list: MethodHandler = (ctx, args) => {
  requireScope(ctx, 'users:read');
  const limit = Math.max(1, Math.min(optNumber(args, 'limit') ?? 200, 1000));
  const cursor = optString(args, 'cursor');
  const start = cursor ? Number(Buffer.from(cursor, 'base64').toString('utf8').replace('user:', '')) : 0;
  if (!Number.isInteger(start) || start < 0) throw new ApiError('invalid_cursor');
  const all = ctx.store.state.users;
  const page = all.slice(start, start + limit).map((u) => visible(ctx, u));
  const next = start + limit < all.length ? Buffer.from(`user:${start + limit}`).toString('base64') : '';
  return { members: page, cache_ts: Math.floor(ctx.store.clock.now() / 1000), response_metadata: { next_cursor: next } };
};

export const userMethods: Record<string, MethodHandler> = {
  'users.info': info,
  'users.lookupByEmail': lookupByEmail,
  'users.list': list,
};
