/**
 * `/care settings safeguarding …`: which action tags and notification groups
 * mean safeguarding, and who the safeguarding officers are (admins). Pure;
 * never throws: a wrong argument is one sentence saying what to type.
 *
 *   /care settings safeguarding                         show
 *   /care settings safeguarding tags <tag Id…>|off      the care system's action tag Ids
 *   /care settings safeguarding groups <name>, <name>|off   notification groups, by name (commas between)
 *   /care settings safeguarding officers @a @b|off      the people named for safeguarding
 *   /care settings safeguarding off                     nothing is safeguarding any more
 */
import type { SafeguardingChange } from '../../services/urgent/safeguarding-settings.js';
import type { NameRef } from '../../services/people/workspace-names.js';
import { cut } from '../cut.js';

export type SafeguardingCommand = { kind: 'show' } | { kind: 'change'; change: SafeguardingChange };

export const SAFEGUARDING_USAGE =
  '/care settings safeguarding  ·  /care settings safeguarding tags <tag Id…>|off  ·  /care settings safeguarding groups <group name>, <group name>|off  ·  /care settings safeguarding officers @person…|off  ·  /care settings safeguarding off';

const USER_MENTION = /^<@([UW][A-Z0-9]+)(?:\|[^>]*)?>$/;
const USER_ID = /^[UW][A-Z0-9]{6,}$/;
const TAG_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

const short = (t: string) => cut(t, 31, { mrkdwn: false });

/** The words after `/care settings safeguarding`: the command, or the sentence to answer. */
export function parseSafeguarding(args: string[]): SafeguardingCommand | { error: string } {
  const [verb, ...rest] = args;
  const off = rest.length === 1 && rest[0]!.toLowerCase() === 'off';
  switch (verb?.toLowerCase()) {
    case undefined:
      return { kind: 'show' };
    case 'off':
      return rest.length ? { error: '`/care settings safeguarding off` takes nothing after it: type it alone.' } : { kind: 'change', change: { kind: 'off' } };
    case 'tags':
    case 'tag': {
      if (off) return { kind: 'change', change: { kind: 'tags', tags: [] } };
      const tags = rest
        .join(' ')
        .split(/[\s,]+/)
        .filter(Boolean);
      if (!tags.length) return { error: 'Name the care system’s action tag Ids: e.g. `/care settings safeguarding tags 5f1a… 5f1b…`, or `off`.' };
      const bad = tags.find((t) => !TAG_ID.test(t));
      if (bad)
        return {
          error: `\`${short(bad)}\` is not an action tag Id: give the Ids as the care system shows them, e.g. \`/care settings safeguarding tags 5f1a…\`.`,
        };
      return { kind: 'change', change: { kind: 'tags', tags: [...new Set(tags)] } };
    }
    case 'groups':
    case 'group': {
      if (off) return { kind: 'change', change: { kind: 'groups', names: [] } };
      const names = rest
        .join(' ')
        .split(',')
        .map((n) => n.trim())
        .filter(Boolean);
      if (!names.length)
        return {
          error: 'Name the notification groups, commas between: e.g. `/care settings safeguarding groups Safeguarding team, Adult safeguarding`, or `off`.',
        };
      return { kind: 'change', change: { kind: 'groups', names: [...new Set(names)] } };
    }
    case 'officers':
    case 'officer': {
      if (off) return { kind: 'change', change: { kind: 'officers', people: [] } };
      if (!rest.length) return { error: 'Name the safeguarding officers with @: e.g. `/care settings safeguarding officers @amelia @ben`, or `off`.' };
      const people: NameRef[] = [];
      for (const w of rest) {
        const mention = USER_MENTION.exec(w)?.[1] ?? (USER_ID.test(w) ? w : undefined);
        if (mention) people.push({ type: 'id', id: mention });
        else if (/^@[^\s<>@#]{1,80}$/u.test(w)) people.push({ type: 'name', name: w });
        else
          return {
            error: `\`${short(w)}\` is not a person: name each officer with @ from Slack’s list, e.g. \`/care settings safeguarding officers @amelia\`.`,
          };
      }
      return { kind: 'change', change: { kind: 'officers', people } };
    }
    default:
      return { error: `I don't know \`/care settings safeguarding ${short(verb!)}\`. \`${SAFEGUARDING_USAGE}\`` };
  }
}
