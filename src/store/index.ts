/** Public surface of the store. Import from here. */
export type { Store } from './store.js';
export type { WorkspaceStore } from './workspace-store.js';
export { scopedWorkspaceStore, soleWorkspaceStore, workspaceCursor, WORKSPACE_SCOPE } from './workspace-store.js';
export type { OpenedStore, StoreConfig } from './open-store.js';
export { openStore, isPostgresUrl } from './open-store.js';
export { StoreError, isStoreError } from './errors.js';
export type { StoreErrorCode } from './errors.js';
export type { MigrateResult } from './migrator.js';
export { MIGRATIONS } from './migrations/index.js';
export type { Migration } from './migrations/index.js';
export { DEFAULT_MAX_ATTEMPTS } from './deliveries.js';
export type * from './types.js';
export type * from './workspace-types.js';
export { SQLITE_FILE_NAME } from './sqlite-db.js';
export { recipientInTeam } from './recipient-team.js';
export type { ErasedCounts, EraseOptions, PersonRecords } from './person-data.js';
export type { ForgottenCounts } from './forget-workspace.js';
export { withoutSlackIds } from './forget-workspace.js';
