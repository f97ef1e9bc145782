import type { types } from '@slack/bolt';
import { CallbackIds, FIELD_ACTION_ID, FieldIds } from '../ids.js';
import { context, plainText, section } from './blocks.js';

export const SNOOZE_TITLE = 'Snooze action';

/** What the snooze form carries (sealed): the action, the zone its date and time are read in, and the card to update. */
export interface SnoozeMeta {
  actionId: string;
  tz: string;
  origin?: { channel: string; ts?: string | undefined; threadTs?: string | undefined; responseUrl?: string | undefined; blockId?: string | undefined };
}

/** Snooze to a date and time of the person's choosing, on their own wall clock; `privateMetadata` is sealed by the caller. */
export function snoozeModal(privateMetadata: string, shown: { label: string; date: string; time: string; tz: string }): types.ModalView {
  return {
    type: 'modal',
    callback_id: CallbackIds.snoozeModal,
    title: plainText(SNOOZE_TITLE, 24),
    submit: plainText('Snooze', 24),
    close: plainText('Cancel', 24),
    private_metadata: privateMetadata,
    blocks: [
      section(`When should *${shown.label}* be due?`),
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
      context(`In your Slack time zone (${shown.tz}). Everything else about the action stays as it is.`),
    ],
  };
}
