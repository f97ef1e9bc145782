/**
 * A deployment of one workspace builds its services over soleWorkspaceStore (the whole database); a deployment
 * of many binds each workspace's store where the registry composes it (compose-multi.ts: scopedWorkspaceStore,
 * src/store/workspace-store.ts, every query inside the workspace's team). This file goes with soleWorkspaceStore.
 */
export { soleWorkspaceStore } from '../store/index.js';
