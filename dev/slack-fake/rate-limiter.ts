/**
 * The posting rule: about `perSecond` posts per second per conversation, with `burst` tolerated at once
 * (a token bucket). Slack: "1 per second, short bursts >1 allowed" (https://docs.slack.dev/apis/web-api/rate-limits).
 */
export interface PostRateLimit {
  perSecond: number;
  burst: number;
}

/** Today's Slack as the fake answers it: 1 per second per conversation, a burst of 3. */
export const DEFAULT_POST_RATE_LIMIT: PostRateLimit = { perSecond: 1, burst: 3 };
