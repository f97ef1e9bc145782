import { slackDate } from '../../time/slack-date.js';
import type { types } from '@slack/bolt';
import { ActionIds, actionBlockId, snoozeOptionValue } from '../ids.js';
import { taskText, userText } from '../text.js';
import { actions, button, confirmDialog, linkButton, section, staticSelect, type Block } from './blocks.js';
import { isOverdue, type ActionView, type RenderContext } from '../../services/action-model.js';
import { noteMenu } from './note-menu.js';

export function actionLabel(a: ActionView): string {
  return a.actionNo ? `#${userText(a.actionNo, 30)}` : `Id ${a.id}`;
}

export function assigneeText(a: ActionView): string {
  if (!a.assignee) return 'unassigned';
  if (a.assignee.slackUserId) return `<@${a.assignee.slackUserId}>`;
  return a.assignee.name ? userText(a.assignee.name, 80) : 'someone not linked to Slack';
}

/** The action's number (or Id) as plain text: for confirmation dialogs, which show no markup. */
export function plainLabel(a: ActionView): string {
  return a.actionNo ? `#${a.actionNo}` : `Id ${a.id}`;
}

/** The assignee by name, as plain text (no mention): the Slack name when linked, else the care user's name. */
export function assigneeName(a: ActionView): string {
  if (!a.assignee) return 'nobody';
  return (
    a.assignee.slackName ?? a.assignee.name ?? (a.assignee.slackUserId ? 'a linked colleague whose name Slack did not give' : 'someone not linked to Slack')
  );
}

/**
 * Who completed it: a Slack user (completed through Slack); "by the care system" for an action the care
 * system generated (it completes those itself when their stage is reached); otherwise "in the care system"
 * (someone in its web app).
 */
export function completedByText(a: ActionView): string {
  return a.completedBy ? `by <@${a.completedBy.slackUserId}>` : a.generated ? 'by the care system' : 'in the care system';
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
  const task = ctx.showTask && a.task ? `\n${taskText(a.task, 500)}` : '';
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

/** Asked before a Complete or Reopen on a shared surface (a channel): names the action and its assignee, in plain text. */
export function confirmChange(a: ActionView, kind: 'complete' | 'reopen'): types.ConfirmationDialog {
  const verb = kind === 'complete' ? 'Complete' : 'Reopen';
  const who = a.assignee ? `assigned to ${assigneeName(a)}` : 'assigned to nobody';
  return confirmDialog(`${verb} action ${plainLabel(a)}?`, `${verb} action ${plainLabel(a)}, ${who}? Everyone in this channel will see that you did.`, verb);
}

/** Asked before Take it on an action someone else is assigned: names them, in plain text (none for an unassigned action). */
export function confirmTake(a: ActionView): types.ConfirmationDialog | undefined {
  if (!a.assignee) return undefined;
  return confirmDialog(
    `Take action ${plainLabel(a)}?`,
    `Action ${plainLabel(a)} is assigned to ${assigneeName(a)}. Assign it to yourself instead? They will be told.`,
    'Take it',
  );
}

/** View: the full card, shown to the clicker only (for posts where the task text is hidden). Value: the action Id. */
export function viewButton(a: ActionView): types.Button {
  return button('View', ActionIds.view, a.id);
}

/** History: the action's life, in a modal for the clicker only. Value: the action Id. */
export function historyButton(a: ActionView): types.Button {
  return button('History', ActionIds.history, a.id);
}

/** Take it: assign the action to the clicker (asks first when someone else has it). Value: the action Id. */
export function takeItButton(a: ActionView): types.Button {
  return button('Take it', ActionIds.takeIt, a.id, undefined, confirmTake(a));
}

/** Complete (Reopen once complete), asking first on a shared surface. Value: the action Id. */
export function completeOrReopenButton(a: ActionView, shared = false): types.Button {
  return a.completed
    ? button('Reopen', ActionIds.reopen, a.id, undefined, shared ? confirmChange(a, 'reopen') : undefined)
    : button('Complete', ActionIds.complete, a.id, 'primary', shared ? confirmChange(a, 'complete') : undefined);
}

/** Where buttons are shown: a shared surface (a channel post), and whether task text is shown there. */
export interface ButtonPlace {
  shared?: boolean | undefined;
  showTask?: boolean | undefined;
}

/** A shared post whose task text is hidden: View instead of Complete, Reopen, Edit and Snooze. */
export const viewOnly = (place: ButtonPlace): boolean => Boolean(place.shared) && place.showTask === false;

/**
 * Complete, Edit and Snooze (Reopen and Edit once complete), History, and a link
 * to the care system when configured. On a shared surface Complete and Reopen ask
 * first; where the task text is hidden there, View takes their place (the card View
 * shows has History).
 */
export function cardButtons(a: ActionView, place: ButtonPlace = {}): types.ActionsBlock {
  const shared = Boolean(place.shared);
  const elements: types.ActionsBlockElement[] = viewOnly(place)
    ? [viewButton(a)]
    : a.completed
      ? [completeOrReopenButton(a, shared), button('Edit', ActionIds.edit, a.id)]
      : [completeOrReopenButton(a, shared), button('Edit', ActionIds.edit, a.id), snoozeMenu(a)];
  if (!viewOnly(place)) elements.push(historyButton(a));
  if (a.careUrl) elements.push(linkButton('Open in care system', ActionIds.openInCare, a.careUrl));
  // The "⋯" menu: Complete with note… (note-menu.ts); Complete itself stays one click.
  if (!viewOnly(place) && !a.completed) elements.push(noteMenu(a));
  return actions(actionBlockId('card', a.id), elements);
}

/** The full action card: task, due, markers, assignee, number, state, buttons. */
export function actionCard(a: ActionView, ctx: RenderContext): Block[] {
  const task = ctx.showTask ? (a.task ? taskText(a.task, 2800) : '_(no task text)_') : '_Task text hidden in this channel_';
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
  blocks.push(cardButtons(a, ctx));
  return blocks;
}

/** Text for notifications and screen readers (no Block Kit). */
export function actionFallback(a: ActionView, _ctx?: RenderContext): string {
  // A message's `text` is what a locked phone and notifications show: its number only, never the task (its blocks may carry it).
  return `Action ${actionLabel(a)}`;
}
