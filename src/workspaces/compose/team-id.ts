/**
 * A workspace's Slack team id: known (many workspaces), or asked of Slack once when first needed (one
 * workspace: auth.test), and asked again after a failed ask.
 */
export function lazyTeamId(known: string | undefined, ask: () => Promise<{ team_id?: string | undefined }>): () => Promise<string> {
  let teamId: Promise<string> | undefined = known ? Promise.resolve(known) : undefined;
  return () =>
    (teamId ??= ask().then(
      (r) => r.team_id ?? '',
      (err) => {
        teamId = undefined;
        throw err;
      },
    ));
}
