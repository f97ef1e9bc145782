import type { WhereRef } from '../../services/actions/list-where.js';
import type { NameRef } from '../../services/people/workspace-names.js';
import { parseClockTime } from '../../time/clock-time.js';
import { EVERY_SHIFT, storedStartTime } from '../../time/start-time.js';
import { cut } from '../cut.js';

/** The words every `/care` family reads alike: a mention, a channel, a place, a start time. */

// Slack escapes mentions in command text: <@U123|name>, <#C123|name>.
export const USER_MENTION = /^<@([UW][A-Z0-9]+)(?:\|[^>]*)?>$/;
export const CHANNEL_MENTION = /^<#([CGD][A-Z0-9]+)(?:\|[^>]*)?>$/;
/** A channel typed as text: `#care-team` or `care-team` (Slack's names: letters, digits, - _ .). */
export const CHANNEL_NAME = /^#?([\p{L}\p{N}][\p{L}\p{N}_.-]{0,79})$/u;
/** A person typed as text after @ (handles and display names). */
export const AT_NAME = /^@[^\s<>@#]{1,80}$/u;
/** A Slack user Id typed as text (as the ambiguity list shows them). */
export const USER_ID = /^[UW][A-Z0-9]{6,}$/;

export function userMention(token: string | undefined): string | null {
  const m = token ? USER_MENTION.exec(token) : null;
  return m ? m[1]! : null;
}

export function truncateToken(t: string): string {
  return cut(t, 31, { mrkdwn: false });
}

/** `location <name>` or `resident <Id>` (all the words after it), when the words start with one. */
export function whereOf(words: string[]): WhereRef | { error: string } | null {
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

/** A person in a digest's list: a mention, an Id, or the words typed for them (looked up later). */
export function personRef(token: string): NameRef | null {
  const mention = userMention(token);
  if (mention) return { type: 'id', id: mention };
  if (USER_ID.test(token)) return { type: 'id', id: token };
  return null;
}

/** A channel as typed: Slack's mention, `#name` or `name`. */
export function channelRef(token: string | undefined): NameRef | null {
  if (!token) return null;
  const mention = CHANNEL_MENTION.exec(token)?.[1];
  if (mention) return { type: 'id', id: mention };
  const name = CHANNEL_NAME.exec(token)?.[1];
  return name ? { type: 'name', name } : null;
}

/**
 * When a digest or summary goes out, if the words at `i` say so: `shift-start` (or `shift start`): every
 * shift's start; `at <shift name> start`: that shift's start; `at 07:30`: a clock time. Null: not these words.
 */
export function startWords(words: string[], i: number): { time: string; used: number } | { error: string } | null {
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
