/**
 * Whether this workspace let the app read channel history at all. Since March 2026 the three `*:history`
 * bot scopes are optional (manifest.yml `bot_optional`): an installer may decline them. Without all three the
 * app never calls `conversations.history` or `conversations.replies`: a post whose answer was lost is marked
 * uncertain instead of looked for (delivery.ts), and a post is drawn or edited afresh instead of read back.
 * The granted scopes are what Slack says the bot token has (its `x-oauth-scopes` answer header, read once
 * per composition with `auth.test`), so a deployment of one workspace and one of many learn it the same way.
 */
export const HISTORY_SCOPES = ['im:history', 'channels:history', 'groups:history'] as const;

/** Pure: do these granted scopes allow every history read the app makes? */
export function grantsHistory(scopes: readonly string[]): boolean {
  return HISTORY_SCOPES.every((s) => scopes.includes(s));
}

export interface HistoryAccess {
  /** May the app read history in this workspace? Rejects when Slack could not be asked (try again later). */
  readable(): Promise<boolean>;
}

export function createHistoryAccess(deps: {
  /** The bot token's granted scopes; undefined when Slack did not say (then history is read as before). */
  grantedScopes: () => Promise<readonly string[] | undefined>;
}): HistoryAccess {
  let known: Promise<boolean> | undefined;
  return {
    readable() {
      known ??= deps.grantedScopes().then(
        (scopes) => (scopes === undefined ? true : grantsHistory(scopes)),
        (err: unknown) => {
          known = undefined;
          throw err;
        },
      );
      return known;
    },
  };
}

/** History is always readable (tests and tools that build a deliverer by hand). */
export const ALWAYS_READABLE: HistoryAccess = { readable: async () => true };
