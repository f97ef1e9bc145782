/**
 * How the app is distributed to a workspace, which decides its `conversations.history` / `.replies` limits.
 *
 * - `internal`: a customer-built app in its own workspace: Tier 3, up to 999 (history) / 1,000 (replies) per page.
 * - `marketplace`: approved for the Slack Marketplace: the same as internal.
 * - `distributed`: commercially distributed, not Marketplace-approved: each of the two methods 1 request per minute
 *   per workspace, `limit` defaults to and is capped at 15.
 *
 * Source: docs.slack.dev changelog 2025-05-29 "Rate limit changes for non-Marketplace apps" and
 * https://docs.slack.dev/apis/web-api/rate-limits ("App types and rate limits"); new installs at once, existing
 * installs from a later date (reported as enforced from 3 March 2026).
 */
export type AppDistribution = 'internal' | 'distributed' | 'marketplace';

/** Requests per minute per workspace for each of history and replies, for a distributed install. */
export const DISTRIBUTED_READS_PER_MINUTE = 1;

/** The page size cap (and default) of history and replies for a distributed install. */
export const DISTRIBUTED_PAGE_LIMIT = 15;

/** The methods the rule covers. */
export const HISTORY_METHODS: ReadonlySet<string> = new Set(['conversations.history', 'conversations.replies']);

export function isRestricted(distribution: AppDistribution): boolean {
  return distribution === 'distributed';
}

/** A page's size: the caller's `limit` (or the method's default), capped for a distributed install. */
export function pageLimit(distribution: AppDistribution, asked: number | undefined, defaults: { limit: number; max: number }): number {
  if (isRestricted(distribution)) return Math.max(1, Math.min(asked ?? DISTRIBUTED_PAGE_LIMIT, DISTRIBUTED_PAGE_LIMIT));
  return Math.max(1, Math.min(asked ?? defaults.limit, defaults.max));
}
