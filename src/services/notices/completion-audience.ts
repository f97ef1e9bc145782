/**
 * What decides who is told of a completion by which notice (completion-roles.ts): who completed it through
 * Slack (the audit row at its completion time), who created it through Slack (still linked), and who is
 * linked to its assignee. Read once per completion by the path that tells the groups.
 */
import type { Action } from '../../care/index.js';
import type { WorkspaceStore } from '../../store/index.js';
import { completersOf } from '../action-views.js';
import type { CompletionFacts } from './completion-roles.js';
import { creatorOf } from './creator-notices.js';

export async function completionFacts(
  workspace: { store: Pick<WorkspaceStore, 'listAudit' | 'getLinksByCareUser' | 'getLinkBySlackUser'>; teamId: () => Promise<string> },
  action: Action,
): Promise<CompletionFacts> {
  const { store } = workspace;
  const [completers, creator, assignee, teamId] = await Promise.all([
    completersOf(workspace, [action]),
    creatorOf(workspace, action._id),
    action.assigned_to ? store.getLinksByCareUser(action.assigned_to) : Promise.resolve([]),
    workspace.teamId(),
  ]);
  const linkedCreator = creator && (await store.getLinkBySlackUser(creator)) ? creator : null;
  return {
    completer: completers.get(action._id) ?? null,
    creator: linkedCreator,
    assigneeUsers: assignee.filter((l) => l.teamId === teamId).map((l) => l.slackUserId),
  };
}
