import type { Action, CareClient } from '../care/index.js';
import type { WorkspaceStore } from '../store/index.js';
import { parseApiDateTime } from '../time/slack-date.js';
import { ACTION_ATTRIBUTES, type ActionView } from './action-model.js';
import type { IdentityService } from './people/identity.js';

/** The audit log as views read it: who completed what through Slack, in the workspace's own rows (its team bound at composition). */
export interface CompletionAudit {
  store: Pick<WorkspaceStore, 'listAudit'>;
  teamId: () => Promise<string>;
}

/**
 * Who completed each completed action through Slack: the `action.complete`
 * audit entry whose completion time is the action's (a later completion in
 * the care system, after a reopen, is not theirs). One store read for the list.
 */
export async function completersOf(audit: CompletionAudit, actions: Action[]): Promise<Map<string, string>> {
  const done = new Map<string, number>();
  for (const a of actions) {
    const at = parseApiDateTime(a.completed)?.getTime();
    if (at !== undefined) done.set(a._id, at);
  }
  const by = new Map<string, string>();
  if (done.size === 0) return by;
  // Newest first: the latest entry for a completion time wins.
  // The store is the workspace's own; a deployment of one also serves people of other teams (Slack Connect).
  const [rows, teamId] = await Promise.all([audit.store.listAudit({ verb: 'action.complete', actionIds: [...done.keys()], limit: 1000 }), audit.teamId()]);
  for (const e of rows.filter((x) => x.teamId === teamId)) {
    const completed = typeof e.details.completed === 'string' ? parseApiDateTime(e.details.completed)?.getTime() : undefined;
    if (e.actionId && !by.has(e.actionId) && completed !== undefined && completed === done.get(e.actionId)) by.set(e.actionId, e.userId);
  }
  return by;
}

/**
 * Care actions -> view models, with assignees resolved to Slack mentions and Slack names (linked) or care names, and,
 * given the audit log, who completed them through Slack.
 */
export async function toActionViews(actions: Action[], identity: IdentityService, audit?: CompletionAudit): Promise<ActionView[]> {
  const assignees = [...new Set(actions.map((a) => a.assigned_to).filter((v): v is string => Boolean(v)))];
  const slackIds = new Map<string, string | null>();
  await Promise.all(assignees.map(async (id) => slackIds.set(id, await identity.slackUserFor(id))));
  const unlinked = assignees.filter((id) => !slackIds.get(id));
  const linked = [...new Set([...slackIds.values()].filter((v): v is string => Boolean(v)))];
  const [names, slackNames] = await Promise.all([
    unlinked.length ? identity.careUserNames(unlinked) : new Map<string, string>(),
    linked.length ? identity.slackNames(linked) : new Map<string, string>(),
  ]);
  const completers = audit ? await completersOf(audit, actions) : new Map<string, string>();
  return actions.map((a) => {
    const slackUserId = a.assigned_to ? slackIds.get(a.assigned_to) : undefined;
    const slackName = slackUserId ? slackNames.get(slackUserId) : undefined;
    const assignee = a.assigned_to
      ? slackUserId
        ? { slackUserId, ...(slackName ? { slackName } : {}), careUserId: a.assigned_to }
        : { ...(names.get(a.assigned_to) ? { name: names.get(a.assigned_to)! } : {}), careUserId: a.assigned_to }
      : null;
    const completedBy = completers.get(a._id);
    return {
      id: a._id,
      actionNo: a.action_no ?? null,
      task: a.task ?? null,
      due: parseApiDateTime(a.due),
      urgent: Boolean(a.urgent),
      completed: parseApiDateTime(a.completed),
      assignee,
      ...(completedBy ? { completedBy: { slackUserId: completedBy } } : {}),
      ...(a.tag ? { generated: true } : {}),
    };
  });
}

/** These actions (open or complete) as the care system has them now, in one paged read: id -> action. Gone ones are missing. */
export async function readActionsByIds(care: CareClient, ids: string[]): Promise<Map<string, Action>> {
  const found = new Map<string, Action>();
  if (!ids.length) return found;
  for (const a of await care.actions.collect({ filters: { ids, completed: 'unset' }, attributes: [...ACTION_ATTRIBUTES], per_page: 100, limit: ids.length })) {
    found.set(a._id, a);
  }
  return found;
}
