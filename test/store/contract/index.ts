/** The one contract every Store implementation must meet. */
import type { Harness } from '../harness.js';
import { channelsContract } from './channels.js';
import { identityContract } from './identity.js';
import { jobsContract } from './jobs.js';
import { ledgerContract } from './ledger.js';
import { ledgerAdminContract } from './ledger-admin.js';
import { personDataContract } from './person-data.js';
import { seenEventsContract } from './seen-events.js';
import { seenRequestsContract } from './seen-requests.js';
import { summariesContract } from './summaries.js';
import { teamScopeContract } from './team-scope.js';
import { workspaceIsolationContract } from './workspace-isolation.js';
import { workspacesContract } from './workspaces.js';

export function storeContract(h: Harness): void {
  identityContract(h);
  channelsContract(h);
  ledgerContract(h);
  ledgerAdminContract(h);
  jobsContract(h);
  seenRequestsContract(h);
  seenEventsContract(h);
  summariesContract(h);
  teamScopeContract(h);
  workspacesContract(h);
  workspaceIsolationContract(h);
  personDataContract(h);
}
