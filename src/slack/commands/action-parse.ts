import type { WhereRef } from '../../services/actions/list-where.js';
import type { DueWindowName } from '../../time/due-windows.js';
import { type Command, error, USAGE } from './command.js';
import { AT_NAME, truncateToken, userMention, whereOf } from './words.js';

/** The action words of `/care`: `due` (a window, a colleague, a place); `done` is done-note.ts. Pure. */

const WINDOWS = 'today, tomorrow, week (the next 7 days) or overdue';

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
