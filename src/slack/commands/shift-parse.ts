import { parseClockTime } from '../../time/clock-time.js';
import { parseShifts } from '../../time/shifts.js';
import { type Command, error, USAGE } from './command.js';
import { startWords, truncateToken } from './words.js';

/** A person's and a home's shift words of `/care`: `shifts` and `summary`. Pure. */

/** `/care shifts` (show), `/care shifts default`, `/care shifts Day 07:00-19:00, Night 19:00-07:00` (admins). */
export function parseShiftsCommand(tail: string): Command {
  if (!tail || /^(show|list)$/i.test(tail)) return { kind: 'shifts-show' };
  if (/^(default|reset)$/i.test(tail)) return { kind: 'shifts-set', shifts: null };
  const parsed = parseShifts(tail);
  // parseShifts's sentence is the answer (with an example to type when it has none).
  if ('error' in parsed)
    return error(parsed.error.includes('e.g.') ? parsed.error : `${parsed.error} E.g. \`/care shifts Day 07:00-19:00, Night 19:00-07:00\`.`);
  return { kind: 'shifts-set', shifts: parsed.shifts };
}

/** `/care summary [time] [daily|weekdays]`, `/care summary on|off`; alone: show the setting. */
export function parseSummary(tail: string): Command {
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
