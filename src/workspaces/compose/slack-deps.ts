/** What a workspace's listeners are given (slack/deps.ts): its services, as the feature compositions built them. */
import type { SlackDeps } from '../../slack/deps.js';
import type { WorkspaceActions } from './actions.js';
import type { WorkspaceAdmin } from './admin.js';
import type { WorkspaceCore } from './core.js';
import type { WorkspaceEvidence } from './evidence.js';
import type { WorkspaceShiftWork } from './shift-work.js';

export function composeSlackDeps(
  core: WorkspaceCore,
  a: WorkspaceActions,
  shiftWork: WorkspaceShiftWork,
  admin: WorkspaceAdmin,
  e: WorkspaceEvidence,
): SlackDeps {
  return {
    actions: a.actions,
    answers: a.answers,
    posts: a.posts,
    evidence: e.evidence,
    history: a.history,
    notes: a.notes,
    historyAccess: core.history,
    identity: core.identity,
    personData: e.personData,
    directory: core.directory,
    profiles: core.profiles,
    channels: core.channels,
    channelSetup: admin.channelSetup,
    handovers: shiftWork.handovers,
    names: core.names,
    summaries: shiftWork.summarySettings,
    escalation: shiftWork.escalationSettings,
    followUps: shiftWork.followUps,
    safeguarding: a.safeguarding,
    shifts: shiftWork.shifts,
    onCall: shiftWork.onCall,
    slack: core.slack,
    logger: core.logger,
    now: core.now,
    timezone: core.timezone,
    homeQueues: new Map(),
    careVersion: () => core.reads.actions.version(),
    signedMetadata: core.shared.signedMetadata,
    teamView: admin.teamView,
    status: admin.status,
    reassign: a.reassign,
    reassignUndo: a.reassignUndo,
    homeFilters: a.homeFilters,
    adminHomeExtra: core.shared.adminHomeExtra,
    workspaceSetup: admin.workspaceSetup,
  };
}
