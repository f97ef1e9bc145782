import type { Action } from '../care/index.js';
import { parseApiDateTime } from '../time/slack-date.js';
import type { ActionView } from './action-model.js';
import type { IdentityService } from './identity.js';

/** Care actions -> view models, with assignees resolved to Slack mentions (linked) or names. */
export async function toActionViews(actions: Action[], teamId: string, identity: IdentityService): Promise<ActionView[]> {
  const assignees = [...new Set(actions.map((a) => a.assigned_to).filter((v): v is string => Boolean(v)))];
  const slackIds = new Map<string, string | null>();
  await Promise.all(assignees.map(async (id) => slackIds.set(id, await identity.slackUserFor(teamId, id))));
  const unlinked = assignees.filter((id) => !slackIds.get(id));
  const names = unlinked.length ? await identity.careUserNames(unlinked) : new Map<string, string>();
  return actions.map((a) => {
    const assignee = a.assigned_to
      ? slackIds.get(a.assigned_to)
        ? { slackUserId: slackIds.get(a.assigned_to)! }
        : { ...(names.get(a.assigned_to) ? { name: names.get(a.assigned_to)! } : {}) }
      : null;
    return {
      id: a._id,
      actionNo: a.action_no ?? null,
      task: a.task ?? null,
      due: parseApiDateTime(a.due),
      urgent: Boolean(a.urgent),
      completed: parseApiDateTime(a.completed),
      assignee,
    };
  });
}
