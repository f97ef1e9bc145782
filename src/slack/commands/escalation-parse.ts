/**
 * `/care escalation …`: the escalation ladder's words (admins). Pure; never
 * throws: a wrong argument is one sentence saying what is wrong and what to type.
 */
import {
  ESCALATION_STEPS,
  type EscalationStep,
  MAX_AFTER_MINUTES,
  MAX_REPEAT_MINUTES,
  MAX_REPEAT_TIMES,
  MIN_AFTER_MINUTES,
  MIN_REPEAT_MINUTES,
  MIN_REPEAT_TIMES,
} from '../../services/urgent/escalation-ladder.js';
import type { EscalationChange } from '../../services/urgent/escalation-settings.js';
import type { NameRef } from '../../services/people/workspace-names.js';
import { cut } from '../cut.js';

export type EscalationCommand = { kind: 'show' } | { kind: 'change'; change: EscalationChange };

export const ESCALATION_USAGE =
  '/care escalation  ·  /care escalation after <minutes>  ·  /care escalation followup <minutes>|off  ·  /care escalation steps thread,seniors,managers|off  ·  /care escalation managers #channel  ·  /care escalation seniors <shift> @person…|off  ·  /care escalation repeat <minutes> <times>|off';

/** The words of `/care escalation repeat …` that say what to type. */
export const REPEAT_USAGE = `Repeat the last step every ${MIN_REPEAT_MINUTES}–${MAX_REPEAT_MINUTES} minutes, ${MIN_REPEAT_TIMES}–${MAX_REPEAT_TIMES} times: e.g. \`/care escalation repeat 15 3\`, or \`/care escalation repeat off\`.`;

const USER_MENTION = /^<@([UW][A-Z0-9]+)(?:\|[^>]*)?>$/;
const USER_ID = /^[UW][A-Z0-9]{6,}$/;
const CHANNEL_MENTION = /^<#([CG][A-Z0-9]+)(?:\|[^>]*)?>$/;
const CHANNEL_NAME = /^#?([\p{L}\p{N}][\p{L}\p{N}_.-]{0,79})$/u;

const short = (t: string) => cut(t, 31, { mrkdwn: false });

