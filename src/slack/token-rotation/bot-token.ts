/**
 * Where a workspace's Slack clients get their bot token, call by call (token
 * rotation): the client keeps the token it was built with, and its `fetch`
 * (rotating-fetch.ts) asks this for the one to send. Nothing is rebuilt when a
 * token is refreshed, so no call in flight is dropped.
 */
export interface BotTokenSource {
  /** The token to call with now, refreshed first when it is about to expire; null: keep the client's own. */
  current(): Promise<string | null>;
  /**
   * Slack answered `token_expired` to a call made with `used` (clocks disagree): the token to try once more
   * with, refreshed unless that was done meanwhile; null when there is none better.
   */
  expired(used: string): Promise<string | null>;
}
