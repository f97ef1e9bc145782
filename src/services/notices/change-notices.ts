import type { Action } from '../../care/index.js';
import type { ChangeKind, ChangeSaid, EditedField } from './change-kinds.js';
import type { Delivery, DeliveryKey } from '../../store/index.js';
import { readActionsByIds, toActionViews } from '../action-views.js';
import { unfinishedDeliveries, type DeliveryResult } from './delivery.js';
import { createDmChannels } from '../dm-channels.js';
import type { Actor } from '../people/identity.js';
import type { DmNoticeDeps } from './dm-notice-deps.js';

export type { ChangeKind } from './change-kinds.js';

export interface ActionChange {
  kind: ChangeKind;
  /** Who did it (a Slack user). */
  by: Actor;
  /** The care user whose action it is: the assignee (for Take it and `unassign`, the one it was taken from); null: nobody's. */
  assignee: string | null;
  /** `edit`: what it changed. */
  fields?: EditedField[] | undefined;
}

/** The ledger kind of these DMs. */
export const CHANGE_DELIVERY_KIND = 'change';

export interface ChangeNotices {
  /**
   * DM the assignee's linked Slack users when someone else completed, reopened,
   * took, snoozed or edited their action (or took it away from them): once per change (the delivery ledger). Nothing when the
   * assignee did it, the action is nobody's, or the assignee is not linked.
   */
  tell(action: Action, change: ActionChange): Promise<DeliveryResult[]>;
  /** Try again the DMs that failed for a passing reason or were left pending by a crashed run. */
  retryUnfinished(): Promise<number>;
}

/**
 * The ledger occurrence of one change: what (an edit with what it changed,
 * `edit+due+urgent`), when (the completion time, else the action's `modified`),
 * and who did it, so a retry can render the same DM. Two clicks that made the
 * same change at the same second are one change.
 */
export function changeOccurrence(action: Action, change: Pick<ActionChange, 'kind' | 'by' | 'fields'>, fallbackNow: string): string {
  const at = (change.kind === 'complete' ? action.completed : action.modified) ?? fallbackNow;
  const what = change.kind === 'edit' ? [change.kind, ...(change.fields ?? [])].join('+') : change.kind;
  return `${what}|${at}|${change.by.userId}`;
}

export function parseChangeOccurrence(occurrence: string): ChangeSaid | null {
  const m = /^(complete|reopen|take|snooze|earlier|unsnooze|unassign|edit)((?:\+(?:due|urgent|task))*)\|.+\|([UW][A-Z0-9]+)$/.exec(occurrence);
  if (!m) return null;
  const fields = m[2] ? (m[2].slice(1).split('+') as EditedField[]) : [];
  return { kind: m[1] as ChangeKind, by: m[3]!, ...(m[1] === 'edit' ? { fields } : {}) };
}

const recipientOf = (teamId: string, slackUserId: string) => `user:${teamId}/${slackUserId}`;

function parseRecipient(recipient: string): { teamId: string; slackUserId: string } | null {
  const m = /^user:([^/]+)\/([UW][A-Z0-9]+)$/.exec(recipient);
  return m ? { teamId: m[1]!, slackUserId: m[2]! } : null;
}

export function createChangeNotices(deps: DmNoticeDeps<'changeNotice'>): ChangeNotices {
  const dmChannel = createDmChannels(deps.slack);

  async function send(action: Action, key: DeliveryKey, slackUserId: string, change: ChangeSaid): Promise<DeliveryResult> {
    const [view] = await toActionViews([action], deps.identity, { store: deps.store, teamId: deps.teamId });
    const tz = await deps.profiles.tz(slackUserId);
    const message = deps.render.changeNotice(view!, { now: deps.now(), timezone: tz, showTask: true }, change);
    return deps.deliverer.deliver(key, () => dmChannel(slackUserId), message);
  }

  const notices: ChangeNotices = {
    async tell(action, change) {
      if (!change.assignee) return [];
      const actorLink = await deps.identity.getLink(change.by);
      if (actorLink?.careUserId === change.assignee) return []; // the assignee did it themselves
      const teamId = await deps.teamId();
      const people = (await deps.store.getLinksByCareUser(change.assignee)).filter((l) => l.teamId === teamId && l.slackUserId !== change.by.userId);
      const occurrence = changeOccurrence(action, change, deps.now().toISOString());
      const results: DeliveryResult[] = [];
      for (const p of people) {
        const key = { kind: CHANGE_DELIVERY_KIND, actionId: action._id, occurrence, recipient: recipientOf(teamId, p.slackUserId) };
        results.push(await send(action, key, p.slackUserId, { kind: change.kind, by: change.by.userId, fields: change.fields }));
      }
      return results;
    },

    async retryUnfinished() {
      const todo = await unfinishedDeliveries(deps.store, CHANGE_DELIVERY_KIND, { staleAfterMs: deps.staleAfterMs, limit: 100 });
      if (todo.length === 0) return 0;
      const ids = [...new Set(todo.map((d) => d.actionId))];
      let actions: Map<string, Action>;
      try {
        actions = await readActionsByIds(deps.care, ids);
      } catch (err) {
        deps.logger.warn('could not read the actions of unfinished change DMs; they stay in the ledger for the next run', { count: ids.length, error: err });
        return 0;
      }
      for (const d of todo as Delivery[]) {
        try {
          const action = actions.get(d.actionId);
          const change = parseChangeOccurrence(d.occurrence);
          const to = parseRecipient(d.recipient);
          if (!action || !change || !to) {
            await deps.deliverer.record(d, {
              failed: action ? 'not a change DM this app can render' : 'the action no longer exists in the care system',
              retryable: false,
            });
            continue;
          }
          await send(action, d, to.slackUserId, change);
        } catch (err) {
          deps.logger.warn('retrying a change DM failed; it stays in the ledger for the next run', { actionId: d.actionId, error: err });
        }
      }
      return todo.length;
    },
  };
  return notices;
}
