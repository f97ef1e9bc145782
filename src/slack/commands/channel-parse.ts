import type { DigestScope } from '../../services/shift-work/channel-setup.js';
import type { NameRef } from '../../services/people/workspace-names.js';
import { parseClockTime } from '../../time/clock-time.js';
import { isCareId } from '../ids.js';
import { type Command, error, USAGE } from './command.js';
import { CHANNEL_MENTION, channelRef, personRef, startWords, truncateToken } from './words.js';

/** A channel's set-up words of `/care` (admins): `digest`, `handover`, `route`. Pure. */

/** `/care handover here [--show-tasks [--public]]`, `off`, `list`. */
export function parseHandover(args: string[]): Command {
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

export function parseDigest(args: string[]): Command {
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

export function parseRoute(args: string[]): Command {
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
