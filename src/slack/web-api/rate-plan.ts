/**
 * How fast the app lets itself call each Slack Web API method, per workspace:
 * Slack's published tiers (api.slack.com/docs/rate-limits; each method's page
 * names its tier), kept a little below them, since Slack counts per method, per
 * workspace, per app across every instance of ours. `chat.postMessage` is
 * Slack's special case: about one message per second per channel, short bursts
 * tolerated. Since 29 May 2025 a commercially distributed app not approved for
 * the Marketplace may read `conversations.history`/`replies` once a minute per
 * workspace, 15 messages a page.
 */

/** Calls per minute Slack allows at least, by tier. */
export const TIER_PER_MINUTE = { 1: 1, 2: 20, 3: 50, 4: 100 } as const;
export type Tier = keyof typeof TIER_PER_MINUTE;

/** Each method the app calls, by its tier (unlisted methods are treated as Tier 3). */
export const METHOD_TIERS: Readonly<Record<string, Tier>> = {
  'apps.connections.open': 1,
  'auth.test': 4,
  'bots.info': 3,
  'chat.delete': 3,
  'chat.postEphemeral': 4,
  'chat.update': 3,
  'conversations.history': 3,
  'conversations.info': 3,
  'conversations.list': 2,
  'conversations.members': 4,
  'conversations.open': 3,
  'conversations.replies': 3,
  'files.completeUploadExternal': 4,
  'files.getUploadURLExternal': 4,
  'oauth.v2.access': 4,
  'team.info': 3,
  'users.info': 4,
  'users.list': 2,
  'users.lookupByEmail': 3,
  'views.open': 4,
  'views.publish': 4,
  'views.push': 4,
  'views.update': 4,
};

/** How this app is distributed, which sets what Slack allows it of history. */
export type SlackDistribution = 'internal' | 'distributed' | 'marketplace';

export interface Pace {
  /** Calls allowed in a burst (the bucket's size). */
  burst: number;
  /** Milliseconds between calls once the burst is used. */
  intervalMs: number;
}

const perMinute = (n: number, burst = n): Pace => ({ burst, intervalMs: 60_000 / n });

/** One message a second per channel, with a burst of two (Slack tolerates short bursts). */
export const POST_PER_CHANNEL: Pace = { burst: 2, intervalMs: 1_000 };

/**
 * `chat.postMessage` across a workspace's channels: Slack's special tier has no per-method minute, only
 * "several hundred messages a minute" workspace-wide; the app keeps to 300.
 */
const POSTS_PER_WORKSPACE: Pace = perMinute(300, 60);

/** History and replies: what Slack allows this distribution. */
export function historyPace(distribution: SlackDistribution): { pace: Pace; pageLimit: number } {
  return distribution === 'distributed' ? { pace: perMinute(1, 1), pageLimit: 15 } : { pace: perMinute(TIER_PER_MINUTE[3] * 0.9), pageLimit: 200 };
}

/**
 * Whether the app reads its own posts back from a channel's history (to draw them again or find an alert):
 * Slack allows a distributed app one history read a minute, so its posts are drawn afresh instead.
 */
export const readsOwnPosts = (distribution: SlackDistribution): boolean => distribution !== 'distributed';

/**
 * The pace for one method of one workspace: 90% of its tier's minute, as a
 * bucket that holds that minute's calls (Slack counts per minute, not per second).
 */
export function methodPace(method: string, distribution: SlackDistribution): Pace {
  if (method === 'conversations.history' || method === 'conversations.replies') return historyPace(distribution).pace;
  if (method === 'chat.postMessage') return POSTS_PER_WORKSPACE;
  const tier = METHOD_TIERS[method] ?? 3;
  const n = Math.max(1, Math.floor(TIER_PER_MINUTE[tier] * 0.9));
  return perMinute(n, tier === 1 ? 1 : Math.max(1, Math.floor(n / 2)));
}
