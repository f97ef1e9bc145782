import type { ActionRef } from '../../services/action-model.js';
import type { DigestScope } from '../../services/shift-work/channel-setup.js';
import type { WhereRef } from '../../services/actions/list-where.js';
import type { PersonRef, ReassignScope } from '../../services/reassign/reassign.js';
import type { NameRef } from '../../services/people/workspace-names.js';
import { parseClockTime } from '../../time/clock-time.js';
import type { DueWindowName } from '../../time/due-windows.js';
import { parseShifts, type Shift } from '../../time/shifts.js';
import { EVERY_SHIFT, storedStartTime } from '../../time/start-time.js';
import { isCareId } from '../ids.js';
import { parseWorkspaceCommand, type WorkspaceCommand } from './workspace-parse.js';
import { parseEscalation, type EscalationCommand } from './escalation-parse.js';
import { parseSafeguarding, type SafeguardingCommand } from './safeguarding-parse.js';
import { parseTwoStaff, type TwoStaffCommand } from './two-staff-parse.js';
import { cut } from '../cut.js';
import { parseDone } from './done-note.js';

export type Command =
  | { kind: 'help' }
  /** `implied`: the words were no sub-command, so they were read as `/care new …` (Todoist-style); the form says so. */
  | { kind: 'new'; task: string; implied?: boolean }
  /** `where`: only one location's or one resident's (`location <name>`, `resident <Id>`). */
  | { kind: 'mine'; where?: WhereRef }
  /** `slackUserId` from a mention; `personName` as typed after @ (looked up in the workspace). */
  | { kind: 'due'; window: DueWindowName; slackUserId?: string; personName?: string; where?: WhereRef }
  /** `note`: `/care done 301 <note words>` (done-note.ts). */
  | { kind: 'show' | 'done' | 'reopen'; ref: ActionRef; note?: string }
  | { kind: 'find'; words: string }
  | { kind: 'locations' | 'literature'; words: string }
  | { kind: 'link'; target?: { slackUserId: string; careUserId: string }; requestedCareUserId?: string }
  | { kind: 'unlink'; slackUserId?: string }
  | { kind: 'whoami' | 'links' }
  /** `time`: "HH:MM", or a shift start: "shift" (every shift's) or "shift:<name>" (time/start-time.ts). */
  | { kind: 'digest-here'; time: string; days: 'weekdays' | 'daily'; filter: DigestScope; showTasks: boolean; quietWhenEmpty: boolean }
  | { kind: 'digest-off' | 'digest-list' | 'digest-now' }
  /** `publicConfirmed`: `--public`, the second step for task text in a public channel. */
  | { kind: 'handover-here'; showTasks: boolean; publicConfirmed: boolean }
  | { kind: 'handover-off' | 'handover-list' }
  | { kind: 'route'; groupName: string; channel: NameRef }
  | { kind: 'route-off'; groupName: string; channelId?: string }
  | { kind: 'routes' }
  | { kind: 'summary-show' | 'summary-off' }
  | { kind: 'summary-set'; time?: string; days?: 'weekdays' | 'daily' }
  /** Admins: move someone's open work to someone else (`scope` default all). */
  | { kind: 'reassign'; from: PersonRef; to: PersonRef; scope: ReassignScope }
  /** Admins: the evidence export (dates as typed, checked by the service: services/evidence/evidence-range.ts). */
  | { kind: 'evidence'; from?: string; to?: string; location?: string; withTasks: boolean }
  | { kind: 'shifts-show' }
  /** Who's on now: the shift, its seniors, the managers' channel and the open urgent actions (anyone linked). */
  | { kind: 'oncall' }
  /** null: back to the default shifts. */
  | { kind: 'shifts-set'; shifts: Shift[] | null }
  /** The set-up words (`admins`, `settings`, `connect`): workspace-parse.ts. */
  | { kind: 'workspace'; command: WorkspaceCommand }
  /** `/care escalation …` (admins): escalation-parse.ts. */
  | { kind: 'escalation'; command: EscalationCommand }
  /** `/care settings safeguarding …` (admins): safeguarding-parse.ts. */
  | { kind: 'safeguarding'; command: SafeguardingCommand }
  /** `/care settings two-staff …` (admins) and `/care two-staff <no> on|off`: two-staff-parse.ts. */
  | { kind: 'two-staff'; command: TwoStaffCommand }
  /** Admins: a person's data sent to them as a file (`export`), or erased after a confirmation (`forget`). */
  | { kind: 'person-export' | 'person-forget'; slackUserId: string }
  | { kind: 'error'; message: string };

