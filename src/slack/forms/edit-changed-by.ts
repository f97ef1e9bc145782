import type { Action } from '../../care/index.js';
import type { ActionView } from '../../services/action-model.js';
import type { EditRestore } from '../../services/actions/undo-change.js';
import type { SlackDeps } from '../deps.js';
import { changedWithUndo } from '../listeners/after-click.js';
import type { ChangedBy, EditSummary } from '../views/changed-by.js';

const nameOf = (v: ActionView | undefined) => (v?.assignee ? (v.assignee.name ?? v.assignee.slackName ?? 'someone not in Slack') : null);
const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * What an edit changed, as the post's "Edited by" row says it (names, due times in each reader's zone),
 * and what its Undo puts back: the assignee, due time and urgency it changed, as they were. Pure.
 */
export function editOf(
  before: Action,
  after: Action,
  views: [ActionView | undefined, ActionView | undefined],
  tz: string,
): { edits: EditSummary; previous: EditRestore } {
  const edits: EditSummary = {};
  const previous: EditRestore = {};
  if ((before.assigned_to ?? null) !== (after.assigned_to ?? null)) {
    edits.assignee = { from: nameOf(views[0]), to: nameOf(views[1]) };
    previous.assignee = before.assigned_to ?? null;
  }
  if ((before.due ?? null) !== (after.due ?? null)) {
    edits.due = { from: views[0]?.due ?? null, to: views[1]?.due ?? null, tz };
    previous.due = before.due ?? null;
  }
  if (Boolean(before.urgent) !== Boolean(after.urgent)) {
    edits.urgent = Boolean(after.urgent);
    previous.urgent = Boolean(before.urgent);
  }
  if ((before.task ?? '') !== (after.task ?? '')) edits.task = true;
  const other =
    !same(before.notify_on_complete, after.notify_on_complete) ||
    !same(before.pin_to_calendar, after.pin_to_calendar) ||
    !same(before.reminders, after.reminders);
  if (other) edits.other = true;
  return { edits, previous };
}

/**
 * The row an Edit saved from a channel post leaves under the action: "Edited by @x: what changed", with
 * Undo (that person's, once, for a few minutes) when it changed the assignee, due time or urgency.
 */
export async function editedBy(deps: SlackDeps, actor: { teamId: string; userId: string }, before: Action, after: Action, tz: string): Promise<ChangedBy> {
  const [was, now] = await deps.actions.views([before, after]);
  const { edits, previous } = editOf(before, after, [was, now], tz);
  if (Object.keys(previous).length === 0) return { kind: 'edit', by: actor.userId, edits };
  return changedWithUndo(deps, actor.teamId, actor.userId, after, { kind: 'edit', edits, previous });
}
