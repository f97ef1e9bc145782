import type { Action } from '../../care/index.js';
import type { Delivery, DeliveryKey, WorkspaceStore } from '../../store/index.js';
import { parseApiDateTime } from '../../time/slack-date.js';
import { readActionsByIds, toActionViews } from '../action-views.js';
import { unfinishedDeliveries, type DeliveryResult } from './delivery.js';
import type { Actor } from '../people/identity.js';
import { createDmChannels } from '../dm-channels.js';
import type { FirstLook } from './first-look.js';
import type { DmNoticeDeps } from './dm-notice-deps.js';

/** An assignment made through Slack: who made it, and the assignee before (null: none, or a new action). */
export interface AssignmentChange {
  by: Actor;
  previousAssignee: string | null;
}

export interface AssignmentReport {
  /** The ledger recipients told (or recorded) of the current assignment. */
  keys: string[];
  results: DeliveryResult[];
}

export interface AssignmentNotices {
  /**
   * Look at one version of an action (read by the changes poll, or just made
   * through Slack): when it is assigned to someone new, DM the assignee's
   * linked Slack users, once per assignment.
   */
  consider(action: Action, change?: AssignmentChange): Promise<AssignmentReport>;
  /** The app's first look: remember the action's assignee as it is, telling nobody (unless already remembered). */
  remember(action: Action): Promise<void>;
  /** Try again the DMs that failed for a passing reason or were left pending by a crashed run. */
  retryUnfinished(): Promise<number>;
  /**
   * Before a move told some other way (a bulk reassignment's one summary DM): remember the action
   * as already assigned to `to` by `by`, quietly, so neither the fast path nor the poll tells it
   * action by action. `settled` with the action as saved; `restore` when the move failed.
   */
  quietly(current: Action, to: string, by: string): Promise<{ settled(saved: Action): Promise<void>; restore(): Promise<void> }>;
}

/**
 * What the app remembers of an action's current assignment (per action, in the
 * store's cursors): the assignee, the `modified` at which it was first seen
 * (the ledger occurrence: it tells one assignment from the next), the newest
 * `modified` seen (an older version read late says nothing new), who made it
 * through Slack, and whether it is told at all (not when first seen complete,
 * nor when the app learns of it only from an edit that kept it).
 */
export interface Assignment {
  to: string | null;
  since: string;
  seen: string;
  by: string | null;
  quiet: boolean;
}

const cursorName = (actionId: string) => `assignment:${actionId}`;
/** Where an action's remembered assignment is kept (the changes poll's observations read it too). */
export const assignmentCursor = cursorName;
const timeOf = (value: string | null | undefined) => parseApiDateTime(value)?.getTime();

/** What the app remembers of an action's assignment (null: nothing yet); the escalation job reads it. */
export async function rememberedAssignment(store: Pick<WorkspaceStore, 'getCursor'>, actionId: string): Promise<Assignment | null> {
  return parseAssignment(await store.getCursor(cursorName(actionId)));
}

export function parseAssignment(value: string | null): Assignment | null {
  if (!value) return null;
  try {
    const v = JSON.parse(value) as Partial<Assignment>;
    return typeof v.since === 'string' ? { to: v.to ?? null, since: v.since, seen: v.seen ?? v.since, by: v.by ?? null, quiet: Boolean(v.quiet) } : null;
  } catch {
    return null;
  }
}

/**
 * The assignment after seeing this version, or null when it changes nothing.
 * Pure: the whole rule of what counts as a new assignment. `firstSightIsNews`
 * says, for an action the app has no memory of, whether what it looks like now
 * is news (made after the app's first look: see first-look.ts); what was already
 * so when the app first saw it is remembered, quietly.
 */
export function nextAssignment(
  current: Assignment | null,
  action: Action,
  change: AssignmentChange | undefined,
  fallbackNow: string,
  firstSightIsNews = false,
): Assignment | null {
  const to = action.assigned_to ?? null;
  const modified = action.modified ?? fallbackNow;
  if (current && current.to === to) {
    return (timeOf(modified) ?? 0) > (timeOf(current.seen) ?? 0) ? { ...current, seen: modified } : null;
  }
  // A version older than one already seen (a late read, another instance) is history, not news.
  if (current && (timeOf(modified) ?? 0) < (timeOf(current.seen) ?? 0)) return null;
  if (!to) return { to: null, since: modified, seen: modified, by: null, quiet: true };
  const madeInSlack = change !== undefined && change.previousAssignee !== to;
  // Someone new for an action the app knew, or made so through Slack, or a new action: news. An action
  // first seen as it already was (or an edit through Slack that kept its assignee) is remembered, not told.
  const news = current !== null || madeInSlack || (change === undefined && firstSightIsNews);
  return {
    to,
    since: modified,
    seen: modified,
    by: madeInSlack ? change.by.userId : null,
    quiet: Boolean(action.completed) || !news,
  };
}

