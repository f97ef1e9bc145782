import { slackDate } from '../../time/slack-date.js';
import { actionBlockId } from '../ids.js';
import { taskText, userText } from '../text.js';
import { actionLabel, assigneeText, cardButtons, completedByText, takeItButton } from './action-card.js';
import { context, section, type Block } from './blocks.js';
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

/**
 * The DM to whoever created an action through Slack when it is completed (by someone else): who completed it,
 * when, and the action with its buttons. The notification text names no task.
 */
export function creatorNotice(a: ActionView, ctx: RenderContext): { text: string; blocks: Block[] } {
  const when = a.completed ? slackDate(a.completed, ctx.timezone) : 'just now';
  const task = ctx.showTask && a.task ? `\n>${taskText(a.task, 1500).replace(/\n/g, '\n>')}` : '';
  const text = `Action ${actionLabel(a)} that you created was completed ${completedByText(a)}`;
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
 * A live urgent alert for a channel subscribed to urgent actions. In a channel
 * (`ctx.shared`) an open action also offers Take it, second after View or Complete.
 */
export function urgentAlert(a: ActionView, ctx: RenderContext): { text: string; blocks: Block[] } {
  const buttons = cardButtons(a, ctx);
  if (ctx.shared && !a.completed) buttons.elements.splice(1, 0, takeItButton(a));
  const task = ctx.showTask && a.task ? `\n${taskText(a.task, 1500)}` : '';
  const text = `Urgent action ${actionLabel(a)}`;
  // Overdue is said as in digests and cards: an urgent action past its time is the one to take first.
  const overdue = isOverdue(a, ctx.now) ? ' · :warning: *Overdue*' : '';
  return {
    text,
    blocks: [
      section(`:rotating_light: *${text}*${overdue} · due ${a.due ? slackDate(a.due, ctx.timezone) : 'not set'} · ${assigneeText(a)}${task}`, {
        block_id: actionBlockId('alert', a.id),
      }),
      buttons,
    ],
  };
}
