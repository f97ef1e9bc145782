import type { ActionRef } from '../../services/action-model.js';
import { checkNote } from '../../services/actions/action-notes.js';
import type { WhereRef } from '../../services/actions/list-where.js';
import type { DueWindowName } from '../../time/due-windows.js';
import { isCareId } from '../ids.js';
import { type Command, error, USAGE } from './command.js';
import { AT_NAME, truncateToken, userMention, whereOf } from './words.js';

/** The action words of `/care`: an action's number or Id, `due` (a window, a colleague, a place) and `done` with its note. Pure. */

const ACTION_NO = /^#?([A-Za-z0-9][A-Za-z0-9-]{0,23})$/;
const WINDOWS = 'today, tomorrow, week (the next 7 days) or overdue';

export function parseActionRef(raw: string | undefined): ActionRef | null {
  if (!raw) return null;
  const s = raw.trim();
  if (isCareId(s.toLowerCase())) return { type: 'id', id: s.toLowerCase() };
  const m = ACTION_NO.exec(s);
  return m ? { type: 'no', no: m[1]! } : null;
}

export function parseDue(args: string[]): Command {
  let window: DueWindowName = 'today';
  let slackUserId: string | undefined;
  let personName: string | undefined;
  let where: WhereRef | undefined;
  for (const [i, arg] of args.entries()) {
    const w = arg.toLowerCase();
    if (w === 'location' || w === 'resident') {
      const found = whereOf(args.slice(i));
      if (found && 'error' in found) return error(found.error.replace('/care mine', '/care due today'));
      where = found ?? undefined;
      break;
    }
    const mention = userMention(arg);
    if (w === 'today' || w === 'tomorrow' || w === 'week' || w === 'overdue') window = w;
    else if (mention && !slackUserId && !personName) slackUserId = mention;
    else if (AT_NAME.test(arg) && !slackUserId && !personName) personName = arg;
    // "@Priya Sharma": a display name may have spaces.
    else if (personName && !arg.startsWith('@') && !arg.startsWith('<')) personName = `${personName} ${arg}`;
    else if (mention || arg.startsWith('@')) return error(`Name one person at a time: \`${USAGE.due}\`, e.g. \`/care due week @priya\`.`);
    else
      return error(
        `I don't know the window \`${truncateToken(arg)}\`. \`/care due\` knows ${WINDOWS}: e.g. \`/care due tomorrow\`; add @name for a colleague's.`,
      );
  }
  return { kind: 'due', window, ...(slackUserId ? { slackUserId } : {}), ...(personName ? { personName } : {}), ...(where ? { where } : {}) };
}

/**
 * `/care done <action no or Id> [note]` (issue 33): the words after the one action reference are a note kept with
 * the completion (services/actions/action-notes.ts). Told apart from a second action number: words that are all
 * numbers (`/care done 301 302`) are never read as a note (one action at a time, as before); a note of
 * numbers alone goes after `--note` (`/care done 301 --note 2`). Pure.
 */
export type DoneCommand = { kind: 'done'; ref: ActionRef; note?: string } | { kind: 'error'; message: string };

const DONE_USAGE = '/care done <action no or Id> [note]';
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
      message: `Give one action number or Id: \`${DONE_USAGE}\`, e.g. \`/care done 1042\` or \`/care done 1042 gave 2 tablets, GP told\`. Not sure of the number? \`/care find <words>\` finds it.`,
    };
  if (rest.length === 1) return { kind: 'done', ref };
  const after = tail.slice(tail.indexOf(rest[0]!) + rest[0]!.length).trim();
  const flagged = NOTE_FLAG.test(after);
  if (!flagged && rest.slice(1).every((w) => ANOTHER_ACTION.test(w)))
    return {
      kind: 'error',
      message: `One action at a time: \`${DONE_USAGE}\`, e.g. \`/care done ${rest[0]}\`, then \`/care done ${rest[1]}\`. Words after the number are a note kept with the completion (\`/care done ${rest[0]} gave 2 tablets\`); a note of numbers alone goes after \`--note\`.`,
    };
  const checked = checkNote(flagged ? after.replace(NOTE_FLAG, '') : after);
  if (!checked.ok) return { kind: 'error', message: checked.message };
  return { kind: 'done', ref, note: checked.text };
}