export const USAGE = {
  due: '/care due [today|tomorrow|week|overdue] [@person] [location <name>|resident <Id>]',
  mine: '/care mine [location <name>|resident <Id>]',
  show: '/care show <action no or Id>',
  done: '/care done <action no or Id> [note]',
  reopen: '/care reopen <action no or Id>',
  find: '/care find <words>',
  link: '/care link [your care user Id]  (admins: /care link @user <care user Id>)',
  unlink: '/care unlink  (or, admins: /care unlink @user)',
  digest:
    '/care digest here [HH:MM|shift-start|at <shift> start] [daily|weekdays] [mine-only|urgent-only|@person…|location <name>|resident <Id>] [--show-tasks] [--quiet]  ·  /care digest off|list|now',
  shifts: '/care shifts  ·  admins: /care shifts Day 07:00-19:00, Night 19:00-07:00  ·  /care shifts default',
  route: '/care route <notification group name> #channel  ·  /care route off <group name>  ·  /care routes',
  summary: '/care summary [HH:MM|shift-start|at <shift> start] [daily|weekdays]  ·  /care summary off  ·  /care summary (your setting)',
  reassign: '/care reassign @person to @other [overdue|today|all]',
  handover: '/care handover here [--show-tasks [--public]]  ·  /care handover off|list',
  export: '/care export @person  (admins: everything the app holds about them, as a file)',
  forget: '/care forget @person  (admins: erase what the app holds about them, after a confirmation)',
  evidence: '/care evidence [from YYYY-MM-DD] [to YYYY-MM-DD] [location <name>] [--with-tasks]',
} as const;

