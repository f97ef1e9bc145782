/**
 * A workspace's actions as people work them in Slack: the actions service (what follows each write is the
 * notices' after-write), the answers to urgent posts, notes, history, the posts a person shares, reassigning
 * someone's work and its Undo, each person's Home filter, and the safeguarding settings history is read under.
 */
import { createActionHistory } from '../../services/actions/action-history.js';
import { createActionNotes } from '../../services/actions/action-notes.js';
import { createActionPosts } from '../../services/actions/action-posts.js';
import { createActionsService } from '../../services/actions/actions.js';
import { createEpisodeAnswers } from '../../services/urgent/episode-answers.js';
import { createHomeFilters } from '../../services/actions/home-filters.js';
import { createReassignService } from '../../services/reassign/reassign.js';
import { createReassignUndo } from '../../services/reassign/reassign-undo.js';
import { createSafeguardingSettings } from '../../services/urgent/safeguarding-settings.js';
import { reassignResultMessage, reassignSummaryMessage } from '../../slack/views/reassign.js';
import type { WorkspaceCore } from './core.js';
import type { WorkspaceNotices } from './notices.js';

export type WorkspaceActions = ReturnType<typeof composeActions>;

export function composeActions(core: WorkspaceCore, notices: Pick<WorkspaceNotices, 'afterWrite' | 'assignments' | 'redraw'>) {
  const { store, identity, deliverer, render, logger, now, timezone, jobSlack, names, directory } = core;
  const { assignments } = notices;
  const actions = createActionsService({
    care: core.reads.care,
    reads: core.reads.actions,
    store,
    identity,
    teamId: core.team,
    logger,
    now,
    careWebUrl: core.spec.careWebUrl,
    // The fast path: what a change made through Slack tells at once (services/actions/after-write.ts). Not awaited, so
    // the person's click is answered first; the ledger and the poller make each notice exactly once.
    ...notices.afterWrite,
  });
  const reassign = createReassignService({
    care: core.reads.care,
    store,
    identity,
    teamId: core.team,
    names,
    assignments,
    deliverer,
    slack: jobSlack,
    render: { summary: reassignSummaryMessage, result: (plan, outcome, undo) => reassignResultMessage(plan, outcome, undo, timezone) },
    timezone,
    now,
    logger: logger.child({ component: 'reassign' }),
  });
  const reassignUndo = createReassignUndo({
    care: core.reads.care,
    store,
    identity,
    assignments,
    deliverer,
    slack: jobSlack,
    render: { summary: reassignSummaryMessage },
    now,
    logger: logger.child({ component: 'reassign' }),
    teamId: core.team,
  });
  const safeguarding = createSafeguardingSettings({ store, identity, names, directory });
  const notes = createActionNotes({ store, identity });
  // "I'm on it", "I can't" and "Join" on urgent posts (issue 33): kept by the app, shown on every post.
  const answers = createEpisodeAnswers({
    store,
    care: core.reads.care,
    identity,
    deliverer,
    redraw: notices.redraw,
    render,
    slack: jobSlack,
    timezone,
    now,
    logger: logger.child({ component: 'episode-answers' }),
    teamId: core.team,
  });
  return {
    actions,
    answers,
    notes,
    safeguarding,
    reassign,
    reassignUndo,
    posts: createActionPosts({ deliverer, logger: logger.child({ component: 'action-posts' }) }),
    history: createActionHistory({ actions, store, identity, safeguarding, notes, teamId: core.team }),
    homeFilters: createHomeFilters({ store }),
  };
}
