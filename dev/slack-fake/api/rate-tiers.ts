/**
 * Slack's published rate tier of each Web API method the app calls or the fake serves.
 *
 * Source: each method's reference page on docs.slack.dev ("Rate limits" under Facts), as kept machine-readable in
 * slack-ruby/slack-api-ref, `docs.slack.dev/methods/<method>.json`, field `rate_limits` (`t1`…`t4` = Tier 1…4,
 * `t5` = Special), read at commit f4837c0cb6dba1b1122ce66a5b69195ce47213f8. The tiers' budgets and "per method, per
 * workspace, per app" are from https://docs.slack.dev/apis/web-api/rate-limits; the distributed-app rule for
 * history and replies is from the 2025-05-29 changelog (see `app-distribution.ts`).
 */
export type RateTier = 1 | 2 | 3 | 4 | 'special';

/** Requests per minute each tier guarantees ("1+", "20+", "50+", "100+"): the fake allows exactly that many. */
export const TIER_PER_MINUTE: Record<1 | 2 | 3 | 4, number> = { 1: 1, 2: 20, 3: 50, 4: 100 };

export const RATE_TIERS: Readonly<Record<string, RateTier>> = {
  // Served by the fake (and called by the app or by Bolt).
  'auth.test': 'special', // t5; Slack publishes no number: the fake holds it to Tier 4's 100/min
  'auth.revoke': 3,
  'chat.postMessage': 'special', // t5: about 1 per second per channel, short bursts (the posting rule)
  'chat.postEphemeral': 4, // t4; the fake also applies the posting rule per channel (see rate-scope.ts)
  'chat.update': 3,
  'chat.delete': 3,
  'views.open': 4,
  'views.push': 4,
  'views.update': 4,
  'views.publish': 4,
  'users.info': 4,
  'users.lookupByEmail': 3,
  'users.list': 2,
  'oauth.v2.access': 'special', // t5; no number published: the fake holds it to Tier 4's 100/min per app
  'conversations.open': 3,
  'conversations.info': 3,
  'conversations.list': 2,
  'conversations.history': 3, // Tier 1 (1/min, 15 per page) for a distributed, non-Marketplace install
  'conversations.replies': 3, // likewise
  'apps.connections.open': 3,
  'files.getUploadURLExternal': 4,
  'files.completeUploadExternal': 4,
  // Not served by the fake yet: listed so that a new handler gets its tier.
  'conversations.members': 4,
  'team.info': 3,
  'bots.info': 3,
  'usergroups.list': 2,
  'usergroups.users.list': 2,
  'chat.scheduleMessage': 3,
};

/** The per-minute budget of a method's tier (Special methods without a posting rule: Tier 4's 100). */
export function perMinuteOf(tier: RateTier): number {
  return tier === 'special' ? TIER_PER_MINUTE[4] : TIER_PER_MINUTE[tier];
}
