/**
 * A workspace's notices: completion notices, urgent alerts, the DMs to one person about one action
 * (assignments, changes others made, the creator told of a completion), every post following its action
 * (post-redraw), and each action's due history; with what follows a write through Slack (services/actions/after-write.ts).
 */
import { createAfterWrite } from '../../services/actions/after-write.js';
import { createAssignmentNotices } from '../../services/notices/assignment-notices.js';
import { createChangeNotices } from '../../services/notices/change-notices.js';
import { createCompletionNotices } from '../../services/notices/completion-notices.js';
import { createCreatorNotices } from '../../services/notices/creator-notices.js';
import { createDmChannels } from '../../services/dm-channels.js';
import { createDueHistory } from '../../services/evidence/due-history.js';
import { createFirstLook } from '../../services/notices/first-look.js';
import { createPostRedraw } from '../../services/notices/post-redraw.js';
import { redrawKinds } from '../../services/notices/redraw-kinds.js';
import { keptOutOfChannels } from '../../services/urgent/safeguarding.js';
import { urgentAlertSubscriptionsOf } from '../../services/urgent/urgent-audience.js';
import { createUrgentAlerts } from '../../services/urgent/urgent-alerts.js';
import type { WorkspaceCore } from './core.js';

export type WorkspaceNotices = ReturnType<typeof composeNotices>;

export function composeNotices(core: WorkspaceCore) {
  const { care, store, identity, profiles, channels, deliverer, render, logger, now, staleAfterMs, timezone, team, jobSlack } = core;
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
    timezone,
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
    timezone,
  });
  // The DMs to one person about one action (assignments, changes others made) share what they are built from.
  const dmNoticeDeps = { care, store, slack: jobSlack, identity, profiles, deliverer, render, now, staleAfterMs, teamId: team };
  const assignments = createAssignmentNotices({ ...dmNoticeDeps, firstLook, logger: logger.child({ component: 'assignment-notices' }) });
  const changes = createChangeNotices({ ...dmNoticeDeps, logger: logger.child({ component: 'change-notices' }) });
  // Whoever created an action through Slack is told when someone else completes it.
  const creators = createCreatorNotices({ ...dmNoticeDeps, logger: logger.child({ component: 'creator-notices' }) });
  // Every post about an action follows it: drawn again after each change (services/notices/post-redraw.ts).
  const redraw = createPostRedraw({
    store,
    care,
    identity,
    channels,
    kinds: redrawKinds(render),
    render,
    poster: core.poster,
    slack: jobSlack,
    readPosts: core.readPosts,
    history: core.history,
    teamId: team,
    timezone,
    retentionDays: core.retentionDays,
    holder: core.shared.holder,
    staleAfterMs,
    now,
    locationNames: (ids) => core.directory.locationNames(ids),
    keepOutOfChannels: keptOutOfChannels(store),
    logger: logger.child({ component: 'post-redraw' }),
  });
  // Each action's first due time and every reschedule (the evidence export measures lateness from the first).
  const dueHistory = createDueHistory({ store });
  const urgentSubscriptions = () => urgentAlertSubscriptionsOf(store);
  const afterWrite = createAfterWrite({ notices, creators, dueHistory, assignments, urgent, urgentSubscriptions, redraw, changes, logger });
  return { notices, firstLook, urgent, assignments, changes, creators, redraw, dueHistory, urgentSubscriptions, afterWrite };
}