const ACTION_NO = /^#?([A-Za-z0-9][A-Za-z0-9-]{0,23})$/;
// Slack escapes mentions in command text: <@U123|name>, <#C123|name>.
const USER_MENTION = /^<@([UW][A-Z0-9]+)(?:\|[^>]*)?>$/;
const CHANNEL_MENTION = /^<#([CGD][A-Z0-9]+)(?:\|[^>]*)?>$/;
/** A channel typed as text: `#care-team` or `care-team` (Slack's names: letters, digits, - _ .). */
const CHANNEL_NAME = /^#?([\p{L}\p{N}][\p{L}\p{N}_.-]{0,79})$/u;
/** A person typed as text after @ (handles and display names). */
const AT_NAME = /^@[^\s<>@#]{1,80}$/u;
/** A Slack user Id typed as text (as the ambiguity list shows them). */
const USER_ID = /^[UW][A-Z0-9]{6,}$/;
const WINDOWS = 'today, tomorrow, week (the next 7 days) or overdue';
const MAX_TEXT = 4000;

const error = (message: string): Command => ({ kind: 'error', message });

export function parseActionRef(raw: string | undefined): ActionRef | null {
  if (!raw) return null;
  const s = raw.trim();
  if (isCareId(s.toLowerCase())) return { type: 'id', id: s.toLowerCase() };
  const m = ACTION_NO.exec(s);
  return m ? { type: 'no', no: m[1]! } : null;
}

function userMention(token: string | undefined): string | null {
  const m = token ? USER_MENTION.exec(token) : null;
  return m ? m[1]! : null;
}

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

function truncateToken(t: string): string {
  return cut(t, 31, { mrkdwn: false });
}

/** `location <name>` or `resident <Id>` (all the words after it), when the words start with one. */
function whereOf(words: string[]): WhereRef | { error: string } | null {
  const [head, ...rest] = words;
  const kind = head?.toLowerCase();
  if (kind !== 'location' && kind !== 'resident') return null;
  const name = rest.join(' ').trim();
  if (kind === 'location')
    return name
      ? { type: 'location', name }
      : { error: 'Name the location after `location`, e.g. `/care mine location Rose House`; `/care locations` lists them.' };
  return name
    ? { type: 'resident', ref: name }
    : { error: 'Give the resident’s Id after `resident`: the 24 letters and digits on their page in the care system.' };
}

function parseDue(args: string[]): Command {
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

function parseLink(args: string[]): Command {
  if (args.length === 0) return { kind: 'link' };
  if (args.length === 1 && isCareId(args[0]!.toLowerCase())) return { kind: 'link', requestedCareUserId: args[0]!.toLowerCase() };
  const slackUserId = userMention(args[0]);
  const careUserId = args[1]?.toLowerCase();
  if (args.length === 2 && slackUserId && careUserId && isCareId(careUserId)) return { kind: 'link', target: { slackUserId, careUserId } };
  return error(
    `\`${USAGE.link}\`. A care user Id is 24 letters and digits, from the care system's user page; without one, \`/care link\` alone asks an admin.`,
  );
}

/** A person in a digest's list: a mention, an Id, or the words typed for them (looked up later). */
function personRef(token: string): NameRef | null {
  const mention = userMention(token);
  if (mention) return { type: 'id', id: mention };
  if (USER_ID.test(token)) return { type: 'id', id: token };
  return null;
}

/** `/care handover here [--show-tasks [--public]]`, `off`, `list`. */
function parseHandover(args: string[]): Command {
  const [verb, ...opts] = args;
  const v = verb?.toLowerCase();
  if (v === 'off' || v === 'list') {
    return opts.length ? error(`\`/care handover ${v}\` takes nothing after it: type it alone.`) : { kind: v === 'off' ? 'handover-off' : 'handover-list' };
  }
  if (v !== 'here')
    return error(
      `${verb ? `I don't know \`/care handover ${truncateToken(verb)}\`` : '`/care handover` needs a word after it'}: it takes here, off or list. Type \`/care handover here\` in the channel the shifts hand over in.`,
    );
  let showTasks = false;
  let publicConfirmed = false;
  for (const o of opts) {
    const flag = o.toLowerCase();
    if (flag === '--show-tasks') showTasks = true;
    else if (flag === '--public') publicConfirmed = true;
    else return error(`I don't know \`${truncateToken(o)}\` here: the flags are --show-tasks and --public. \`${USAGE.handover}\``);
  }
  if (publicConfirmed && !showTasks) return error('`--public` goes with `--show-tasks`: `/care handover here --show-tasks --public`.');
  return { kind: 'handover-here', showTasks, publicConfirmed };
}

const DIGEST_VERBS = 'here, off, list or now';

function parseDigest(args: string[]): Command {
  const [verb, ...opts] = args;
  const alone = (v: 'off' | 'list' | 'now'): Command =>
    opts.length ? error(`\`/care digest ${v}\` takes nothing after it: type it alone.`) : { kind: `digest-${v}` };
  switch (verb?.toLowerCase()) {
    case 'off':
    case 'list':
    case 'now':
      return alone(verb!.toLowerCase() as 'off' | 'list' | 'now');
    case 'here':
      break;
    default:
      return error(
        `${verb ? `I don't know \`/care digest ${truncateToken(verb)}\`` : '`/care digest` needs a word after it'}: it takes ${DIGEST_VERBS}. Start with \`/care digest here\` (08:00 every day) in the channel.`,
      );
  }
  let time = '08:00';
  // A care home works every day: weekdays only when asked.
  let days: 'weekdays' | 'daily' = 'daily';
  let filter: DigestScope = { type: 'all' };
  let showTasks = false;
  let quietWhenEmpty = false;
  const people: NameRef[] = [];
  // Words that are no option name a person ("Priya Sharma", "@priya"); a comma or an @ starts the next one.
  let words: string[] = [];
  const endName = () => {
    if (words.length) people.push({ type: 'name', name: words.join(' ') });
    words = [];
  };
  for (let i = 0; i < opts.length; i++) {
    const o = opts[i]!;
    const lower = o.toLowerCase();
    const start = startWords(opts, i);
    if (start) {
      if ('error' in start) return error(`${start.error} e.g. \`/care digest here shift-start\` or \`/care digest here at Day start\`.`);
      time = start.time;
      i += start.used - 1;
    } else if (parseClockTime(o)) time = parseClockTime(o)!;
    else if (/^\d+([:.]\d+)?\s*([ap]\.?m\.?)?$/i.test(o))
      return error(`\`${truncateToken(o)}\` is not a time I can use: give it as HH:MM (24-hour) or like 7am, e.g. \`/care digest here 07:30\`.`);
    else if (lower === 'weekdays' || lower === 'daily') days = lower;
    else if (lower === 'mine-only' || lower === 'urgent-only') filter = { type: lower };
    else if (lower === '--show-tasks') showTasks = true;
    else if (lower === '--quiet') quietWhenEmpty = true;
    else if (lower === 'resident') {
      const id = opts[i + 1]?.toLowerCase() ?? '';
      if (!isCareId(id))
        return error(
          'Give the resident’s Id after `resident`: the 24 letters and digits on their page in the care system (I cannot look residents up by name), e.g. `/care digest here resident 0123456789abcdef01234567`.',
        );
      filter = { type: 'resident', id };
      i++;
    } else if (lower === 'location') {
      const name = opts
        .slice(i + 1)
        .filter((w) => !w.startsWith('--'))
        .join(' ');
      if (!name) return error('Name the location: `/care digest here location <name>`; `/care locations` lists them.');
      filter = { type: 'location', name };
      showTasks = showTasks || opts.slice(i + 1).some((w) => w.toLowerCase() === '--show-tasks');
      quietWhenEmpty = quietWhenEmpty || opts.slice(i + 1).some((w) => w.toLowerCase() === '--quiet');
      break;
    } else if (personRef(o)) {
      endName();
      people.push(personRef(o)!);
    } else if (o.startsWith('--')) return error(`I don't know \`${truncateToken(o)}\`: the flags are --show-tasks and --quiet. \`${USAGE.digest}\``);
    else if (o.includes('<') || o.includes('>') || /^#/.test(o))
      return error(`I did not understand \`${truncateToken(o)}\` here: name people with @, e.g. \`/care digest here @priya\`. \`${USAGE.digest}\``);
    else {
      if (o.startsWith('@')) endName();
      const word = o.replace(/,+$/, '');
      if (word && word !== '@') words.push(word);
      if (o.endsWith(',')) endName();
    }
  }
  endName();
  if (people.length) filter = { type: 'users', people };
  return { kind: 'digest-here', time, days, filter, showTasks, quietWhenEmpty };
}

/** A channel as typed: Slack's mention, `#name` or `name`. */
function channelRef(token: string | undefined): NameRef | null {
  if (!token) return null;
  const mention = CHANNEL_MENTION.exec(token)?.[1];
  if (mention) return { type: 'id', id: mention };
  const name = CHANNEL_NAME.exec(token)?.[1];
  return name ? { type: 'name', name } : null;
}

function parseRoute(args: string[]): Command {
  if (args[0]?.toLowerCase() === 'off') {
    const rest = args.slice(1);
    const last = rest.at(-1);
    const mention = last ? CHANNEL_MENTION.exec(last)?.[1] : undefined;
    // A channel after the group is optional here: only a mention or a #name is taken as one.
    const hasChannel = Boolean(mention || last?.startsWith('#'));
    const groupName = (hasChannel ? rest.slice(0, -1) : rest).join(' ');
    if (!groupName) return error('Name the group to stop routing: `/care route off <group name>`; `/care routes` lists the routes.');
    return mention ? { kind: 'route-off', groupName, channelId: mention } : { kind: 'route-off', groupName };
  }
  const channel = args.length >= 2 ? channelRef(args.at(-1)) : null;
  const groupName = args.slice(0, -1).join(' ');
  if (!channel || !groupName)
    return error(`Name the notification group, then the channel last: e.g. \`/care route Home managers #care-team\`. \`/care routes\` shows the routes set.`);
  return { kind: 'route', groupName, channel };
}

/**
 * When a digest or summary goes out, if the words at `i` say so: `shift-start` (or `shift start`): every
 * shift's start; `at <shift name> start`: that shift's start; `at 07:30`: a clock time. Null: not these words.
 */
function startWords(words: string[], i: number): { time: string; used: number } | { error: string } | null {
  const lower = words[i]!.toLowerCase();
  if (lower === 'shift-start' || lower === 'shift-starts') return { time: EVERY_SHIFT, used: 1 };
  if ((lower === 'shift' || lower === 'shifts') && words[i + 1]?.toLowerCase() === 'start') return { time: EVERY_SHIFT, used: 2 };
  if (lower !== 'at') return null;
  const clock = words[i + 1] ? parseClockTime(words[i + 1]!) : null;
  if (clock) return { time: clock, used: 2 };
  const end = words.findIndex((w, j) => j > i && /^start$/i.test(w));
  let name = end > i + 1 && end <= i + 4 ? words.slice(i + 1, end) : [];
  if (name.length > 1 && name.at(-1)!.toLowerCase() === 'shift') name = name.slice(0, -1);
  if (!name.length) return { error: 'After `at` give a time or a shift’s name and `start`:' };
  if (name.length === 1 && /^(each|every|the)$/i.test(name[0]!)) return { time: EVERY_SHIFT, used: end - i + 1 };
  if (/^(each|every)$/i.test(name[0]!) && name[1]?.toLowerCase() === 'shift') return { time: EVERY_SHIFT, used: end - i + 1 };
  return { time: storedStartTime({ type: 'shift', name: name.join(' ') }), used: end - i + 1 };
}

/** `/care shifts` (show), `/care shifts default`, `/care shifts Day 07:00-19:00, Night 19:00-07:00` (admins). */
function parseShiftsCommand(tail: string): Command {
  if (!tail || /^(show|list)$/i.test(tail)) return { kind: 'shifts-show' };
  if (/^(default|reset)$/i.test(tail)) return { kind: 'shifts-set', shifts: null };
  const parsed = parseShifts(tail);
  // parseShifts's sentence is the answer (with an example to type when it has none).
  if ('error' in parsed)
    return error(parsed.error.includes('e.g.') ? parsed.error : `${parsed.error} E.g. \`/care shifts Day 07:00-19:00, Night 19:00-07:00\`.`);
  return { kind: 'shifts-set', shifts: parsed.shifts };
}

/** `/care summary [time] [daily|weekdays]`, `/care summary on|off`; alone: show the setting. */
function parseSummary(tail: string): Command {
  // "7 am" is one time, not two words.
  const args = tail
    .replace(/(\d)\s+([ap]\.?m\.?)(?=\s|$)/gi, '$1$2')
    .split(/\s+/)
    .filter(Boolean);
  if (args.length === 0) return { kind: 'summary-show' };
  const first = args[0]!.toLowerCase();
  if (args.length === 1 && first === 'off') return { kind: 'summary-off' };
  const change: { time?: string; days?: 'weekdays' | 'daily' } = {};
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const lower = arg.toLowerCase();
    const time = parseClockTime(arg);
    if (i === 0 && lower === 'on') continue;
    const start = change.time ? null : startWords(args, i);
    if (start) {
      if ('error' in start) return error(`${start.error} e.g. \`/care summary shift-start\` or \`/care summary at Day start\`.`);
      change.time = start.time;
      i += start.used - 1;
    } else if (time && !change.time) change.time = time;
    else if ((lower === 'weekdays' || lower === 'daily') && !change.days) change.days = lower;
    else return error(`I did not understand \`${truncateToken(arg)}\` (a time is 24-hour, like 07:30, or 7am): \`${USAGE.summary}\``);
  }
  return { kind: 'summary-set', ...change };
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
function parseReassign(args: string[]): Command {
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

const DATE_LIKE = /^\d{1,4}[-/.]\d{1,2}[-/.]\d{1,4}$/;

/** `/care evidence [from DATE] [to DATE] [location <name>] [--with-tasks]`, in any order. */
function parseEvidence(args: string[]): Command {
  const out: { from?: string; to?: string; location?: string; withTasks: boolean } = { withTasks: false };
  const usage = `\`${USAGE.evidence}\``;
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!;
    const lower = word.toLowerCase();
    if (lower === '--with-tasks') out.withTasks = true;
    else if (lower === 'from' || lower === 'to') {
      const value = args[i + 1];
      if (value === undefined || value.startsWith('--')) return error(`Give a date after \`${lower}\`, as YYYY-MM-DD: ${usage}`);
      if (out[lower] !== undefined) return error(`\`${lower}\` is given twice: give one date for each end of the range. ${usage}`);
      out[lower] = value;
      i += 1;
    } else if (lower === 'location') {
      // The name runs to the next option (`from`/`to` with a date, or a --flag).
      const words: string[] = [];
      while (i + 1 < args.length) {
        const next = args[i + 1]!;
        const nextLower = next.toLowerCase();
        if (next.startsWith('--') || ((nextLower === 'from' || nextLower === 'to') && DATE_LIKE.test(args[i + 2] ?? ''))) break;
        words.push(next);
        i += 1;
      }
      if (words.length === 0) return error(`Name the location after \`location\`; \`/care locations\` lists them. ${usage}`);
      out.location = words.join(' ');
    } else if (lower.startsWith('--')) return error(`I don't know \`${truncateToken(word)}\`: the one flag is --with-tasks. ${usage}`);
    else if (DATE_LIKE.test(word))
      return error(`Say which end of the range \`${truncateToken(word)}\` is: \`from ${truncateToken(word)}\` or \`to ${truncateToken(word)}\`. ${usage}`);
    else return error(`I did not understand \`${truncateToken(word)}\` here: ${usage}`);
  }
  return { kind: 'evidence', ...out };
}
