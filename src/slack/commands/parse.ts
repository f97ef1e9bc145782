import { truncateToken, userMention, whereOf } from './words.js';
import { type Command, error, USAGE } from './command.js';
import { parseActionRef, parseDone, parseDue } from './action-parse.js';
import { parseDigest, parseHandover, parseRoute } from './channel-parse.js';
import { parseLink, parseReassign } from './people-parse.js';
import { parseShiftsCommand, parseSummary } from './shift-parse.js';
import { parseEvidence } from './evidence-parse.js';
import { parseWorkspaceCommand } from './workspace-parse.js';
import { parseEscalation } from './escalation-parse.js';
import { parseSafeguarding } from './safeguarding-parse.js';
import { parseTwoStaff } from './two-staff-parse.js';

/**
 * The one `/care` table: the first word picks the sub-command, each family reads its own words in its own file
 * (action-parse, channel-parse, people-parse, shift-parse, evidence-parse, and the set-up words of
 * workspace-parse, escalation-parse, safeguarding-parse, two-staff-parse); the types are command.ts's.
 */
const MAX_TEXT = 4000;

/** Parse the text after `/care` into a typed command; never throws. */
export function parseCommand(input: string): Command {
  const text = (input ?? '').replace(/[\u0000-\u001F\u007F]/g, ' ').trim();
  if (text.length > MAX_TEXT) return error(`That is too long (${text.length} characters); keep it under ${MAX_TEXT}.`);
  const [head = '', ...rest] = text.split(/\s+/);
  const sub = head.toLowerCase();
  const tail = text.slice(head.length).trim();
  if (/^settings?$/i.test(head) && rest[0]?.toLowerCase() === 'safeguarding') {
    const parsed = parseSafeguarding(rest.slice(1));
    return 'error' in parsed ? error(parsed.error) : { kind: 'safeguarding', command: parsed };
  }
  const twoStaff = parseTwoStaff([head, ...rest], parseActionRef);
  if (twoStaff) return 'error' in twoStaff ? error(twoStaff.error) : { kind: 'two-staff', command: twoStaff };
  const setUp = parseWorkspaceCommand(text);
  if (setUp) return { kind: 'workspace', command: setUp };

  switch (sub) {
    case '':
    case 'help':
      return { kind: 'help' };
    case 'new':
      return { kind: 'new', task: tail };
    case 'mine': {
      if (!rest.length) return { kind: 'mine' };
      const where = whereOf(rest);
      if (where && 'error' in where) return error(where.error);
      return where
        ? { kind: 'mine', where }
        : error(
            '`/care mine` takes only `location <name>` or `resident <Id>` after it, e.g. `/care mine location Rose House`. For one window try `/care due today`; to search, `/care find <words>`.',
          );
    }
    case 'due':
      return parseDue(rest);
    case 'done':
      return parseDone(rest, tail, parseActionRef);
    case 'show':
    case 'reopen': {
      const ref = rest.length === 1 ? parseActionRef(rest[0]) : null;
      return ref
        ? { kind: sub, ref }
        : error(`Give one action number or Id: \`${USAGE[sub]}\`, e.g. \`/care ${sub} 1042\`. Not sure of the number? \`/care find <words>\` finds it.`);
    }
    case 'find':
      return tail ? { kind: 'find', words: tail } : error(`Say what to look for: \`${USAGE.find}\`, e.g. \`/care find hoist\` or an action number.`);
    case 'locations':
    case 'literature':
      return { kind: sub, words: tail };
    case 'link':
      return parseLink(rest);
    case 'unlink': {
      if (rest.length === 0) return { kind: 'unlink' };
      const u = rest.length === 1 ? userMention(rest[0]) : null;
      return u
        ? { kind: 'unlink', slackUserId: u }
        : error('To unlink yourself type `/care unlink` alone; admins pick the person with @ from Slack’s list: `/care unlink @person`.');
    }
    case 'export':
    case 'forget': {
      // A typed sub-command gets its own answer, whatever follows (`/care forget Val Visitor`): never a new action.
      const u = rest.length === 1 ? userMention(rest[0]) : null;
      if (u) return { kind: sub === 'export' ? 'person-export' : 'person-forget', slackUserId: u };
      const pick = `Pick the person with @ from Slack’s list, one person: \`/care ${sub} @person\`.`;
      if (rest.length === 0 || (rest.length === 1 && rest[0]!.startsWith('@'))) return error(pick);
      return error(`${pick} To make a new action of these words instead, type \`/care new\` before them.`);
    }
    case 'whoami':
    case 'links':
    case 'routes':
      return rest.length ? error(`\`/care ${sub}\` takes nothing after it: type it alone.`) : { kind: sub };
    case 'digest':
      return parseDigest(rest);
    case 'handover':
      return parseHandover(rest);
    case 'route':
      return parseRoute(rest);
    case 'summary':
      return parseSummary(tail);
    case 'reassign':
      return parseReassign(rest);
    case 'evidence':
      return parseEvidence(rest);
    case 'escalation': {
      const parsed = parseEscalation(rest);
      return 'error' in parsed ? error(parsed.error) : { kind: 'escalation', command: parsed };
    }
    case 'shifts':
    case 'shift':
      return parseShiftsCommand(tail);
    case 'oncall':
    case 'on-call':
      return rest.length ? error('`/care oncall` takes nothing after it: type it alone.') : { kind: 'oncall' };
    case '?':
      return { kind: 'help' };
    default: {
      // Words that are no sub-command are a new action ("/care Call the GP tomorrow"), as in Todoist.
      // One word that is a slip of a sub-command ("mien") is more likely the command: asked, not a form.
      const meant = rest.length === 0 ? nearSubCommand(sub) : undefined;
      if (meant)
        return error(
          `I don't know \`${truncateToken(head)}\`: did you mean \`/care ${meant}\`? To make a new action of it, type \`/care new ${truncateToken(head)}\`.`,
        );
      return { kind: 'new', task: text, implied: true };
    }
  }
}

/** The sub-commands, for telling a slip ("mien", "hepl") from a task. */
export const SUB_COMMANDS = [
  'help',
  'new',
  'mine',
  'due',
  'show',
  'done',
  'reopen',
  'find',
  'locations',
  'literature',
  'link',
  'unlink',
  'whoami',
  'links',
  'digest',
  'handover',
  'route',
  'routes',
  'summary',
  'reassign',
  'evidence',
  'escalation',
  'shifts',
  'oncall',
  'admins',
  'settings',
  'connect',
] as const;

/**
 * Every first word `/care` reads as a sub-command (the slip targets, their other spellings, and the words a slip is
 * never guessed to: export, forget). Any of them with words after it gets that sub-command's answer, never a new action.
 */
export const COMMAND_WORDS = [...SUB_COMMANDS, 'export', 'forget', 'shift', 'on-call', 'admin', 'setting', 'disconnect', '?'] as const;

/** Edits (insert, delete, change, swap two neighbours) from `a` to `b`. */
function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  return d[a.length]![b.length]!;
}

/** The sub-command a single typed word is one slip away from (two for long words), if any. */
function nearSubCommand(word: string): string | undefined {
  if (word.length < 3) return undefined;
  const allowed = word.length > 6 ? 2 : 1;
  return SUB_COMMANDS.find((c) => editDistance(word, c) <= allowed);
}
