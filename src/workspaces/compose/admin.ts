/**
 * What a workspace's admins work with: the team view and the Status (its Retry runs a delivery kind's
 * unfinished rows now: services/notices/redelivery.ts), channel set-up (digests and routes), and the workspace's
 * set-up commands (many workspaces: set in Slack, given bound to it; one: the deployment's configuration).
 */
import { createChannelSetup } from '../../services/shift-work/channel-setup.js';
import { redeliveryTable } from '../../services/notices/redelivery.js';
import { createStatusService } from '../../services/admin/status.js';
import { createTeamView } from '../../services/admin/team-view.js';
import type { SlackDeps } from '../../slack/deps.js';
import type { WorkspaceCore } from './core.js';
import type { WorkspaceNotices } from './notices.js';
import type { WorkspaceShiftWork } from './shift-work.js';

export type WorkspaceAdmin = ReturnType<typeof composeAdmin>;

export function composeAdmin(core: WorkspaceCore, notices: WorkspaceNotices, { digests, summaries }: Pick<WorkspaceShiftWork, 'digests' | 'summaries'>) {
  const { care, store, identity, now, timezone, homeShifts, shared, spec } = core;
  const status = createStatusService({
    store,
    shifts: homeShifts,
    care,
    identity,
    profiles: core.profiles,
    version: shared.version,
    pollSeconds: shared.pollSeconds,
    now,
    redeliver: redeliveryTable({ ...notices, digests, summaries, now }),
    teamId: core.team,
  });
  const workspaceSetup: SlackDeps['workspaceSetup'] = shared.workspaceSetup ?? {
    mode: 'configured',
    adminSlackUserIds: spec.admins.configured ?? [],
    timezone,
    careWebUrl: spec.careWebUrl,
    retentionDays: core.retentionDays,
  };
  return {
    // Admins' Home tab: the team view, and the status with Retry.
    teamView: createTeamView({ care, store, identity, timezone, now, reads: core.reads.actions, shifts: homeShifts, teamId: core.team }),
    status,
    channelSetup: createChannelSetup({
      store,
      identity,
      channels: core.channels,
      directory: core.directory,
      digests,
      names: core.names,
      timezone,
      shifts: homeShifts,
      now,
      teamId: core.team,
    }),
    workspaceSetup,
  };
}
