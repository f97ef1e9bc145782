/** A workspace's scheduled work (jobs/index.ts), given the services each job runs. */
import { type Job, workspaceJobs } from '../../jobs/index.js';
import { createCareObservations } from '../../services/actions/care-observations.js';
import type { WorkspaceActions } from './actions.js';
import type { WorkspaceCore } from './core.js';
import type { WorkspaceEvidence } from './evidence.js';
import type { WorkspaceNotices } from './notices.js';
import type { WorkspaceShiftWork } from './shift-work.js';

export function composeJobs(
  core: WorkspaceCore,
  n: WorkspaceNotices,
  shiftWork: WorkspaceShiftWork,
  { reassignUndo }: Pick<WorkspaceActions, 'reassignUndo'>,
  { retention }: Pick<WorkspaceEvidence, 'retention'>,
): Job[] {
  const { shared } = core;
  return workspaceJobs({
    care: core.care,
    store: core.store,
    notices: n.notices,
    urgent: n.urgent,
    assignments: n.assignments,
    changes: n.changes,
    creators: n.creators,
    observations: createCareObservations({ store: core.store, teamId: core.team }),
    firstLook: n.firstLook,
    digests: shiftWork.digests,
    summaries: shiftWork.summaries,
    handovers: shiftWork.handovers,
    retention,
    reassignSweep: () => reassignUndo.sweep(),
    redraw: n.redraw,
    dueHistory: n.dueHistory,
    escalations: shiftWork.escalations,
    followUps: shiftWork.followUps,
    now: core.now,
    pollSeconds: shared.pollSeconds,
    overlapMs: shared.overlapMs,
    cacheSync: core.reads.sync,
    observer: shared.metrics.jobs,
  });
}
