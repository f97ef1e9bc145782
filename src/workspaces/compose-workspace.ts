/**
 * Everything one workspace's work is built from: its Slack clients (its bot
 * token), its care client (its key and its own 10 req/s limiter), its read
 * caches, and every service the listeners and jobs use, over its own view of
 * the store. A single-workspace deployment builds one from the environment; a
 * deployment serving many builds one per installed and connected workspace
 * (registry.ts).
 */
import type { WebClient } from '@slack/web-api';
import { type AddressRule, type CareClient, createCareClient } from '../care/index.js';
import { createHealth, type HealthReport } from '../health.js';
import { type Job, workspaceJobs } from '../jobs/index.js';
import type { ActionView } from '../services/action-model.js';
import type { NamedAdmins } from '../services/admin-rule.js';
import { createActionHistory } from '../services/action-history.js';
import { createActionNotes } from '../services/action-notes.js';
import { createActionPosts } from '../services/action-posts.js';
import { createActionsService } from '../services/actions.js';
import { createAssignmentNotices } from '../services/assignment-notices.js';
import { withCareWebLink } from '../services/care-web-link.js';
import { createChangeNotices } from '../services/change-notices.js';
import { createChannelPolicy } from '../services/channel-policy.js';
import { createChannelSetup } from '../services/channel-setup.js';
import { type CompletionNotices, createCompletionNotices } from '../services/completion-notices.js';
import { createCareObservations } from '../services/care-observations.js';
import { createCreatorNotices } from '../services/creator-notices.js';
import type { Deliverer } from '../services/delivery.js';
import { createDigests, type Digests } from '../services/digests.js';
import { createHomeShifts } from '../services/home-shifts.js';
import { createOnCall } from '../services/on-call.js';
import { shiftsOf } from '../services/shift-settings.js';
import { createDirectoryService } from '../services/directory.js';
import { createEscalationSettings } from '../services/escalation-settings.js';
import { createEscalations } from '../services/escalations.js';
import { createFollowUps } from '../services/follow-up.js';
import { acknowledgedFrom, createEpisodeAnswers, onItFrom } from '../services/episode-answers.js';
import { answerNotice } from '../slack/views/episode-answers.js';
import { isSafeguarding, safeguardingOf } from '../services/safeguarding.js';
import { createSafeguardingSettings } from '../services/safeguarding-settings.js';
import { createIdentityService, type IdentityService } from '../services/identity.js';
import { createPersonData } from '../services/person-data.js';
import type { WorkspaceAdminNotices } from '../services/admin-changes.js';
import { createMorningSummaries } from '../services/morning-summaries.js';
import { createReadCaches, type ReadCaches, type ReadCacheSettings } from '../services/read-cache/read-caches.js';
import type { MessageRenderers } from '../services/renderers.js';
import { createSlackProfiles } from '../services/slack-profiles.js';
import { createStatusService } from '../services/status.js';
import { createSummarySettings } from '../services/summary-settings.js';
import { createTeamView } from '../services/team-view.js';
import { createReassignService } from '../services/reassign.js';
import { createReassignUndo } from '../services/reassign-undo.js';
import { createHomeFilters } from '../services/home-filters.js';
import { reassignResultMessage, reassignSummaryMessage } from '../slack/views/reassign.js';
import { createUrgentAlerts } from '../services/urgent-alerts.js';
import { createFirstLook } from '../services/first-look.js';
import { createDmChannels } from '../services/dm-channels.js';
import { createHandovers } from '../services/handovers.js';
import { createWorkspaceNames } from '../services/workspace-names.js';
import type { SlackDeps } from '../slack/deps.js';
import { dmFileSender } from '../slack/file-upload.js';
import { createEvidenceExport } from '../services/evidence/evidence-export.js';
import { createDueHistory } from '../services/due-history.js';
import type { SignedMetadata } from '../slack/signed-metadata.js';
import type { BotTokenSource } from '../slack/token-rotation/bot-token.js';
import { assignmentNotice } from '../slack/views/assignment-notice.js';
import { changeNotice } from '../slack/views/change-notice.js';
import { renderDigest } from '../slack/views/digest.js';
import { renderHandover, renderNotAccepted } from '../slack/views/handover.js';
import { escalatedAlert, escalationMessage } from '../slack/views/escalation.js';
import { escalationGapMessage } from '../slack/views/escalation-setting.js';
import { escalationFollowing } from '../slack/views/escalation-follow.js';
import { followUpMessage, handBackAlert } from '../slack/views/follow-up.js';
import { noticeFollowing } from '../slack/views/notice-following.js';
import { renderMorningSummary } from '../slack/views/morning-summary.js';
import { completionNotice, creatorNotice, urgentAlert } from '../slack/views/notices.js';
import { redactedMessage } from '../slack/views/redacted.js';
import { createPostRedraw } from '../services/post-redraw.js';
import type { UncertainDelivery } from '../services/delivery.js';
import { createUncertainNotices } from '../services/uncertain-notices.js';
import { redrawKinds } from '../services/redraw-kinds.js';
import { createRetention, DEFAULT_RETENTION_DAYS, type RetentionDays } from '../services/retention.js';
import { type SlackShared, workspaceSlack } from './workspace-slack.js';
import type { WorkspaceStore } from '../store/index.js';

