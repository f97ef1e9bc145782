/**
 * What every feature of a workspace is built on: its care client (its key, its own limiter), its Slack clients
 * and exactly-once deliverer, its read caches, who its people are (identity, profiles, names), its directory,
 * its channels, its message renderers and its home's shifts.
 */
import { createCareClient } from '../../care/index.js';
import { createChannelPolicy } from '../../services/channel-policy.js';
import { createDirectoryService } from '../../services/people/directory.js';
import { createDmChannels } from '../../services/dm-channels.js';
import type { UncertainDelivery } from '../../services/notices/delivery.js';
import { createIdentityService } from '../../services/people/identity.js';
import { createReadCaches } from '../../services/read-cache/read-caches.js';
import { DEFAULT_RETENTION_DAYS } from '../../services/evidence/retention.js';
import { shiftsOf } from '../../services/shift-work/shift-settings.js';
import { createSlackProfiles } from '../../services/people/slack-profiles.js';
import { createUncertainNotices } from '../../services/notices/uncertain-notices.js';
import { createWorkspaceNames } from '../../services/people/workspace-names.js';
import { readsOwnPosts } from '../../slack/web-api/rate-plan.js';
import type { WorkspaceShared, WorkspaceSpec } from '../workspace-spec.js';
import { workspaceSlack } from '../workspace-slack.js';
import { messageRenderers } from './renderers.js';

export type WorkspaceCore = ReturnType<typeof composeCore>;

export function composeCore(shared: WorkspaceShared, spec: WorkspaceSpec) {
  const { store, metrics, logger, now, staleAfterMs, pollSeconds } = shared;
  const care = createCareClient({ ...spec.care, logger: logger.child({ component: 'care-api' }), onAttempt: metrics.careAttempt });
  const team = async () => spec.teamId;
  // A delivery marked uncertain (its answer lost; the history scopes declined) is told to the admins once.
  // Called only once deliveries run, when `identity` below exists.
  const tellUncertain = (d: UncertainDelivery) =>
    createUncertainNotices({ teamId: team, deliverer, dm: createDmChannels(jobSlack), admins: () => identity.adminIds() }).tell(d);
  const { slack, jobSlack, poster, deliverer, history } = workspaceSlack(shared, store, spec.botToken, team, spec.botTokens, tellUncertain);

  const profiles = createSlackProfiles({
    slack,
    defaultTz: spec.timezone,
    ...(shared.lookupFailureTtlMs !== undefined ? { failureTtlMs: shared.lookupFailureTtlMs } : {}),
  });
  // Care data held in memory for speed, kept fresh by the changes feed and our own writes (services/read-cache/).
  const reads = createReadCaches({ care, now: () => now().getTime(), logger, pollSeconds, overlapMs: shared.overlapMs, settings: shared.readCache });
  const identity = createIdentityService({ store, care, profiles, admins: spec.admins, logger, users: reads.users, teamId: team });
  return {
    shared,
    spec,
    store,
    logger,
    now,
    staleAfterMs,
    timezone: spec.timezone,
    retentionDays: spec.retentionDays ?? DEFAULT_RETENTION_DAYS,
    care,
    team,
    slack,
    jobSlack,
    poster,
    deliverer,
    history,
    profiles,
    reads,
    identity,
    directory: createDirectoryService({ care, reference: reads.reference }),
    channels: createChannelPolicy({ slack, store }),
    names: createWorkspaceNames({ slack, now: () => now().getTime() }),
    // The posts services make show the same "Open in care system" link as every other card.
    render: messageRenderers(spec.careWebUrl),
    // The care home's shifts, as its admins set them (`/care shifts`): digests and summaries can go out at their starts.
    homeShifts: () => shiftsOf(store),
    // Slack allows a distributed app one history read a minute: its posts are drawn afresh instead of read back.
    readPosts: readsOwnPosts(shared.slackPacer.distribution),
  };
}
