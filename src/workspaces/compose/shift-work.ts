/**
 * A workspace's shift work: channel digests and each person's morning summary (at clock times or shift
 * starts), handover at each shift change, urgent actions nobody takes climbing the escalation ladder, the
 * follow-up of urgent work taken but still open, who is on call, and the settings admins keep for each.
 */
import { createDigests } from '../../services/shift-work/digests.js';
import { createDmChannels } from '../../services/dm-channels.js';
import { acknowledgedFrom, onItFrom } from '../../services/urgent/episode-answers.js';
import { createEscalationSettings } from '../../services/urgent/escalation-settings.js';
import { createEscalations } from '../../services/urgent/escalations.js';
import { createFollowUps } from '../../services/urgent/follow-up.js';
import { createHandovers } from '../../services/shift-work/handovers.js';
import { createHomeShifts } from '../../services/shift-work/home-shifts.js';
import { createMorningSummaries } from '../../services/shift-work/morning-summaries.js';
import { createOnCall } from '../../services/urgent/on-call.js';
import { createSlackProfiles } from '../../services/people/slack-profiles.js';
import { createSummarySettings } from '../../services/shift-work/summary-settings.js';
import { escalationGapMessage } from '../../slack/views/escalation-setting.js';
import { renderHandover, renderNotAccepted } from '../../slack/views/handover.js';
import type { WorkspaceCore } from './core.js';
import type { WorkspaceActions } from './actions.js';

export type WorkspaceShiftWork = ReturnType<typeof composeShiftWork>;

export function composeShiftWork(core: WorkspaceCore, { actions }: Pick<WorkspaceActions, 'actions'>) {
  const { care, store, identity, channels, deliverer, render, logger, now, timezone, team, jobSlack, homeShifts } = core;
  const digests = core.shared.metrics.observeDigests(createDigests({ care, store, identity, channels, deliverer, render, logger, shifts: homeShifts }));
  const summaries = createMorningSummaries({
    care,
    store,
    identity,
    // Time zones read again every 10 minutes of the app's clock: someone who travels gets it at their new local time.
    profiles: createSlackProfiles({ slack: jobSlack, defaultTz: timezone, now: () => now().getTime() }),
    slack: jobSlack,
    deliverer,
    render,
    logger: logger.child({ component: 'summaries' }),
    timezone,
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
    timezone,
    now,
    logger: logger.child({ component: 'handovers' }),
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
    timezone,
    // Slack allows a distributed app one history read a minute: its alerts are drawn afresh instead.
    readAlertPosts: core.readPosts,
    history: core.history,
    locationNames: (ids) => core.directory.locationNames(ids),
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
    timezone,
    now,
    logger: logger.child({ component: 'follow-ups' }),
  });
  return {
    digests,
    summaries,
    handovers,
    escalations,
    followUps,
    summarySettings: createSummarySettings({ store, identity, profiles: core.profiles, now, timezone, shifts: homeShifts, teamId: team }),
    escalationSettings: createEscalationSettings({ store, identity, channels, names: core.names }),
    shifts: createHomeShifts({ store, identity, timezone, now }),
    // Who's on now (`/care oncall`, the Home tab): the shift, its seniors, the open urgent actions and who is on each.
    onCall: createOnCall({
      store,
      answers: onItFrom(store),
      care,
      identity,
      shifts: createHomeShifts({ store, identity, timezone, now }),
      teamId: team,
      now,
      version: () => core.reads.actions.version(),
    }),
  };
}
