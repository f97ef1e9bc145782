/**
 * One workspace's view of the store: a WorkspaceStore (src/store/workspace-store.ts) whose every method stays
 * inside the workspace's team. A workspace's services are built over it, never over the whole store, so one
 * care provider's data cannot reach another's Slack; a deployment of one workspace builds its one workspace's
 * the same way, under its Slack team id (deployment/single-workspace.ts).
 */
import { scopedWorkspaceStore, type Store, type WorkspaceStore } from '../store/index.js';

export { workspaceKey } from '../store/index.js';

export function storeForWorkspace(store: Store, teamId: string): WorkspaceStore {
  return scopedWorkspaceStore(store, teamId);
}
