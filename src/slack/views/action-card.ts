import { slackDate } from '../../time/slack-date.js';
import type { types } from '@slack/bolt';
import { ActionIds, actionBlockId, snoozeOptionValue } from '../ids.js';
import { userText } from '../text.js';
import { actions, button, confirmDialog, linkButton, section, staticSelect, type Block } from './blocks.js';
import { isOverdue, type ActionView, type RenderContext } from '../../services/action-model.js';

export function actionLabel(a: ActionView): string {
  return a.actionNo ? `#${userText(a.actionNo, 30)}` : `Id ${a.id}`;
}

export function assigneeText(a: ActionView): string {
  if (!a.assignee) return 'unassigned';
  if (a.assignee.slackUserId) return `<@${a.assignee.slackUserId}>`;
  return a.assignee.name ? userText(a.assignee.name, 80) : 'someone not linked to Slack';
}

/** Who completed it: a Slack user (completed through Slack), or "in the care system". */
export function completedByText(a: ActionView): string {
  return a.completedBy ? `by <@${a.completedBy.slackUserId}>` : 'in the care system';
}

export function markers(a: ActionView, now: Date): string {
  const m: string[] = [];
  if (a.urgent && !a.completed) m.push(':rotating_light: *Urgent*');
  if (isOverdue(a, now)) m.push(':warning: *Overdue*');
  if (a.completed) m.push(':white_check_mark: *Complete*');
  return m.join('  ');
}

/** One line for lists: markers, action no, due, assignee, and the task where allowed. */
export function actionLine(a: ActionView, ctx: RenderContext): string {
  const due = a.due ? slackDate(a.due, ctx.timezone) : 'no due time';
  const head = [markers(a, ctx.now), `*${actionLabel(a)}*`].filter(Boolean).join(' ');
  const task = ctx.showTask && a.task ? `\n${userText(a.task, 500)}` : '';
  return `${head} · due ${due} · ${assigneeText(a)}${task}`;
}

/** The Snooze menu: quick reschedules (see time/snooze.ts) and a form for any date and time. */
export function snoozeMenu(a: ActionView): types.StaticSelect {
  return staticSelect(ActionIds.snooze, 'Snooze…', [
    { text: '+1 hour', value: snoozeOptionValue('hour', a.id) },
    { text: 'This evening (18:00)', value: snoozeOptionValue('evening', a.id) },
    { text: 'Tomorrow, same time', value: snoozeOptionValue('tomorrow', a.id) },
    { text: 'Next Monday, same time', value: snoozeOptionValue('monday', a.id) },
    { text: 'Pick a date and time…', value: snoozeOptionValue('pick', a.id) },
  ]);
}

/** Asked before a Complete or Reopen on a shared surface (a channel): names the action and its assignee. */
export function confirmChange(a: ActionView, kind: 'complete' | 'reopen'): types.ConfirmationDialog {
  const verb = kind === 'complete' ? 'Complete' : 'Reopen';
  return confirmDialog(
    `${verb} action ${actionLabel(a)}?`,
    `${verb} action *${actionLabel(a)}*, assigned to ${assigneeText(a)}? Everyone in this channel will see that you did.`,
    verb,
  );
}

/** Complete, Edit and Snooze (Reopen and Edit once complete), and a link to the care system when configured. */
export function cardButtons(a: ActionView): Block {
  const elements: types.ActionsBlockElement[] = a.completed
    ? [button('Reopen', ActionIds.reopen, a.id), button('Edit', ActionIds.edit, a.id)]
    : [button('Complete', ActionIds.complete, a.id, 'primary'), button('Edit', ActionIds.edit, a.id), snoozeMenu(a)];
  if (a.careUrl) elements.push(linkButton('Open in care system', ActionIds.openInCare, a.careUrl));
  return actions(actionBlockId('card', a.id), elements);
}

/** The full action card: task, due, markers, assignee, number, state, buttons. */
export function actionCard(a: ActionView, ctx: RenderContext): Block[] {
  const task = ctx.showTask ? (a.task ? userText(a.task, 2800) : '_(no task text)_') : '_Task text hidden in this channel_';
  const state = a.completed ? `Completed ${slackDate(a.completed, ctx.timezone)} ${completedByText(a)}` : 'Open';
  const blocks: Block[] = [section(`${markers(a, ctx.now) ? `${markers(a, ctx.now)}\n` : ''}${task}`, { block_id: actionBlockId('task', a.id) })];
  blocks.push({
    type: 'section',
    block_id: actionBlockId('facts', a.id),
    fields: [
      { type: 'mrkdwn', text: `*Action*\n${actionLabel(a)}` },
      { type: 'mrkdwn', text: `*Due*\n${a.due ? slackDate(a.due, ctx.timezone) : 'not set'}` },
      { type: 'mrkdwn', text: `*Assigned to*\n${assigneeText(a)}` },
      { type: 'mrkdwn', text: `*State*\n${state}` },
    ],
  });
  blocks.push(cardButtons(a));
  return blocks;
}

/** Text for notifications and screen readers (no Block Kit). */
export function actionFallback(a: ActionView, ctx: RenderContext): string {
  const task = ctx.showTask && a.task ? `: ${userText(a.task, 200)}` : '';
  return `Action ${actionLabel(a)}${task}`;
}
