import type { ActionView, RenderContext } from '../../services/action-model.js';
import type { AlertState, EscalationInfo } from '../../services/renderers.js';
import { slackDate } from '../../time/slack-date.js';
import { actionBlockId } from '../ids.js';
import { taskText } from '../text.js';
import { actionLabel, assigneeText, cardButtons, completedByText } from './action-card.js';
import { section, type Block } from './blocks.js';
import { withAnswerBlocks } from './episode-answers.js';
import { escalationMessage } from './escalation.js';

/** What an escalation post says of its alert's end, or null while the alert still stands. Pure. */
export function alertEndText(a: ActionView, state: AlertState): { emoji: string; text: string } | null {
  const label = actionLabel(a);
  if (state === 'completed') return { emoji: ':white_check_mark:', text: `Urgent action ${label} was completed ${completedByText(a)}` };
  if (state === 'not-urgent') return { emoji: ':information_source:', text: `Action ${label} is no longer urgent` };
  if (state === 'taken') return { emoji: ':raising_hand:', text: `Urgent action ${label} was taken: it is with ${assigneeText(a)}` };
  if (state === 'on-it') return { emoji: ':raising_hand:', text: `Urgent action ${label} is answered: someone is on it (${assigneeText(a)})` };
  return null;
}

/**
 * An escalation post (the reminder in the alert's thread, a senior's DM, the managers' post) drawn again as its
 * alert stands now: while nobody has answered, the escalation as it was posted (escalation.ts) with the current
 * due time and assignee; once the action is completed, no longer urgent or taken, it says so, with no Take it.
 */
export function escalationFollowing(a: ActionView, ctx: RenderContext, info: EscalationInfo, state: AlertState): { text: string; blocks: Block[] } {
  const end = alertEndText(a, state);
  if (!end) return escalationMessage(a, ctx, info);
  const when = state === 'completed' && a.completed ? ` ${slackDate(a.completed, ctx.timezone)}` : '';
  if (info.step === 'thread') return withAnswerBlocks({ text: end.text, blocks: [section(`${end.emoji} ${end.text}${when}.`)] }, a, ctx);
  const task = ctx.showTask && a.task ? `\n${taskText(a.task, 1500)}` : '';
  const due = `due ${a.due ? slackDate(a.due, ctx.timezone) : 'not set'}`;
  const blocks = [
    section(`${end.emoji} *${end.text}*${when} · ${due} · ${assigneeText(a)}${task}`, { block_id: actionBlockId('alert', a.id) }),
    cardButtons(a, ctx),
  ];
  return withAnswerBlocks({ text: end.text, blocks }, a, ctx);
}
