/**
 * Where the assignee's DM about an answer ("@priya is on it", ledger kind `answer`, episode-answers.ts) stands when
 * it is drawn again (redraw-kinds.ts): still open and theirs (as sent, the card as it is now), or ended — completed,
 * no longer urgent, with someone else now — when it says so and its buttons go; or the answer was undone. Pure.
 */
import type { ActionView } from '../action-model.js';

export type AnswerNoticeState =
  | { kind: 'open' }
  | { kind: 'completed' }
  | { kind: 'not-urgent' }
  /** No longer assigned to the DM's recipient: with someone else, or nobody. */
  | { kind: 'moved' }
  /** The answer the DM told of was undone by its giver (when: `at`). */
  | { kind: 'undone'; at: Date };

/** Whether the DM's episode is over for its recipient (its buttons go). */
export const answerNoticeEnded = (s: AnswerNoticeState): boolean => s.kind === 'completed' || s.kind === 'not-urgent' || s.kind === 'moved';

/** `recipient`: the Slack user the DM went to; `undoneAt`: when the answer it told of was undone (ms), or null. */
export function answerNoticeState(view: Pick<ActionView, 'completed' | 'urgent' | 'assignee'>, recipient: string, undoneAt: number | null): AnswerNoticeState {
  if (view.completed) return { kind: 'completed' };
  if (!view.urgent) return { kind: 'not-urgent' };
  if (view.assignee?.slackUserId !== recipient) return { kind: 'moved' };
  if (undoneAt !== null) return { kind: 'undone', at: new Date(undoneAt) };
  return { kind: 'open' };
}

/** The `answer` DM's occurrence, `<episode>#<answer id>`, as its parts; null when it is not one. */
export function parseAnswerOccurrence(occurrence: string): { episode: string; answerId: number } | null {
  const at = occurrence.lastIndexOf('#');
  const id = Number(occurrence.slice(at + 1));
  return at > 0 && Number.isInteger(id) && id > 0 ? { episode: occurrence.slice(0, at), answerId: id } : null;
}
