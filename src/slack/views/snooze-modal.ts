import type { types } from '@slack/bolt';
import { slackDate } from '../../time/slack-date.js';
import { CallbackIds, FIELD_ACTION_ID, FieldIds } from '../ids.js';
import { context, plainText, section } from './blocks.js';

export const SNOOZE_TITLE = 'Snooze action';

/** What the snooze form carries (sealed): the action, the zone its date and time are read in, and the card to update. */
export interface SnoozeMeta {
  actionId: string;
  tz: string;
  origin?: { channel: string; ts?: string | undefined; threadTs?: string | undefined; responseUrl?: string | undefined; blockId?: string | undefined };
}

/** What the question before a quick snooze on a channel post carries (sealed): SnoozeMeta and the new due time (ISO). */
export interface SnoozeConfirmMeta extends SnoozeMeta {
  due: string;
}

/** Said on a channel post's snooze: everyone sees it, and the assignee is told. */
const SHARED_NOTE = 'Everyone in this channel will see that you snoozed it, with Undo for a few minutes; the person it is assigned to is told.';

/**
 * Asked before a quick snooze on a channel post (a Snooze menu cannot ask itself: its dialog would be the
 * same for every choice): the action, its assignee (`assignee`, mrkdwn) and the new due time, in the reader's zone.
 */
export function snoozeConfirmModal(
  privateMetadata: string,
  shown: {
    label: string;
    assignee: string | null;
    due: Date;
    tz: string /** The due time now, when the new one is earlier. */;
    earlierThan?: Date | undefined;
  },
): types.ModalView {
  const whose = shown.assignee ? `, assigned to ${shown.assignee},` : ' (assigned to nobody)';
  const to = `*${slackDate(shown.due, shown.tz)}*`;
  // A choice that brings the due time forward is asked as what it is.
  const question = shown.earlierThan
    ? `Move action *${shown.label}*${whose} earlier, to ${to}? It is due ${slackDate(shown.earlierThan, shown.tz)} now.`
    : `Snooze action *${shown.label}*${whose} to ${to}?`;
  return {
    type: 'modal',
    callback_id: CallbackIds.snoozeConfirm,
    title: plainText(SNOOZE_TITLE, 24),
    submit: plainText(shown.earlierThan ? 'Move earlier' : 'Snooze', 24),
    close: plainText('Cancel', 24),
    private_metadata: privateMetadata,
    blocks: [section(question), context(SHARED_NOTE)],
  };
}

/**
 * Snooze to a date and time of the person's choosing, on their own wall clock; `privateMetadata` is sealed by the caller.
 * `shared`: opened from a channel post (the form says who it is assigned to, and that everyone sees it).
 */
export function snoozeModal(
  privateMetadata: string,
  shown: { label: string; date: string; time: string; tz: string; shared?: { assignee: string | null } | undefined },
): types.ModalView {
  return {
    type: 'modal',
    callback_id: CallbackIds.snoozeModal,
    title: plainText(SNOOZE_TITLE, 24),
    submit: plainText('Snooze', 24),
    close: plainText('Cancel', 24),
    private_metadata: privateMetadata,
    blocks: [
      section(
        `When should *${shown.label}*${shown.shared ? (shown.shared.assignee ? `, assigned to ${shown.shared.assignee},` : ' (assigned to nobody)') : ''} be due?`,
      ),
      {
        type: 'input',
        block_id: FieldIds.dueDate,
        label: plainText('Date'),
        element: { type: 'datepicker', action_id: FIELD_ACTION_ID, initial_date: shown.date },
      },
      {
        type: 'input',
        block_id: FieldIds.dueTime,
        label: plainText('Time'),
        element: { type: 'timepicker', action_id: FIELD_ACTION_ID, initial_time: shown.time },
      },
      context(`In your Slack time zone (${shown.tz}). Everything else about the action stays as it is.${shown.shared ? ` ${SHARED_NOTE}` : ''}`),
    ],
  };
}