/** What every workspace of a deployment shares. */
export interface WorkspaceShared extends SlackShared {
  /** This workspace's store (scoped-store.ts): storeForWorkspace in a deployment of many, soleWorkspaceStore in one of one. */
  store: WorkspaceStore;
  pollSeconds: number;
  overlapMs: number;
  signedMetadata: SignedMetadata;
  version: string;
  readCache?: ReadCacheSettings | undefined;
  lookupFailureTtlMs?: number | undefined;
  /** More for admins' Home tab (multi-workspace mode: this workspace's care connection card), bound to this workspace. */
  adminHomeExtra?: SlackDeps['adminHomeExtra'];
  /** Many workspaces: admins set this workspace up in Slack (bound to it). Unset: it comes from the spec (the deployment's configuration). */
  workspaceSetup?: SlackDeps['workspaceSetup'];
  /** Many workspaces: tells this workspace's admins when its admins change (an erasure by a Slack admin included); bound to it. */
  adminNotices?: WorkspaceAdminNotices | undefined;
}

/** One workspace: its tokens, its care account and its settings. */
export interface WorkspaceSpec {
  /** Known in multi-workspace mode; in single-workspace mode learned from auth.test when first needed. */
  teamId?: string | undefined;
  botToken: string;
  /** Token rotation (many workspaces): where every Slack call of this workspace gets its current bot token. */
  botTokens?: BotTokenSource | undefined;
  care: {
    baseUrl: string;
    accountId: string;
    apiKey: string;
    apiSecret: string;
    rateLimitPerSecond?: number | undefined;
    connections?: number | undefined;
    /** Connect only to addresses this allows (a workspace's admin typed the address: services/care-hosts.ts). */
    allowAddress?: AddressRule | undefined;
  };
  timezone: string;
  careWebUrl?: string | undefined;
  /** Days after completion the app's messages about an action are edited down (0 at once, 'off' never; default 30). */
  retentionDays?: RetentionDays | undefined;
  /** Admins besides the workspace's own Slack admins and owners (one workspace: ADMIN_SLACK_USER_IDS; many: the installer and those added). */
  admins: NamedAdmins;
}

export interface Workspace {
  teamId: () => Promise<string>;
  deps: SlackDeps;
  care: CareClient;
  /** The client listeners post with; `jobSlack` is the one scheduled work posts with. */
  slack: WebClient;
  jobSlack: WebClient;
  reads: ReadCaches;
  identity: IdentityService;
  notices: CompletionNotices;
  digests: Digests;
  /** Its delivery ledger's poster (exactly-once posts of this workspace). */
  deliverer: Deliverer;
  /** This workspace's scheduled work (digest tick, summary tick, changes poll, read-cache sync). */
  jobs: Job[];
  health: () => Promise<HealthReport>;
  /** Close its care client (the store is shared and stays open). */
  close(): Promise<void>;
}

