import type { PersonRef, ReassignScope } from '../../services/reassign/reassign.js';
import { isCareId } from '../ids.js';
import { type Command, error, USAGE } from './command.js';
import { USER_ID, userMention } from './words.js';

/** The people words of `/care`: `link` (yourself, or admins someone) and `reassign` (admins). Pure. */

export function parseLink(args: string[]): Command {
  if (args.length === 0) return { kind: 'link' };
  if (args.length === 1 && isCareId(args[0]!.toLowerCase())) return { kind: 'link', requestedCareUserId: args[0]!.toLowerCase() };
  const slackUserId = userMention(args[0]);
  const careUserId = args[1]?.toLowerCase();
  if (args.length === 2 && slackUserId && careUserId && isCareId(careUserId)) return { kind: 'link', target: { slackUserId, careUserId } };
  return error(
    `\`${USAGE.link}\`. A care user Id is 24 letters and digits, from the care system's user page; without one, \`/care link\` alone asks an admin.`,
  );
}

/** A person as typed for `/care reassign`: a mention, a care user Id, or words (an @name or their care name). */
function rotaPerson(words: string[]): PersonRef | null {
  if (words.length === 0) return null;
  if (words.length === 1) {
    const mention = userMention(words[0]);
    if (mention) return { type: 'slack', id: mention };
    if (USER_ID.test(words[0]!)) return { type: 'slack', id: words[0]! };
    if (isCareId(words[0]!.toLowerCase())) return { type: 'care', id: words[0]!.toLowerCase() };
  }
  if (words.some((w) => w.includes('<') || w.includes('>'))) return null;
  return { type: 'name', name: words.join(' ') };
}

/** `/care reassign <person> to <person> [overdue|today|all]`. */
export function parseReassign(args: string[]): Command {
  const usage = `\`${USAGE.reassign}\`, e.g. \`/care reassign @amelia to @ben today\` (a name as the care system has it, or a care user Id, works too)`;
  const last = args.at(-1)?.toLowerCase();
  const named = last === 'overdue' || last === 'today' || last === 'all';
  const scope: ReassignScope = named ? last : 'all';
  const words = named ? args.slice(0, -1) : args;
  const at = words.findIndex((w) => w.toLowerCase() === 'to');
  if (at < 0) return error(`Say whose work moves and to whom, with “to” between: ${usage}.`);
  const from = rotaPerson(words.slice(0, at));
  const to = rotaPerson(words.slice(at + 1));
  if (!from) return error(`Name the person whose work moves, before “to”: ${usage}.`);
  if (!to) return error(`Name the person to move it to, after “to”: ${usage}.`);
  return { kind: 'reassign', from, to, scope };
}
