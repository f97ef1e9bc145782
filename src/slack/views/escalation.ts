import type { EscalationInfo, EscalationLine } from '../../services/renderers.js';
import { isOverdue, type ActionView, type RenderContext } from '../../services/action-model.js';
import { slackDate } from '../../time/slack-date.js';
import { actionBlockId, BlockIds, isActionBlock } from '../ids.js';
import { taskText, userText } from '../text.js';
import { actionLabel, assigneeText, cardButtons, takeItButton } from './action-card.js';
import { context, section, type Block } from './blocks.js';
import { urgentAlert } from './notices.js';

const at = (l: EscalationLine, tz: string) => slackDate(l.at, tz, '{time}');

/** One step as the alert shows it. Pure. */
export function escalationLineText(l: EscalationLine, tz: string): string {
  if (l.step === 'thread') return `Reminder sent in thread at ${at(l, tz)}`;
  const to = l.step === 'seniors' ? l.to.map((u) => `<@${u}>`) : l.to.map((c) => `<#${c}>`);
  return `Escalated to ${to.join(', ')} at ${at(l, tz)}`;
}

const idOf = (b: unknown) => (b as { block_id?: unknown })?.block_id;

/**
 * The urgent alert with a context line of the escalation steps taken so far, after its buttons. Given the
 * post's `current` blocks, only that line is replaced or added (everything else stays as Slack holds it);
 * without them (or when they no longer show the alert), the alert is drawn afresh.
 */
export function escalatedAlert(a: ActionView, ctx: RenderContext, lines: EscalationLine[], current?: unknown[]): { text: string; blocks: Block[] } {
  const alert = urgentAlert(a, ctx);
  const line: Block[] = lines.length
    ? [{ ...context(`:bell: ${lines.map((l) => escalationLineText(l, ctx.timezone)).join(' · ')}`), block_id: BlockIds.escalated(a.id) }]
    : [];
  const kept = (current ?? []).filter((b) => idOf(b) !== BlockIds.escalated(a.id)) as Block[];
  const at = kept.findIndex((b) => isActionBlock(idOf(b) as string | undefined, 'alert', a.id));
  if (at < 0) return { text: alert.text, blocks: [...alert.blocks, ...line] };
  const after = at + (isActionBlock(idOf(kept[at + 1]) as string | undefined, 'card', a.id) ? 2 : 1);
  return { text: alert.text, blocks: [...kept.slice(0, after), ...line, ...kept.slice(after)].slice(0, 50) };
}

const minutes = (n: number) => (n === 1 ? '1 minute' : n < 120 ? `${n} minutes` : `${Math.floor(n / 60)} h ${n % 60} min`);

/**
 * What an escalation step posts: in the alert's thread a short reminder; to a
 * senior (DM) or the managers' channel the action's number, due time,
 * location, how long it has gone unanswered, Take it and the link. Task text
 * only where `ctx.showTask` allows; the `text` fallback names no resident and
 * carries no task text.
 */
export function escalationMessage(a: ActionView, ctx: RenderContext, info: EscalationInfo): { text: string; blocks: Block[] } {
  const label = actionLabel(a);
  const waited = minutes(info.unansweredMinutes);
  if (info.step === 'thread') {
    const text = `Reminder: urgent action ${label} has had no answer for ${waited}.`;
    return { text, blocks: [section(`:bell: ${text} Can someone take it? Use *Take it* on the alert above.`)] };
  }
  const text = `Escalated: urgent action ${label}, unanswered for ${waited}`;
  const overdue = isOverdue(a, ctx.now) ? ' · :warning: *Overdue*' : '';
  const where = info.location ? ` · ${userText(info.location, 80)}` : '';
  const task = ctx.showTask && a.task ? `\n${taskText(a.task, 1500)}` : '';
  const why =
    info.step === 'seniors'
      ? 'You are told as a senior on shift: nobody has taken it yet.'
      : 'The managers’ channel is told: nobody has taken it, and the seniors on shift were asked first.';
  const buttons = cardButtons(a, ctx);
  if (!a.completed) buttons.elements.splice(ctx.shared ? 1 : 0, 0, takeItButton(a));
  return {
    text,
    blocks: [
      section(
        `:rotating_light: *Urgent action ${label}* · unanswered for ${waited}${overdue} · due ${a.due ? slackDate(a.due, ctx.timezone) : 'not set'}${where} · ${assigneeText(a)}${task}`,
        { block_id: actionBlockId('alert', a.id) },
      ),
      buttons,
      context(why),
    ],
  };
}