export function composeWorkspace(shared: WorkspaceShared, spec: WorkspaceSpec): Workspace {
  const { store, metrics, logger, now, staleAfterMs, pollSeconds } = shared;
  const care = createCareClient({ ...spec.care, logger: logger.child({ component: 'care-api' }), onAttempt: metrics.careAttempt });
  let teamId: Promise<string> | undefined = spec.teamId ? Promise.resolve(spec.teamId) : undefined;
  const team = () =>
    (teamId ??= jobSlack.auth.test().then(
      (r) => r.team_id ?? '',
      (err) => {
        teamId = undefined;
        throw err;
      },
    ));
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
  const identity = createIdentityService({ store, care, profiles, admins: spec.admins, logger, users: reads.users });
  const directory = createDirectoryService({ care, reference: reads.reference });
  const channels = createChannelPolicy({ slack, store });
  // The posts services make show the same "Open in care system" link as every other card.
  const linked = (view: ActionView) => withCareWebLink(spec.careWebUrl, view);
  const render: MessageRenderers = {
    completionNotice: (a, ctx, groups) => completionNotice(linked(a), ctx, groups),
    urgentAlert: (a, ctx) => urgentAlert(linked(a), ctx),
    creatorNotice: (a, ctx) => creatorNotice(linked(a), ctx),
    assignmentNotice: (a, ctx, by) => assignmentNotice(linked(a), ctx, by),
    changeNotice: (a, ctx, change) => changeNotice(linked(a), ctx, change),
    digest: renderDigest,
    morningSummary: renderMorningSummary,
    redacted: redactedMessage,
    escalatedAlert: (a, ctx, lines, current) => escalatedAlert(linked(a), ctx, lines, current),
    escalation: (a, ctx, info) => escalationMessage(linked(a), ctx, info),
    escalationFollowing: (a, ctx, info, state) => escalationFollowing(linked(a), ctx, info, state),
    noticeFollowing: (a, ctx, headline) => noticeFollowing(linked(a), ctx, headline),
    followUp: (a, ctx, info) => followUpMessage(linked(a), ctx, info),
    handBackAlert: (a, ctx, handed) => handBackAlert(linked(a), ctx, handed),
    answerNotice: (a, ctx, answer, state) => answerNotice(linked(a), ctx, answer, state),
  };
  const notices = createCompletionNotices({
    care,
    store,
    slack: jobSlack,
    identity,
    profiles,
    channels,
    deliverer,
    render,
    teamId: team,
    timezone: spec.timezone,
    logger,
    now,
    staleAfterMs,
  });
  // The app's first look at the care system (taken by the first poll): what was already so then is not news.
  const firstLook = createFirstLook({ care, store });
  const urgent = createUrgentAlerts({
    firstLook,
    store,
    care,
    identity,
    channels,
    deliverer,
    render,
    now,
    staleAfterMs,
    logger: logger.child({ component: 'urgent-alerts' }),
    teamId: team,
    dm: createDmChannels(jobSlack),
    timezone: spec.timezone,
  });
  // The DMs to one person about one action (assignments, changes others made) share what they are built from.
  const dmNoticeDeps = { care, store, slack: jobSlack, identity, profiles, deliverer, render, now, staleAfterMs };
  const assignments = createAssignmentNotices({ ...dmNoticeDeps, teamId: team, firstLook, logger: logger.child({ component: 'assignment-notices' }) });
  const changes = createChangeNotices({ ...dmNoticeDeps, logger: logger.child({ component: 'change-notices' }) });
  // Whoever created an action through Slack is told when someone else completes it.
  const creators = createCreatorNotices({ ...dmNoticeDeps, teamId: team, logger: logger.child({ component: 'creator-notices' }) });
  // The care home's shifts, as its admins set them (`/care shifts`): digests and summaries can go out at their starts.
  const homeShifts = () => shiftsOf(store);
  const digests = metrics.observeDigests(createDigests({ care, store, identity, channels, deliverer, render, logger, shifts: homeShifts }));
  const summaries = createMorningSummaries({
    care,
    store,
    identity,
    // Time zones read again every 10 minutes of the app's clock: someone who travels gets it at their new local time.
    profiles: createSlackProfiles({ slack: jobSlack, defaultTz: spec.timezone, now: () => now().getTime() }),
    slack: jobSlack,
    deliverer,
    render,
    logger: logger.child({ component: 'summaries' }),
    timezone: spec.timezone,
    shifts: homeShifts,
  });
  // Handover at each shift change (the shifts are the home's setting, in its zone).
  const handovers = createHandovers({
    care,
    store,
    identity,
    channels,
    deliverer,
    render: { post: renderHandover, notAccepted: renderNotAccepted },
    dm: createDmChannels(jobSlack),
    teamId: team,
    timezone: spec.timezone,
    now,
    logger: logger.child({ component: 'handovers' }),
  });
  // Every post about an action follows it: drawn again after each change (services/post-redraw.ts).
  const redraw = createPostRedraw({
    store,
    care,
    identity,
    channels,
    kinds: redrawKinds(render),
    render,
    poster,
    slack: jobSlack,
    readPosts: shared.slackPacer.distribution !== 'distributed',
    history,
    teamId: team,
    timezone: spec.timezone,
    retentionDays: spec.retentionDays ?? DEFAULT_RETENTION_DAYS,
    holder: shared.holder,
    staleAfterMs,
    now,
    locationNames: (ids) => directory.locationNames(ids),
    keepOutOfChannels: async (action) => isSafeguarding(action, await safeguardingOf(store)),
    logger: logger.child({ component: 'post-redraw' }),
  });
  // Each action's first due time and every reschedule (the evidence export measures lateness from the first).
  const dueHistory = createDueHistory({ store });
  const actions = createActionsService({
    care: reads.care,
    reads: reads.actions,
    store,
    identity,
    logger,
    now,
    careWebUrl: spec.careWebUrl,
    // The fast path: a completion made through Slack is announced at once, through the same ledger.
    // Not awaited, so the person's click is answered first; the ledger and the poller make it exactly once.
    announceCompletion: (action) => {
      void notices
        .deliver(action, { madeInSlack: true })
        .catch((err) => logger.warn('completion notice will be retried by the poller', { actionId: action._id, error: err }));
      void creators.deliver(action).catch((err) => logger.warn('the creator DM will be retried by the poller', { actionId: action._id, error: err }));
    },
    // Any change made through Slack: a new assignee is told, and an action made urgent alerted, at once;
    // the poll's later sight of it finds them in the ledger (and in what the app remembers of the action).
    announceWrite: (action, change) =>
      void Promise.all([
        dueHistory.observe(action, 'slack'),
        assignments.consider(action, { by: change.by, previousAssignee: change.before ? (change.before.assigned_to ?? null) : null }),
        store.listSubscriptions().then((subs) =>
          urgent.consider(
            action,
            subs.filter((s) => s.urgentAlerts),
            { before: change.before },
          ),
        ),
      ])
        .catch((err) => logger.warn('an assignment DM or urgent alert will be retried by the poller', { actionId: action._id, error: err }))
        // Then every post about it is drawn as it is now (the one clicked is drawn by its listener).
        .then(() => redraw.follow(action, { drawnAt: change.by.at }))
        .catch((err) => logger.warn('posts about an action will be drawn again by the poller', { actionId: action._id, error: err })),
    // Someone else completed, reopened or took an action: its assignee is told at once, exactly once (the ledger).
    announceChange: (action, change) =>
      void changes.tell(action, change).catch((err) => logger.warn('a change DM could not be sent now', { actionId: action._id, error: err })),
  });
  // Admins' Home tab: the team view, and the status with Retry, which runs a kind's unfinished rows now.
  const teamView = createTeamView({ care, store, identity, timezone: spec.timezone, now, reads: reads.actions, shifts: homeShifts });
  const status = createStatusService({
    store,
    shifts: homeShifts,
    care,
    identity,
    profiles,
    version: shared.version,
    pollSeconds,
    now,
    redeliver: {
      completion: () => notices.retryUnfinished(),
      assignment: () => assignments.retryUnfinished(),
      change: () => changes.retryUnfinished(),
      creator: () => creators.retryUnfinished(),
      urgent: async () => urgent.retryUnfinished((await store.listSubscriptions()).filter((s) => s.urgentAlerts)),
      digest: () => digests.runDue(now()),
      'digest-part': () => digests.runDue(now()),
      summary: () => summaries.runDue(now()),
      redraw: () => redraw.retryUnfinished(),
    },
  });
  const names = createWorkspaceNames({ slack, now: () => now().getTime() });
  const reassign = createReassignService({
    care: reads.care,
    store,
    identity,
    names,
    assignments,
    deliverer,
    slack: jobSlack,
    render: { summary: reassignSummaryMessage, result: (plan, outcome, undo) => reassignResultMessage(plan, outcome, undo, spec.timezone) },
    timezone: spec.timezone,
    now,
    logger: logger.child({ component: 'reassign' }),
  });
  const reassignUndo = createReassignUndo({
    care: reads.care,
    store,
    identity,
    assignments,
    deliverer,
    slack: jobSlack,
    render: { summary: reassignSummaryMessage },
    now,
    logger: logger.child({ component: 'reassign' }),
  });
  // Urgent actions nobody takes climb the ladder admins set (`/care escalation`).
  const escalations = createEscalations({
    store,
    care,
    identity,
    channels,
    deliverer,
    render: { escalatedAlert: render.escalatedAlert!, escalation: render.escalation!, escalationGap: escalationGapMessage },
    slack: jobSlack,
    teamId: team,
    timezone: spec.timezone,
    // Slack allows a distributed app one history read a minute: its alerts are drawn afresh instead.
    readAlertPosts: shared.slackPacer.distribution !== 'distributed',
    history,
    locationNames: (ids) => directory.locationNames(ids),
    logger: logger.child({ component: 'escalations' }),
  });
  // Urgent work taken but still open: one DM to whoever holds it, then the ladder resumes (run in the escalation job).
  const followUps = createFollowUps({
    store,
    // "I'm on it" holds an urgent action as a take does (episode-answers.ts).
    acknowledged: acknowledgedFrom(store),
    care,
    identity,
    channels,
    deliverer,
    actions,
    render: { followUp: render.followUp!, handBackAlert: render.handBackAlert! },
    slack: jobSlack,
    teamId: team,
    timezone: spec.timezone,
    now,
    logger: logger.child({ component: 'follow-ups' }),
  });
  const channelSetup = createChannelSetup({
    store,
    identity,
    channels,
    directory,
    digests,
    names,
    timezone: spec.timezone,
    shifts: homeShifts,
    now,
  });
  const evidence = createEvidenceExport({
    care,
    store,
    identity,
    profiles,
    sendFile: dmFileSender(slack),
    timezone: spec.timezone,
    now,
    logger: logger.child({ component: 'evidence' }),
  });
  const safeguarding = createSafeguardingSettings({ store, identity, names, directory });
  const notes = createActionNotes({ store, identity });
  // "I'm on it", "I can't" and "Join" on urgent posts (issue 33): kept by the app, shown on every post.
  const answers = createEpisodeAnswers({
    store,
    care: reads.care,
    identity,
    deliverer,
    redraw,
    render,
    slack: jobSlack,
    timezone: spec.timezone,
    now,
    logger: logger.child({ component: 'episode-answers' }),
  });
  const deps: SlackDeps = {
    actions,
    answers,
    posts: createActionPosts({ deliverer, logger: logger.child({ component: 'action-posts' }) }),
    evidence,
    history: createActionHistory({ actions, store, identity, safeguarding, notes }),
    notes,
    historyAccess: history,
    identity,
    personData: createPersonData({
      store,
      identity,
      profiles,
      // Many workspaces name the installer (spec.admins.installer); one workspace's admins are configured.
      installerIsAdmin: spec.admins.installer !== undefined,
      adminNotices: shared.adminNotices,
      now,
      logger,
    }),
    directory,
    profiles,
    channels,
    channelSetup,
    handovers,
    names,
    summaries: createSummarySettings({ store, identity, profiles, now, timezone: spec.timezone, shifts: homeShifts }),
    escalation: createEscalationSettings({ store, identity, channels, names }),
    followUps,
    safeguarding,
    shifts: createHomeShifts({ store, identity, timezone: spec.timezone, now }),
    // Who's on now (`/care oncall`, the Home tab): the shift, its seniors, the open urgent actions and who is on each.
    onCall: createOnCall({
      store,
      answers: onItFrom(store),
      care,
      identity,
      shifts: createHomeShifts({ store, identity, timezone: spec.timezone, now }),
      teamId: team,
      now,
      version: () => reads.actions.version(),
    }),
    slack,
    logger,
    now,
    timezone: spec.timezone,
    homeQueues: new Map(),
    careVersion: () => reads.actions.version(),
    signedMetadata: shared.signedMetadata,
    teamView,
    status,
    reassign,
    reassignUndo,
    homeFilters: createHomeFilters({ store }),
    adminHomeExtra: shared.adminHomeExtra,
    workspaceSetup: shared.workspaceSetup ?? {
      mode: 'configured',
      adminSlackUserIds: spec.admins.configured ?? [],
      timezone: spec.timezone,
      careWebUrl: spec.careWebUrl,
      retentionDays: spec.retentionDays ?? DEFAULT_RETENTION_DAYS,
    },
  };
  const retention = createRetention({
    store,
    poster,
    slack: jobSlack,
    history,
    days: spec.retentionDays ?? DEFAULT_RETENTION_DAYS,
    render,
    teamId: team,
    holder: shared.holder,
    staleAfterMs,
    now,
    logger: logger.child({ component: 'retention' }),
  });
  const jobs = workspaceJobs({
    care,
    store,
    notices,
    urgent,
    assignments,
    changes,
    creators,
    observations: createCareObservations({ store, teamId: team }),
    firstLook,
    digests,
    summaries,
    handovers,
    retention,
    reassignSweep: () => reassignUndo.sweep(),
    redraw,
    dueHistory,
    escalations,
    followUps,
    now,
    pollSeconds,
    overlapMs: shared.overlapMs,
    cacheSync: reads.sync,
    observer: metrics.jobs,
  });
  const health = createHealth({ store, care });
  return {
    teamId: team,
    deps,
    care,
    slack,
    jobSlack,
    reads,
    identity,
    notices,
    digests,
    jobs,
    health,
    deliverer,
    async close() {
      await care.close();
    },
  };
}
