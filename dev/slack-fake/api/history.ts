import { pageLimit } from '../app-distribution.js';
import type { FakeChannel, FakeMessage } from '../types.js';
import { ApiError } from './api-error.js';
import { optBool, optNumber, optString, requireString, type Args } from './args.js';
import { publicMessage } from './chat.js';
import { channelForRead, requireScope } from './content.js';
import type { ApiContext, MethodHandler } from './context.js';

function historyScope(c: FakeChannel): string {
  if (c.is_im) return 'im:history';
  if (c.is_mpim) return 'mpim:history';
  return c.is_private ? 'groups:history' : 'channels:history';
}

function readable(ctx: ApiContext, args: Args): FakeChannel {
  const channel = channelForRead(ctx, requireString(args, 'channel', 'channel_not_found'));
  if (!channel.members.includes(ctx.store.state.bot.userId)) throw new ApiError('not_in_channel');
  requireScope(ctx, historyScope(channel));
  return channel;
}

/** A cursor this fake handed out: `<prefix><ts>` in base64 (anything else is `invalid_cursor`). */
function cursorTs(args: Args, prefix: string): string | undefined {
  const cursor = optString(args, 'cursor');
  if (!cursor) return undefined;
  const decoded = Buffer.from(cursor, 'base64').toString('utf8');
  if (!decoded.startsWith(prefix)) throw new ApiError('invalid_cursor');
  return decoded.slice(prefix.length);
}

const cursorOf = (prefix: string, ts: string) => Buffer.from(`${prefix}${ts}`).toString('base64');

/** `oldest` / `latest` (exclusive unless `inclusive`) as one test. */
function window(args: Args): (m: FakeMessage) => boolean {
  const inclusive = optBool(args, 'inclusive') ?? false;
  const oldest = optString(args, 'oldest');
  const latest = optString(args, 'latest');
  return (m) =>
    (!oldest || (inclusive ? Number(m.ts) >= Number(oldest) : Number(m.ts) > Number(oldest))) &&
    (!latest || (inclusive ? Number(m.ts) <= Number(latest) : Number(m.ts) < Number(latest)));
}

/** One page of `all` and what Slack says about the rest: `has_more` and the cursor of the next page. */
function paged(all: FakeMessage[], limit: number, prefix: string, withMetadata: boolean): Record<string, unknown> {
  const page = all.slice(0, limit);
  const hasMore = all.length > limit;
  const last = page.at(-1);
  return {
    messages: page.map((m) => publicMessage(m, withMetadata)),
    has_more: hasMore,
    response_metadata: { next_cursor: hasMore && last ? cursorOf(prefix, last.ts) : '' },
  };
}

/**
 * conversations.history: top-level messages, newest first. `limit` defaults to 100 and is at most 999 (Slack's
 * method page), or defaults to and is capped at 15 for a distributed, non-Marketplace install.
 */
const history: MethodHandler = (ctx, args) => {
  const channel = readable(ctx, args);
  const limit = pageLimit(ctx.store.appDistribution, optNumber(args, 'limit'), { limit: 100, max: 999 });
  const before = cursorTs(args, 'ts:');
  const inWindow = window(args);
  const all = (ctx.store.state.messages[channel.id] ?? [])
    .filter((m) => !m.thread_ts || m.thread_ts === m.ts)
    .filter((m) => inWindow(m) && (before === undefined || Number(m.ts) < Number(before)))
    .sort((a, b) => Number(b.ts) - Number(a.ts));
  return { ...paged(all, limit, 'ts:', optBool(args, 'include_all_metadata') ?? false), pin_count: 0 };
};

/**
 * conversations.replies: a thread, parent first, oldest first, within `oldest` / `latest`. `limit` defaults to and
 * is at most 1,000 (Slack's method page), or 15 for a distributed, non-Marketplace install; later pages (by cursor)
 * go on after the last message of the page before.
 */
const replies: MethodHandler = (ctx, args) => {
  const channel = readable(ctx, args);
  const ts = requireString(args, 'ts', 'thread_not_found');
  const limit = pageLimit(ctx.store.appDistribution, optNumber(args, 'limit'), { limit: 1000, max: 1000 });
  const after = cursorTs(args, 'after:');
  const list = ctx.store.state.messages[channel.id] ?? [];
  const parent = list.find((m) => m.ts === ts);
  if (!parent) throw new ApiError('thread_not_found');
  const root = parent.thread_ts ?? parent.ts;
  const inWindow = window(args);
  const thread = list
    .filter((m) => m.ts === root || m.thread_ts === root)
    .filter((m) => inWindow(m) && (after === undefined || Number(m.ts) > Number(after)))
    .sort((a, b) => Number(a.ts) - Number(b.ts));
  return paged(thread, limit, 'after:', optBool(args, 'include_all_metadata') ?? false);
};

export const historyMethods: Record<string, MethodHandler> = {
  'conversations.history': history,
  'conversations.replies': replies,
};
