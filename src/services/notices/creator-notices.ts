import type { Action } from '../../care/index.js';
import type { DeliveryKey, WorkspaceStore } from '../../store/index.js';
import { type CompletionAudit, completersOf, readActionsByIds, toActionViews } from '../action-views.js';
import { unfinishedDeliveries, type DeliveryResult } from './delivery.js';
import { completionNoticeFor } from './completion-roles.js';
import { createDmChannels } from '../dm-channels.js';
import type { DmNoticeDeps } from './dm-notice-deps.js';

/** The ledger kind of the DM to an action's creator when it is completed. */
export const CREATOR_DELIVERY_KIND = 'creator';

/** The audit verb written when an action is created through Slack (services/actions/actions.ts): who created it. */
export const CREATE_VERB = 'action.create';

export interface CreatorReport {
  results: DeliveryResult[];
  /** Nothing done yet: a completion through Slack is under way (it tells them itself); the poll reads it again. */
  waiting?: boolean;
}

export interface CreatorNotices {
  /**
   * The action was seen completed (through Slack, by the poll, or a retry): DM
   * whoever created it through Slack, once per completion (the ledger), unless
   * they completed it themselves, are no longer linked, or were told already as
   * its assignee (someone else completed it through Slack: the change DM). Nothing
   * for an action not created through Slack.
   */
  deliver(action: Action, options?: { retry?: boolean }): Promise<CreatorReport>;
  /** Try again the DMs that failed for a passing reason or were left pending by a crashed run. */
  retryUnfinished(): Promise<number>;
}

/**
 * Where a completion through Slack under way is marked (the app's time, ms) before the care system is
 * asked: a poll that reads the completed action before the completion's audit row is written would
 * otherwise say "in the care system". Such a read waits for the next poll (inside the overlap); the
 * Slack completion tells the creator itself.
 */
export const completingCursor = (actionId: string) => `completing:${actionId}`;

/** How long a completion under way is waited for by the poll. */
const COMPLETING_MS = 60_000;

/** Whether a completion of the action through Slack began within COMPLETING_MS (its audit row not yet written). */
export async function completingInSlack(store: Pick<WorkspaceStore, 'getCursor'>, actionId: string, now: Date): Promise<boolean> {
  const started = Number((await store.getCursor(completingCursor(actionId))) ?? '');
  const age = now.getTime() - started;
  return Number.isFinite(started) && started > 0 && age >= 0 && age < COMPLETING_MS;
}

/** Completions remembered as worked, per workspace and instance (the poll's overlap holds far fewer). */
const WORKED_KEPT = 500;

const recipientOf = (teamId: string, slackUserId: string) => `user:${teamId}/${slackUserId}`;

/** Who created an action through Slack in this workspace (the `action.create` audit row), if anyone. */
export async function creatorOf(audit: CompletionAudit, actionId: string): Promise<string | null> {
  const [all, teamId] = await Promise.all([audit.store.listAudit({ actionId, verb: CREATE_VERB, limit: 5 }), audit.teamId()]);
  const rows = all.filter((e) => e.teamId === teamId);
  return rows.at(-1)?.userId ?? null; // the oldest: an action is created once
}

export function createCreatorNotices(deps: DmNoticeDeps<'creatorNotice'>): CreatorNotices {
  const dmChannel = createDmChannels(deps.slack);
  // Completions already worked here (`<action Id>|<completed>`): the poll's overlap re-reads them at every poll.
  const worked = new Set<string>();
  const remember = (key: string) => {
    worked.delete(key);
    worked.add(key);
    if (worked.size > WORKED_KEPT) worked.delete(worked.values().next().value!);
  };

  const notices: CreatorNotices = {
    async deliver(action, options = {}) {
      if (!action.completed) return { results: [] };
      const workedKey = `${action._id}|${action.completed}`;
      if (!options.retry && worked.has(workedKey)) return { results: [] };
      const teamId = await deps.teamId();
      const creator = await creatorOf({ store: deps.store, teamId: deps.teamId }, action._id);
      const done = (): CreatorReport => {
        remember(workedKey);
        return { results: [] };
      };
      if (!creator) return done();
      // Who completed it through Slack (matched by the completion time); nobody: in the care system.
      const completer = (await completersOf({ store: deps.store, teamId: deps.teamId }, [action])).get(action._id);
      if (!completer && !options.retry) {
        if (await completingInSlack(deps.store, action._id, deps.now())) return { results: [], waiting: true }; // a Slack completion under way: it tells them
      }
      const link = await deps.identity.getLink({ userId: creator });
      // One notice per person per completion (completion-roles.ts): not when they did it themselves, nor once
      // unlinked (no care data for them), nor when their own action was completed by someone else through
      // Slack (the assignee's change DM tells them, change-notices.ts). A creator in a notification group
      // is told here, not also by the group's notice.
      const facts = {
        completer: completer ?? null,
        creator: link ? creator : null,
        assigneeUsers: link && action.assigned_to && link.careUserId === action.assigned_to ? [creator] : [],
      };
      if (completionNoticeFor(creator, facts, { group: false }) !== 'creator') return done();
      const key: DeliveryKey = { kind: CREATOR_DELIVERY_KIND, actionId: action._id, occurrence: action.completed, recipient: recipientOf(teamId, creator) };
      if ((await deps.store.getDelivery(key))?.state === 'sent') return done();
      const [view] = await toActionViews([action], deps.identity, { store: deps.store, teamId: deps.teamId });
      const tz = await deps.profiles.tz(creator);
      const message = deps.render.creatorNotice(view!, { now: deps.now(), timezone: tz, showTask: true });
      const result = await deps.deliverer.deliver(key, () => dmChannel(creator), message);
      remember(workedKey);
      return { results: [result] };
    },

    async retryUnfinished() {
      const todo = await unfinishedDeliveries(deps.store, CREATOR_DELIVERY_KIND, { staleAfterMs: deps.staleAfterMs, limit: 100 });
      if (todo.length === 0) return 0;
      let actions: Map<string, Action>;
      try {
        actions = await readActionsByIds(deps.care, [...new Set(todo.map((d) => d.actionId))]);
      } catch (err) {
        deps.logger.warn('could not read the actions of unfinished creator DMs; they stay in the ledger for the next run', { count: todo.length, error: err });
        return 0;
      }
      for (const d of todo) {
        try {
          const action = actions.get(d.actionId);
          if (!action) {
            await deps.deliverer.record(d, { failed: 'the action no longer exists in the care system', retryable: false });
            continue;
          }
          // The DM is about that completion, even if the action was reopened since.
          const { results } = await notices.deliver({ ...action, completed: d.occurrence }, { retry: true });
          if (results.length === 0 && (await deps.store.getDelivery(d))?.state !== 'sent') {
            await deps.deliverer.record(d, { failed: 'no longer to be told (unlinked, or completed it themselves)', retryable: false });
          }
        } catch (err) {
          deps.logger.warn('retrying a creator DM failed; it stays in the ledger for the next run', { actionId: d.actionId, error: err });
        }
      }
      return todo.length;
    },
  };
  return notices;
}
