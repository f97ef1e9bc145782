/**
 * The notification text rule (issue 28): a message's `text` — what a locked phone and notifications show —
 * names no resident and carries no task text. Pure: give it the text and what the test seeded; it answers
 * with what is wrong (empty when nothing is). Reusable by any test that sends a new kind of message.
 *
 * Compared as words (case, punctuation and Slack's mrkdwn escapes ignored):
 * - a resident: their whole name, or any part of it of 3 letters or more, as a word of its own;
 * - a task: the whole task, or any run of 4 of its words in a row.
 */

/** Lower-case words: letters and digits only, everything else a space. Slack's look-alike characters are folded back. */
export function wordsOf(text: string): string[] {
  return text
    .normalize('NFKD')
    .replace(/[\u2217\u2216\uff3f\u02dc\u02cb\u2032]/g, ' ') // the look-alikes userText puts for * _ ~ `
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
    .split(' ')
    .filter(Boolean);
}

const containsRun = (haystack: string[], needle: string[]): boolean => {
  if (needle.length === 0 || needle.length > haystack.length) return false;
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return true;
  }
  return false;
};

/** Runs of this many words of a task count as its text. */
const TASK_RUN = 4;

export function neutralTextProblems(text: string, known: { residents: readonly string[]; tasks: readonly string[] }): string[] {
  const words = wordsOf(text);
  const problems: string[] = [];
  for (const resident of known.residents) {
    const parts = wordsOf(resident);
    if (containsRun(words, parts)) problems.push(`names the resident "${resident}"`);
    else {
      const part = parts.find((p) => p.length >= 3 && words.includes(p));
      if (part) problems.push(`names the resident "${resident}" (${part})`);
    }
  }
  for (const task of known.tasks) {
    const taskWords = wordsOf(task);
    if (taskWords.length === 0) continue;
    if (taskWords.length <= TASK_RUN) {
      if (containsRun(words, taskWords)) problems.push(`carries the task "${task}"`);
      continue;
    }
    for (let i = 0; i + TASK_RUN <= taskWords.length; i++) {
      const run = taskWords.slice(i, i + TASK_RUN);
      if (containsRun(words, run)) {
        problems.push(`carries text of the task "${task}" ("${run.join(' ')}")`);
        break;
      }
    }
  }
  return problems;
}
