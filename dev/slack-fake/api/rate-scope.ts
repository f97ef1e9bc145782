import { DISTRIBUTED_READS_PER_MINUTE, HISTORY_METHODS, isRestricted, type AppDistribution } from '../app-distribution.js';
import type { PostRateLimit } from '../rate-limiter.js';
import type { FakeStore } from '../store.js';
import type { BucketLimit } from '../token-buckets.js';
import type { Args } from './args.js';
import { perMinuteOf, RATE_TIERS } from './rate-tiers.js';

/** Which of Slack's rules a bucket stands for. */
export type RateRule = 'tier' | 'posting' | 'distributed';

export interface RateBucket {
  key: string;
  limit: BucketLimit;
  rule: RateRule;
}

/** One call as the rate limits see it: per method, per workspace (none for app-level calls), per app. */
export interface RateCall {
  method: string;
  /** null: a call that names no workspace (the app-level token, oauth.v2.access). */
  teamId: string | null;
  appId: string;
  /** The buckets the call takes a token from (all or none). */
  buckets: RateBucket[];
  /** What "the same bucket" means for calls repeated inside an earlier 429's Retry-After (also for injected 429s). */
  keys: string[];
}

/** Methods with the posting rule per conversation: chat.postMessage (Special) and, as this fake chooses, chat.postEphemeral. */
const POSTING_METHODS: ReadonlySet<string> = new Set(['chat.postMessage', 'chat.postEphemeral']);

function perMinute(n: number): BucketLimit {
  return { capacity: n, perSecond: n / 60 };
}

/** Posts are limited per conversation: a user id and their IM share one budget. */
function conversationKey(store: FakeStore | undefined, ref: string): string {
  if (!store) return ref;
  const user = /^[UW][A-Z0-9]+$/.test(ref) ? store.user(ref) : undefined;
  if (user) return `im:${user.id}`;
  const channel = store.channel(ref);
  if (channel?.is_im && channel.user) return `im:${channel.user}`;
  return channel?.id ?? ref;
}

/**
 * The buckets of one call:
 * - its tier, per method per workspace per app (Tier 1…4: 1/20/50/100 a minute, bursts up to that many);
 * - chat.postMessage and chat.postEphemeral: the posting rule, `post` per second per conversation with a burst;
 * - conversations.history / .replies of a distributed install: 1 a minute per workspace instead of Tier 3.
 */
export function rateCall(
  method: string,
  where: { teamId: string | null; appId: string; store?: FakeStore; distribution: AppDistribution },
  args: Args,
  post: PostRateLimit | false,
): RateCall {
  const scope = `${where.appId}/${where.teamId ?? '-'}/${method}`;
  const buckets: RateBucket[] = [];
  const tier = RATE_TIERS[method];
  if (HISTORY_METHODS.has(method) && isRestricted(where.distribution)) {
    buckets.push({ key: `${scope}/distributed`, limit: perMinute(DISTRIBUTED_READS_PER_MINUTE), rule: 'distributed' });
  } else if (tier !== undefined && !(tier === 'special' && POSTING_METHODS.has(method))) {
    buckets.push({ key: scope, limit: perMinute(perMinuteOf(tier)), rule: 'tier' });
  }
  if (POSTING_METHODS.has(method)) {
    const channel = typeof args.channel === 'string' ? args.channel : '';
    const key = `${scope}/${conversationKey(where.store, channel)}`;
    if (post) buckets.push({ key, limit: { capacity: post.burst, perSecond: post.perSecond }, rule: 'posting' });
    return { method, teamId: where.teamId, appId: where.appId, buckets, keys: post ? buckets.map((b) => b.key) : [key] };
  }
  return { method, teamId: where.teamId, appId: where.appId, buckets, keys: buckets.length > 0 ? buckets.map((b) => b.key) : [scope] };
}
