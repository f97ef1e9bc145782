/**
 * Who's on now: `/care oncall` (a private answer) and its section of the Home
 * tab. The shift on, its seniors and the managers' channel; each open urgent
 * action with who is on it ("@priya on it since 10:04"), or "nobody yet" and
 * how long it has gone unanswered. Task text only when `ctx.showTask` (the
 * person's own private view). Pure.
 */
import type { RenderContext } from '../../services/action-model.js';
import type { OnCallAction, OnCallNow, OnIt } from '../../services/urgent/on-call.js';
import { slackDate } from '../../time/slack-date.js';
import { cut } from '../cut.js';
import { SLACK_LIMITS } from '../limits.js';
import { taskText, userText } from '../text.js';
import { actionLabel } from './action-card.js';
import { context, section, type Block } from './blocks.js';
import { shiftNowLine } from './shifts.js';

const mention = (o: OnIt) => (o.slackUserId ? `<@${o.slackUserId}>` : userText(o.name, 80));

/** "25 minutes", "1 h 5 min". */
export function waitedText(ms: number): string {
  const n = Math.max(0, Math.floor(ms / 60_000));
  return n === 1 ? '1 minute' : n < 120 ? `${n} minutes` : `${Math.floor(n / 60)} h ${n % 60} min`;
}

/** Who is on one action, or nobody yet and for how long. */
export function onItText(a: Pick<OnCallAction, 'onIt' | 'began'>, ctx: Pick<RenderContext, 'now' | 'timezone'>): string {
  if (!a.onIt.length) return `:hourglass_flowing_sand: *nobody yet*, unanswered for ${waitedText(ctx.now.getTime() - a.began.getTime())}`;
  return `:raising_hand: ${a.onIt.map((o) => `${mention(o)} on it since ${slackDate(o.since, ctx.timezone, '{time}')}`).join(', ')}`;
}

/** One open urgent action: its number, due time, who is on it, and its task where allowed. */
export function onCallActionText(a: OnCallAction, ctx: RenderContext): string {
  const v = a.view;
  const due = v.due ? slackDate(v.due, ctx.timezone) : 'no due time';
  const task = ctx.showTask && v.task ? `\n${taskText(v.task, 500)}` : '';
  return cut(
    `:rotating_light: *${actionLabel(v)}* · urgent since ${slackDate(a.began, ctx.timezone, '{time}')} · due ${due} · ${onItText(a, ctx)}${task}`,
    SLACK_LIMITS.sectionText,
  );
}

/** The shift, its seniors and the managers' channel (`withShift` false: the Home tab, whose first line names the shift). */
export function onNowText(n: OnCallNow, withShift = true): string {
  const shift = n.shifts.current.shift.name;
  const seniors = n.seniors.length
    ? n.seniors.map((u) => `<@${u}>`).join(', ')
    : `_none named_ (admins: \`/care escalation seniors ${userText(shift, 24)} @person…\`)`;
  const managers = n.managersChannel ? `<#${n.managersChannel}>` : '_not set_ (admins: `/care escalation managers #channel`)';
  const on = withShift ? `*On now:* ${shiftNowLine(n.shifts)}\n` : '';
  return `${on}*Seniors on the ${userText(shift, 24)} shift:* ${seniors}\n*Managers’ channel:* ${managers}`;
}

const headOf = (n: OnCallNow) =>
  n.actions.length
    ? `*Open urgent actions (${n.actions.length}${n.more ? '+' : ''})*`
    : ':white_check_mark: No open urgent action is waiting: every urgent alert has been answered, completed or made not urgent.';

/** The answer to `/care oncall`: a private message, at most 50 blocks. */
export function onCallMessage(n: OnCallNow, ctx: RenderContext): { text: string; blocks: Block[] } {
  const open = n.actions.length;
  const waiting = n.actions.filter((a) => !a.onIt.length).length;
  const text = `On now: the ${n.shifts.current.shift.name} shift · ${open} open urgent action${open === 1 ? '' : 's'}${open ? `, ${waiting} with nobody on it yet` : ''}`;
  const blocks: Block[] = [section(onNowText(n)), section(headOf(n))];
  for (const a of n.actions.slice(0, SLACK_LIMITS.messageBlocks - 4)) blocks.push(section(onCallActionText(a, ctx)));
  if (n.more) blocks.push(context(`…and ${n.more} more open urgent action${n.more === 1 ? '' : 's'}, alerted earlier.`));
  return { text: cut(text, 3000, { mrkdwn: false }), blocks };
}

/** The Home tab's section: a few blocks, the waiting actions first (at most `max` lines in one section). */
export function onCallHomeBlocks(n: OnCallNow, ctx: RenderContext, max = 5): Block[] {
  const ordered = [...n.actions].sort((x, y) => Number(x.onIt.length > 0) - Number(y.onIt.length > 0));
  const lines = ordered.slice(0, max).map((a) => `• ${onCallActionText(a, { ...ctx, showTask: false })}`);
  const rest = n.actions.length - lines.length + n.more;
  const list = n.actions.length ? `${headOf(n)}\n${lines.join('\n')}${rest > 0 ? `\n…and ${rest} more: \`/care oncall\`` : ''}` : headOf(n);
  return [section(cut(`:busy_in_calendar: ${onNowText(n, false)}`, SLACK_LIMITS.sectionText)), section(cut(list, SLACK_LIMITS.sectionText))];
}