/** The words after `/care escalation`: the command, or the sentence to answer. */
export function parseEscalation(args: string[]): EscalationCommand | { error: string } {
  const [verb, ...rest] = args;
  switch (verb?.toLowerCase()) {
    case undefined:
      return { kind: 'show' };
    case 'off':
      return rest.length
        ? { error: '`/care escalation off` takes nothing after it: type it alone.' }
        : { kind: 'change', change: { kind: 'steps', steps: [] } };
    case 'after': {
      const raw = rest.join(' ').replace(/\s*(minutes?|mins?|m)$/i, '');
      const minutes = /^\d{1,4}$/.test(raw) ? Number(raw) : Number.NaN;
      if (!Number.isInteger(minutes) || minutes < MIN_AFTER_MINUTES || minutes > MAX_AFTER_MINUTES)
        return {
          error: `Give the minutes between steps as a whole number from ${MIN_AFTER_MINUTES} to ${MAX_AFTER_MINUTES}${raw ? ` (not \`${short(raw)}\`)` : ''}: e.g. \`/care escalation after 15\`.`,
        };
      return { kind: 'change', change: { kind: 'after', minutes } };
    }
    case 'followup':
    case 'follow-up': {
      const raw = rest.join(' ').replace(/\s*(minutes?|mins?|m)$/i, '');
      if (raw.toLowerCase() === 'off') return { kind: 'change', change: { kind: 'followup', minutes: null } };
      const minutes = /^\d{1,4}$/.test(raw) ? Number(raw) : Number.NaN;
      if (!Number.isInteger(minutes) || minutes < MIN_AFTER_MINUTES || minutes > MAX_AFTER_MINUTES)
        return {
          error: `Give the follow-up minutes as a whole number from ${MIN_AFTER_MINUTES} to ${MAX_AFTER_MINUTES}${raw ? ` (not \`${short(raw)}\`)` : ''}, or \`off\`: e.g. \`/care escalation followup 30\`.`,
        };
      return { kind: 'change', change: { kind: 'followup', minutes } };
    }
    case 'steps': {
      const words = rest
        .join(',')
        .split(',')
        .map((w) => w.trim().toLowerCase())
        .filter(Boolean);
      if (words.length === 1 && words[0] === 'off') return { kind: 'change', change: { kind: 'steps', steps: [] } };
      if (!words.length)
        return { error: 'Name the steps in order: e.g. `/care escalation steps thread,seniors,managers` (any of them, in any order), or `off`.' };
      const unknown = words.find((w) => !(ESCALATION_STEPS as readonly string[]).includes(w));
      if (unknown)
        return {
          error: `I don't know the step \`${short(unknown)}\`: the steps are thread, seniors and managers, e.g. \`/care escalation steps thread,managers\`.`,
        };
      if (new Set(words).size !== words.length) return { error: 'Name each step once: e.g. `/care escalation steps thread,seniors,managers`.' };
      return { kind: 'change', change: { kind: 'steps', steps: words as EscalationStep[] } };
    }
    case 'repeat': {
      if (rest.length === 1 && rest[0]!.toLowerCase() === 'off') return { kind: 'change', change: { kind: 'repeat', repeat: null } };
      const [m, t, ...more] = rest.map((w) => w.replace(/^(\d+)(minutes?|mins?|m|times|x)$/i, '$1'));
      const everyMinutes = m && /^\d{1,4}$/.test(m) ? Number(m) : Number.NaN;
      const times = t && /^\d{1,3}$/.test(t) ? Number(t) : Number.NaN;
      if (
        more.length ||
        !(everyMinutes >= MIN_REPEAT_MINUTES && everyMinutes <= MAX_REPEAT_MINUTES) ||
        !(times >= MIN_REPEAT_TIMES && times <= MAX_REPEAT_TIMES)
      )
        return { error: REPEAT_USAGE };
      return { kind: 'change', change: { kind: 'repeat', repeat: { everyMinutes, times } } };
    }
    case 'managers': {
      const token = rest.length === 1 ? rest[0]! : '';
      const mention = CHANNEL_MENTION.exec(token)?.[1];
      const name = mention ? undefined : CHANNEL_NAME.exec(token)?.[1];
      const channel: NameRef | null = mention ? { type: 'id', id: mention } : name ? { type: 'name', name } : null;
      if (!channel) return { error: 'Name one channel for the managers: e.g. `/care escalation managers #managers` (pick it with # from Slack’s list).' };
      return { kind: 'change', change: { kind: 'managers', channel } };
    }
    case 'seniors': {
      const [shift, ...who] = rest;
      if (!shift || shift.startsWith('<') || shift.startsWith('@'))
        return { error: 'Name the shift, then its seniors: e.g. `/care escalation seniors Day @amelia @ben` (`/care escalation` lists the shifts).' };
      if (who.length === 1 && who[0]!.toLowerCase() === 'off') return { kind: 'change', change: { kind: 'seniors', shift, people: [] } };
      if (!who.length)
        return {
          error: `Name the seniors of the ${short(shift)} shift with @: e.g. \`/care escalation seniors ${short(shift)} @amelia\`, or \`off\` to name none.`,
        };
      const people: NameRef[] = [];
      for (const w of who) {
        const mention = USER_MENTION.exec(w)?.[1] ?? (USER_ID.test(w) ? w : undefined);
        if (mention) people.push({ type: 'id', id: mention });
        else if (/^@[^\s<>@#]{1,80}$/u.test(w)) people.push({ type: 'name', name: w });
        else
          return {
            error: `\`${short(w)}\` is not a person: name each senior with @ from Slack’s list, e.g. \`/care escalation seniors ${short(shift)} @amelia @ben\`.`,
          };
      }
      return { kind: 'change', change: { kind: 'seniors', shift, people } };
    }
    default:
      return { error: `I don't know \`/care escalation ${short(verb!)}\`. \`${ESCALATION_USAGE}\`` };
  }
}
