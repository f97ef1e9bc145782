import { createHash } from 'node:crypto';
import { clean, plain } from '../text.js';

/**
 * A task in a Slack form: a plain_text_input holds at most 3,000 characters
 * (its initial value too), while the care system's own tasks may be longer.
 * A longer task is put in the form cut (ending in "…"), and the cut is
 * remembered (its length and a digest of what the form shows, sealed in the
 * form's metadata) so that saving the cut text unchanged is refused instead of
 * cutting the task without anyone knowing.
 */
export const TASK_MAX = 3000;

export interface TaskCut {
  /** The length of the whole text. */
  from: number;
  /** Digest of the cut text the form shows. */
  digest: string;
}

const count = (n: number) => n.toLocaleString('en-GB');

/** A short digest of a task as the form would submit it. */
export function taskDigest(task: string): string {
  return createHash('sha256').update(clean(task).trim()).digest('hex').slice(0, 16);
}

/** The task as the form can show it, and the cut when it is too long. */
export function fitTask(task: string): { task: string; cut?: TaskCut } {
  const whole = clean(task).trim();
  if (whole.length <= TASK_MAX) return { task: whole };
  const shown = plain(whole, TASK_MAX);
  return { task: shown, cut: { from: whole.length, digest: taskDigest(shown) } };
}

/** Whether the submitted task is the cut text, unchanged. */
export function isUntouchedCut(task: string, cut: TaskCut | undefined): boolean {
  return Boolean(cut) && taskDigest(task) === cut!.digest;
}

/** Under the task field, when the cut text is saved as it is. */
export function cutTaskError(cut: TaskCut): string {
  return `This is the first ${count(TASK_MAX)} of ${count(cut.from)} characters: the end is cut off. Shorten it to at most ${count(TASK_MAX)} yourself, then save.`;
}

/** Under the task field, when a task over the limit arrives. */
export function tooLongTaskError(length: number): string {
  return `The task is ${count(length)} characters; the most is ${count(TASK_MAX)}. Shorten it by ${count(length - TASK_MAX)}.`;
}