export function createAssignmentNotices(
  deps: DmNoticeDeps<'assignmentNotice'> & {
    firstLook: Pick<FirstLook, 'isNews'>;
  },
): AssignmentNotices {
  const dmChannel = createDmChannels(deps.slack);

  /** DM the assignee's linked Slack users (not whoever assigned it to themselves) about this assignment. */
  async function tell(action: Action, assignment: Assignment): Promise<AssignmentReport> {
    const report: AssignmentReport = { keys: [], results: [] };
    if (!assignment.to || assignment.quiet || action.completed) return report;
    const teamId = await deps.teamId();
    const people = (await deps.store.getLinksByCareUser(assignment.to)).filter((l) => l.teamId === teamId && l.slackUserId !== assignment.by);
    if (people.length === 0) return report;
    const keyFor = (slackUserId: string): DeliveryKey => ({
      kind: 'assignment',
      actionId: action._id,
      occurrence: assignment.since,
      recipient: `user:${teamId}/${slackUserId}`,
    });
    // A re-read within the poll's overlap costs one ledger read per person, nothing more.
    const untold = [];
    for (const p of people) {
      report.keys.push(keyFor(p.slackUserId).recipient);
      if ((await deps.store.getDelivery(keyFor(p.slackUserId)))?.state !== 'sent') untold.push(p);
    }
    if (untold.length === 0) return report;
    const [view] = await toActionViews([action], deps.identity);
    for (const p of untold) {
      const tz = await deps.profiles.tz(p.slackUserId);
      const message = deps.render.assignmentNotice(view!, { now: deps.now(), timezone: tz, showTask: true }, { by: assignment.by });
      report.results.push(await deps.deliverer.deliver(keyFor(p.slackUserId), () => dmChannel(p.slackUserId), message));
    }
    return report;
  }

  const notices: AssignmentNotices = {
    async consider(action, change) {
      const name = cursorName(action._id);
      const current = parseAssignment(await deps.store.getCursor(name));
      const news = !current && !change ? await deps.firstLook.isNews(action) : false;
      const next = nextAssignment(current, action, change, deps.now().toISOString(), news);
      if (next) await deps.store.setCursor(name, JSON.stringify(next));
      const assignment = next ?? current;
      return assignment ? tell(action, assignment) : { keys: [], results: [] };
    },

    async remember(action) {
      const name = cursorName(action._id);
      if (await deps.store.getCursor(name)) return;
      const modified = action.modified ?? deps.now().toISOString();
      const known: Assignment = { to: action.assigned_to ?? null, since: modified, seen: modified, by: null, quiet: true };
      await deps.store.setCursor(name, JSON.stringify(known));
    },

    async quietly(current, to, by) {
      const name = cursorName(current._id);
      const before = await deps.store.getCursor(name);
      const was = parseAssignment(before);
      const at = deps.now().toISOString();
      // `seen` now: a read of the version before the move (the poll, meanwhile) is history, not news.
      await deps.store.setCursor(name, JSON.stringify({ to, since: at, seen: at, by, quiet: true } satisfies Assignment));
      return {
        async settled(saved) {
          const modified = saved.modified ?? at;
          await deps.store.setCursor(
            name,
            JSON.stringify({ to: saved.assigned_to ?? null, since: modified, seen: modified, by, quiet: true } satisfies Assignment),
          );
        },
        async restore() {
          const modified = current.modified ?? at;
          const back: Assignment = was ?? { to: current.assigned_to ?? null, since: modified, seen: modified, by: null, quiet: true };
          await deps.store.setCursor(name, JSON.stringify(back));
        },
      };
    },

    async retryUnfinished() {
      const todo = await unfinishedDeliveries(deps.store, 'assignment', { staleAfterMs: deps.staleAfterMs, limit: 100 });
      if (todo.length === 0) return 0;
      const byAction = new Map<string, Delivery[]>();
      for (const d of todo) byAction.set(d.actionId, [...(byAction.get(d.actionId) ?? []), d]);
      const ids = [...byAction.keys()];
      let actions: Map<string, Action>;
      try {
        actions = await readActionsByIds(deps.care, ids);
      } catch (err) {
        deps.logger.warn('could not read the actions of unfinished assignment DMs; they stay in the ledger for the next run', {
          count: ids.length,
          error: err,
        });
        return 0;
      }
      for (const [actionId, rows] of byAction) {
        try {
          const action = actions.get(actionId);
          const assignment = parseAssignment(await deps.store.getCursor(cursorName(actionId)));
          const why = !action
            ? 'the action no longer exists in the care system'
            : action.completed
              ? 'completed before they were told'
              : !assignment?.to || assignment.quiet
                ? 'no longer assigned to them'
                : null;
          if (why) {
            for (const d of rows) await deps.deliverer.record(d, { failed: why, retryable: false });
            continue;
          }
          // Only the assignment still running is told late; the rows of an earlier one say why not.
          const report = await tell(action!, assignment!);
          for (const d of rows.filter((row) => row.occurrence !== assignment!.since || !report.keys.includes(row.recipient))) {
            await deps.deliverer.record(d, { failed: 'no longer assigned to them', retryable: false });
          }
        } catch (err) {
          deps.logger.warn('retrying an assignment DM failed; it stays in the ledger for the next run', { actionId, error: err });
        }
      }
      return byAction.size;
    },
  };
  return notices;
}
