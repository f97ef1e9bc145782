/**
 * One workspace's view of the store, for a deployment serving many: a
 * WorkspaceStore (src/store/workspace-store.ts) whose every method stays
 * inside the workspace's team. A workspace's services are built over it,
 * never over the whole store, so one care provider's data cannot reach
 * another's Slack. A deployment of one workspace builds its services over
 * soleWorkspaceStore instead.
 */
import { scopedWorkspaceStore, type Store, type WorkspaceStore } from '../store/index.js';

export { soleWorkspaceStore, workspaceCursor } from '../store/index.js';

export function storeForWorkspace(store: Store, teamId: string): WorkspaceStore {
  return scopedWorkspaceStore(store, teamId);
}
