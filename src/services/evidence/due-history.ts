/**
 * What the app remembers of each action's due time (issue 32, honest evidence): the first due time it saw
 * (its first look, the changes poll, or the action as created through Slack) and every reschedule after it
 * (a snooze or a due edit through Slack, or a change in the care system seen by the poll). Append-only in
 * the store (store/due-history.ts); the evidence export measures lateness from the first.
 */
import type { Action } from '../../care/index.js';
import type { DueSeenVia, WorkspaceStore } from '../../store/index.js';
import { parseApiDateTime } from '../../time/slack-date.js';

export interface DueHistoryService {
  /** Note the due time one version of an action shows (nothing when it has none, or shows nothing new). */
  observe(action: Pick<Action, '_id' | 'due' | 'modified' | 'created'>, via: DueSeenVia): Promise<void>;
}

export function createDueHistory(deps: { store: Pick<WorkspaceStore, 'noteDue'> }): DueHistoryService {
  return {
    async observe(action, via) {
      const due = parseApiDateTime(action.due)?.getTime();
      if (due === undefined) return;
      // The version's `modified` orders sightings; a version without one (a bare create answer) counts as its creation.
      const modified = parseApiDateTime(action.modified)?.getTime() ?? parseApiDateTime(action.created)?.getTime() ?? 0;
      await deps.store.noteDue(action._id, { dueAt: due, modifiedAt: modified, via });
    },
  };
}
