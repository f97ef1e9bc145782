/**
 * A deployment of one workspace learns its Slack team once, and uses it as that workspace's one id everywhere
 * (its store's scope, its registry entry, its jobs' leases and state).
 *
 * - Bound before (the database's `single_workspace` row, store/single-workspace.ts): that team, without asking
 *   Slack, so the jobs run (and fail and are backed off) whether or not Slack answers at start-up.
 * - The first start: SLACK_TEAM_ID if set, else Slack's `auth.test` with the bot token; the team is bound in
 *   the database, adopting the rows kept under the old keys (`''`, `'single'`, bare names) in the same
 *   transaction. If Slack does not answer and SLACK_TEAM_ID is unset, the deployment does not start (it says why).
 * - SLACK_TEAM_ID naming another team than the one bound: refused (the database is another workspace's).
 */
import type { Logger } from '../logging/logger.js';
import type { Store } from '../store/index.js';

export interface SingleWorkspaceTeamOptions {
  store: Pick<Store, 'singleWorkspace' | 'bindSingleWorkspace'>;
  /** SLACK_TEAM_ID, when set. */
  configured?: string | undefined;
  /** Slack's `auth.test` with the deployment's bot token. */
  ask: () => Promise<{ team_id?: string | undefined }>;
  logger: Logger;
}

/** Thrown when the team cannot be learned at a first start: a sentence for whoever starts the app. */
export class TeamUnknownError extends Error {
  override readonly name = 'TeamUnknownError';
}

const codeOf = (error: unknown) => (error as { data?: { error?: unknown } } | null)?.data?.error ?? (error as { code?: unknown } | null)?.code ?? 'no answer';

/** The team the deployment serves: bound already, or learned now (and bound). */
export async function singleWorkspaceTeam(o: SingleWorkspaceTeamOptions): Promise<string> {
  const bound = await o.store.singleWorkspace();
  if (bound && (o.configured === undefined || o.configured === bound.teamId)) return bound.teamId;
  const teamId = o.configured ?? (await ask(o));
  const { adopted } = await o.store.bindSingleWorkspace(teamId);
  const rows = Object.values(adopted).reduce((a, b) => a + b, 0);
  o.logger.info('this deployment serves one Slack workspace: its id is bound in the database', {
    team: teamId,
    ...(rows > 0 ? { adopted } : {}),
  });
  return teamId;
}

async function ask(o: SingleWorkspaceTeamOptions): Promise<string> {
  let answer: { team_id?: string | undefined };
  try {
    answer = await o.ask();
  } catch (error) {
    throw new TeamUnknownError(
      `Cannot learn which Slack workspace SLACK_BOT_TOKEN is for: Slack's auth.test failed (${String(codeOf(error))}). Start again once Slack answers, or set SLACK_TEAM_ID.`,
    );
  }
  if (!answer.team_id)
    throw new TeamUnknownError("Cannot learn which Slack workspace SLACK_BOT_TOKEN is for: Slack's auth.test named none. Set SLACK_TEAM_ID.");
  return answer.team_id;
}
