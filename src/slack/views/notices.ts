import { slackDate } from '../../time/slack-date.js';
import { actionBlockId } from '../ids.js';
import { taskText, userText } from '../text.js';
import { actionLabel, assigneeText, cardButtons, completedByText, takeItButton } from './action-card.js';
import { context, section, type Block } from './blocks.js';
import { offerTakeNote } from './note-menu.js';
import { withAnswerBlocks } from './episode-answers.js';
import { isOverdue, type ActionView, type RenderContext } from '../../services/action-model.js';

/** A completion notice for a notification group member (DM) or a routed channel. */
export function completionNotice(a: ActionView, ctx: RenderContext, groups: string[]): { text: string; blocks: Block[] } {
  const when = a.completed ? slackDate(a.completed, ctx.timezone) : 'just now';
  const task = ctx.showTask && a.task ? `\n>${taskText(a.task, 1500).replace(/\n/g, '\n>')}` : '';
  const text = `Action ${actionLabel(a)} was completed ${completedByText(a)}`;
  const groupText = groups.length
    ? `You are told because of the notification group${groups.length > 1 ? 's' : ''} ${groups.map((g) => `*${userText(g, 80)}*`).join(', ')}.`
    : '';
  return {
    text,
    blocks: [
      section(`:white_check_mark: *${text}* ${when} · assigned to ${assigneeText(a)}${task}`, { block_id: actionBlockId('task', a.id) }),
      cardButtons(a, ctx),
      ...(groupText ? [context(groupText)] : []),
    ],
  };
}

/** "Action #12 that you created was completed by @priya": the creator DM's headline, also when drawn again. */
export function creatorHeadline(a: ActionView, completedBy: string): string {
  return `Action ${actionLabel(a)} that you created was completed ${completedBy}`;
}

/**
 * The DM to whoever created an action through Slack when it is completed (by someone else): who completed it,
 * when, and the action with its buttons. The notification text names no task.
 */
export function creatorNotice(a: ActionView, ctx: RenderContext): { text: string; blocks: Block[] } {
  const when = a.completed ? slackDate(a.completed, ctx.timezone) : 'just now';
  const task = ctx.showTask && a.task ? `\n>${taskText(a.task, 1500).replace(/\n/g, '\n>')}` : '';
  const text = creatorHeadline(a, completedByText(a));
  return {
    text,
    blocks: [
      section(`:white_check_mark: *${text}* ${when} · assigned to ${assigneeText(a)}${task}`, { block_id: actionBlockId('task', a.id) }),
      cardButtons(a, ctx),
      context('You are told because you created it in Slack.'),
    ],
  };
}

/**
 * An urgent alert for a channel subscribed to urgent actions, drawn as the action is now (the alert follows its
 * action: services/notices/post-redraw.ts). Open and urgent: "Urgent action #N", and in a channel (`ctx.shared`) Take it,
 * second after View or Complete. Completed: says so, by whom (a Slack person, or in the care system) and when,
 * without Take it. No longer urgent: says so, without Take it. The assignee and due time are always the current ones.
 * Under it, the answers to its episode (who is on it, who can't) and, while it asks, I'm on it / I can't (issue 33).
 */
export function urgentAlert(a: ActionView, ctx: RenderContext): { text: string; blocks: Block[] } {
  return withAnswerBlocks(urgentAlertCard(a, ctx), a, ctx);
}

function urgentAlertCard(a: ActionView, ctx: RenderContext): { text: string; blocks: Block[] } {
  const buttons = cardButtons(a, ctx);
  const task = ctx.showTask && a.task ? `\n${taskText(a.task, 1500)}` : '';
  const due = `due ${a.due ? slackDate(a.due, ctx.timezone) : 'not set'}`;
  const block = { block_id: actionBlockId('alert', a.id) };
  if (a.completed) {
    const text = `Urgent action ${actionLabel(a)} was completed ${completedByText(a)}`;
    return {
      text,
      blocks: [section(`:white_check_mark: *${text}* ${slackDate(a.completed, ctx.timezone)} · ${due} · ${assigneeText(a)}${task}`, block), buttons],
    };
  }
  if (!a.urgent) {
    const text = `Action ${actionLabel(a)} is no longer urgent`;
    return { text, blocks: [section(`:information_source: *${text}* · ${due} · ${assigneeText(a)}${task}`, block), buttons] };
  }
  if (ctx.shared) offerTakeNote(buttons, a).elements.splice(1, 0, takeItButton(a));
  const text = `Urgent action ${actionLabel(a)}`;
  // Overdue is said as in digests and cards: an urgent action past its time is the one to take first.
  const overdue = isOverdue(a, ctx.now) ? ' · :warning: *Overdue*' : '';
  return {
    text,
    blocks: [section(`:rotating_light: *${text}*${overdue} · ${due} · ${assigneeText(a)}${task}`, block), buttons],
  };
}
