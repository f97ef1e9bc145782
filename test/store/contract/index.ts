/** The one contract every Store implementation must meet. */
import type { Harness } from '../harness.js';
import { channelsContract } from './channels.js';
import { identityContract } from './identity.js';
import { jobStateContract } from './job-state.js';
import { jobsContract } from './jobs.js';
import { ledgerContract } from './ledger.js';
import { ledgerAdminContract } from './ledger-admin.js';
import { personDataContract } from './person-data.js';
import { seenEventsContract } from './seen-events.js';
import { seenRequestsContract } from './seen-requests.js';
import { singleWorkspaceContract } from './single-workspace.js';
import { summariesContract } from './summaries.js';
import { teamScopeContract } from './team-scope.js';
import { workspaceIsolationContract } from './workspace-isolation.js';
import { workspacesContract } from './workspaces.js';

export { workspaceIsolationContract };

/** The whole contract (SQLite runs it in one file). */
export function storeContract(h: Harness): void {
  storeContractWithoutIsolation(h);
  workspaceIsolationContract(h);
}

/**
 * All of it but the walk of a workspace's store method by method (`workspaceIsolationContract`, its own
 * export): PostgreSQL runs that walk in a file of its own, so the two halves run side by side.
 */
export function storeContractWithoutIsolation(h: Harness): void {
  identityContract(h);
  channelsContract(h);
  ledgerContract(h);
  ledgerAdminContract(h);
  jobsContract(h);
  jobStateContract(h);
  seenRequestsContract(h);
  seenEventsContract(h);
  summariesContract(h);
  teamScopeContract(h);
  workspacesContract(h);
  personDataContract(h);
  singleWorkspaceContract(h);
}
