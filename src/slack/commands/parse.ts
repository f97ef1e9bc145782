import type { ActionRef } from '../../services/action-model.js';
import type { DigestScope } from '../../services/channel-setup.js';
import type { NameRef } from '../../services/workspace-names.js';
import { parseClockTime } from '../../time/clock-time.js';
import type { DueWindowName } from '../../time/due-windows.js';
import { parseShifts, type Shift } from '../../time/shifts.js';
import { EVERY_SHIFT, storedStartTime } from '../../time/start-time.js';
import { isCareId } from '../ids.js';
import { parseWorkspaceCommand, type WorkspaceCommand } from './workspace-parse.js';

export type Command =
  | { kind: 'help' }
  /** `implied`: the words were no sub-command, so they were read as `/care new …` (Todoist-style); the form says so. */
  | { kind: 'new'; task: string; implied?: boolean }
  | { kind: 'mine' }
  /** `slackUserId` from a mention; `personName` as typed after @ (looked up in the workspace). */
  | { kind: 'due'; window: DueWindowName; slackUserId?: string; personName?: string }
  | { kind: 'show' | 'done' | 'reopen'; ref: ActionRef }
  | { kind: 'find'; words: string }
  | { kind: 'locations' | 'literature'; words: string }
  | { kind: 'link'; target?: { slackUserId: string; careUserId: string }; requestedCareUserId?: string }
  | { kind: 'unlink'; slackUserId?: string }
  | { kind: 'whoami' | 'links' }
  /** `time`: "HH:MM", or a shift start: "shift" (every shift's) or "shift:<name>" (time/start-time.ts). */
  | { kind: 'digest-here'; time: string; days: 'weekdays' | 'daily'; filter: DigestScope; showTasks: boolean; quietWhenEmpty: boolean }
  | { kind: 'digest-off' | 'digest-list' | 'digest-now' }
  | { kind: 'route'; groupName: string; channel: NameRef }
  | { kind: 'route-off'; groupName: string; channelId?: string }
  | { kind: 'routes' }
  | { kind: 'summary-show' | 'summary-off' }
  | { kind: 'summary-set'; time?: string; days?: 'weekdays' | 'daily' }
  | { kind: 'shifts-show' }
  /** null: back to the default shifts. */
  | { kind: 'shifts-set'; shifts: Shift[] | null }
  /** The set-up words (`admins`, `settings`, `connect`): workspace-parse.ts. */
  | { kind: 'workspace'; command: WorkspaceCommand }
  | { kind: 'error'; message: string };

export const USAGE = {
  due: '/care due [today|tomorrow|week|overdue] [@person]',
  show: '/care show <action no or Id>',
  done: '/care done <action no or Id>',
  reopen: '/care reopen <action no or Id>',
  find: '/care find <words>',
  link: '/care link [your care user Id]  (admins: /care link @user <care user Id>)',
  unlink: '/care unlink  (or, admins: /care unlink @user)',
  digest:
    '/care digest here [HH:MM|shift-start|at <shift> start] [daily|weekdays] [mine-only|urgent-only|@person…|location <name>] [--show-tasks] [--quiet]  ·  /care digest off|list|now',
  shifts: '/care shifts  ·  admins: /care shifts Day 07:00-19:00, Night 19:00-07:00  ·  /care shifts default',
  route: '/care route <notification group name> #channel  ·  /care route off <group name>  ·  /care routes',
  summary: '/care summary [HH:MM|shift-start|at <shift> start] [daily|weekdays]  ·  /care summary off  ·  /care summary (your setting)',
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
  const setUp = parseWorkspaceCommand(text);
  if (setUp) return { kind: 'workspace', command: setUp };

  switch (sub) {
    case '':
    case 'help':
      return { kind: 'help' };
    case 'new':
      return { kind: 'new', task: tail };
    case 'mine':
      return rest.length
        ? error('`/care mine` takes nothing after it: type it alone. For one window try `/care due today`; to search, `/care find <words>`.')
        : { kind: 'mine' };
    case 'due':
      return parseDue(rest);
    case 'show':
    case 'done':
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
    case 'whoami':
    case 'links':
    case 'routes':
      return rest.length ? error(`\`/care ${sub}\` takes nothing after it: type it alone.`) : { kind: sub };
    case 'digest':
      return parseDigest(rest);
    case 'route':
      return parseRoute(rest);
    case 'summary':
      return parseSummary(tail);
    case 'shifts':
    case 'shift':
      return parseShiftsCommand(tail);
    case '?':
      return rest.length ? { kind: 'new', task: text, implied: true } : { kind: 'help' };
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
const SUB_COMMANDS = [
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
  'route',
  'routes',
  'summary',
  'shifts',
  'admins',
  'settings',
  'connect',
] as const;

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
  return t.length > 30 ? `${t.slice(0, 30)}…` : t;
}

function parseDue(args: string[]): Command {
  let window: DueWindowName = 'today';
  let slackUserId: string | undefined;
  let personName: string | undefined;
  for (const arg of args) {
    const w = arg.toLowerCase();
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
  return { kind: 'due', window, ...(slackUserId ? { slackUserId } : {}), ...(personName ? { personName } : {}) };
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

const DIGEST_VERBS = 'here, off, list or now';

function parseDigest(args: string[]): Command {
  const [verb, ...opts] = args;
  switch (verb?.toLowerCase()) {
    case 'off':
      return { kind: 'digest-off' };
    case 'list':
      return { kind: 'digest-list' };
    case 'now':
      return { kind: 'digest-now' };
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
    else if (lower === 'location') {
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
