import { slackDate } from '../../time/slack-date.js';
import { actionBlockId } from '../ids.js';
import { taskText } from '../text.js';
import { actionLabel, cardButtons, markers } from './action-card.js';
import { section, type Block } from './blocks.js';
import type { ActionView, RenderContext } from '../../services/action-model.js';

/** "You were assigned action #12 by @amelia" (or "in the care system"): the DM's headline, also when drawn again. */
export function assignmentHeadline(a: ActionView, assignment: { by: string | null }): string {
  return `You were assigned action ${actionLabel(a)} ${assignment.by ? `by <@${assignment.by}>` : 'in the care system'}`;
}

/**
 * The DM to an action's new assignee: who assigned it (a Slack user, or "in the
 * care system"), the task, when it is due (in the reader's own zone), its
 * urgency, and the card's buttons. The notification text names no task.
 */
export function assignmentNotice(a: ActionView, ctx: RenderContext, assignment: { by: string | null }): { text: string; blocks: Block[] } {
  const text = assignmentHeadline(a, assignment);
  const flags = markers(a, ctx.now);
  const task = ctx.showTask ? (a.task ? `\n>${taskText(a.task, 1500).replace(/\n/g, '\n>')}` : '\n_(no task text)_') : '';
  return {
    text,
    blocks: [
      section(`:inbox_tray: *${text}*${flags ? `\n${flags}` : ''}${task}`, { block_id: actionBlockId('task', a.id) }),
      {
        type: 'section',
        block_id: actionBlockId('facts', a.id),
        fields: [
          { type: 'mrkdwn', text: `*Due*\n${a.due ? slackDate(a.due, ctx.timezone) : 'not set'}` },
          { type: 'mrkdwn', text: `*Urgency*\n${a.urgent ? 'Urgent' : 'Not urgent'}` },
        ],
      },
      cardButtons(a),
    ],
  };
}
