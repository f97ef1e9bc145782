/**
 * `/care done <action no or Id> [note]` (issue 33): the words after the one action reference are a note kept with
 * the completion (services/actions/action-notes.ts). Told apart from a second action number: words that are all
 * numbers (`/care done 301 302`) are never read as a note (one action at a time, as before); a note of
 * numbers alone goes after `--note` (`/care done 301 --note 2`). Pure.
 */
import type { ActionRef } from '../../services/action-model.js';
import { checkNote } from '../../services/actions/action-notes.js';

export type DoneCommand = { kind: 'done'; ref: ActionRef; note?: string } | { kind: 'error'; message: string };

const USAGE = '/care done <action no or Id> [note]';
/** An action number or Id as typed after the first (`302`, `#302`, a 24-hex-digit Id). */
const ANOTHER_ACTION = /^(?:#?\d{1,24}|[0-9a-fA-F]{24})$/;
const NOTE_FLAG = /^--note\b/i;

/**
 * `rest`: the words after `done`; `tail`: the same as typed (spaces kept). `parseRef` reads one action reference.
 */
export function parseDone(rest: readonly string[], tail: string, parseRef: (raw: string | undefined) => ActionRef | null): DoneCommand {
  const ref = parseRef(rest[0]);
  if (!ref)
    return {
      kind: 'error',
      message: `Give one action number or Id: \`${USAGE}\`, e.g. \`/care done 1042\` or \`/care done 1042 gave 2 tablets, GP told\`. Not sure of the number? \`/care find <words>\` finds it.`,
    };
  if (rest.length === 1) return { kind: 'done', ref };
  const after = tail.slice(tail.indexOf(rest[0]!) + rest[0]!.length).trim();
  const flagged = NOTE_FLAG.test(after);
  if (!flagged && rest.slice(1).every((w) => ANOTHER_ACTION.test(w)))
    return {
      kind: 'error',
      message: `One action at a time: \`${USAGE}\`, e.g. \`/care done ${rest[0]}\`, then \`/care done ${rest[1]}\`. Words after the number are a note kept with the completion (\`/care done ${rest[0]} gave 2 tablets\`); a note of numbers alone goes after \`--note\`.`,
    };
  const checked = checkNote(flagged ? after.replace(NOTE_FLAG, '') : after);
  if (!checked.ok) return { kind: 'error', message: checked.message };
  return { kind: 'done', ref, note: checked.text };
}
