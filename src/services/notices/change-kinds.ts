import type { Action } from '../../care/index.js';

/**
 * What someone did to an action through Slack that its assignee is told of when it was not them:
 * completed, reopened, took it, snoozed it (a later due time), moved it earlier (a snooze choice that
 * brought the due time forward), undid their snooze (the due time put
 * back), took it away from them through Edit (`unassign`, told to the one it was taken from), or
 * edited it otherwise (`edit`: its due time, urgency or task).
 */
export type ChangeKind = 'complete' | 'reopen' | 'take' | 'snooze' | 'earlier' | 'unsnooze' | 'unassign' | 'edit';

/** What an Edit changed that its assignee is told of. */
export type EditedField = 'due' | 'urgent' | 'task';

/** What a change DM says: the change, who made it (a Slack user) and, for an edit, what it changed. */
export interface ChangeSaid {
  kind: ChangeKind;
  by: string;
  fields?: EditedField[] | undefined;
}

/** What an edit changed of the fields an assignee is told of (in this order). */
export function editedFields(before: Action, after: Action): EditedField[] {
  const fields: EditedField[] = [];
  if ((before.due ?? null) !== (after.due ?? null)) fields.push('due');
  if (Boolean(before.urgent) !== Boolean(after.urgent)) fields.push('urgent');
  if ((before.task ?? '') !== (after.task ?? '')) fields.push('task');
  return fields;
}
