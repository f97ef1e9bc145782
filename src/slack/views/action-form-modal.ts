import type { types } from '@slack/bolt';
import { CallbackIds, FIELD_ACTION_ID as V, FieldIds as F, reminderFieldIds } from '../ids.js';
import { plain } from '../text.js';
import { context, plainText } from './blocks.js';

export const REMINDER_METHODS = [
  ['email', 'Email'],
  ['sms_or_whatsapp', 'SMS or WhatsApp'],
  ['voice', 'Voice call'],
  ['user_pref', "The person's preference"],
] as const;
export const REMINDER_MINUTES = [5, 10, 15, 30, 45, 60] as const;

export interface ReminderForm {
  method?: string;
  offset: 'none' | 'delta' | 'time';
  minutes?: number;
  time?: string;
}

export interface ActionFormInitial {
  task?: string;
  dueDate?: string; // YYYY-MM-DD in the user's zone
  dueTime?: string; // HH:MM in the user's zone
  assigneeSlackUserId?: string;
  urgent?: boolean;
  pin?: 'location' | 'user' | null;
  notify?: { id: string; name: string }[];
  reminders?: ReminderForm[];
}

export interface ActionModalMeta {
  mode: 'create' | 'edit';
  actionId?: string;
  /** The zone the due date/time were entered in. */
  tz: string;
  /** Where to confirm (a message shortcut's thread, or the channel the command came from). */
  channelId?: string;
  threadTs?: string;
  /** Edit only: the message whose card shows the new state once saved. */
  origin?: { channel: string; ts?: string | undefined; threadTs?: string | undefined; responseUrl?: string | undefined; blockId?: string | undefined };
}

const opt = (text: string, value: string): types.PlainTextOption => ({ text: plainText(text, 75), value });

function input(blockId: string, label: string, element: types.InputBlockElement, optional = false, hint?: string): types.InputBlock {
  return {
    type: 'input',
    block_id: blockId,
    label: plainText(label, 2000),
    element,
    optional,
    ...(hint ? { hint: plainText(hint, 2000) } : {}),
  };
}

function reminderBlocks(i: 0 | 1, r: ReminderForm | undefined): types.KnownBlock[] {
  const ids = reminderFieldIds(i);
  const methodOptions = REMINDER_METHODS.map(([v, t]) => opt(t, v));
  const offsetOptions = [opt('At the due time', 'none'), opt('Minutes before', 'delta'), opt('At a time of day', 'time')];
  const minuteOptions = REMINDER_MINUTES.map((m) => opt(`${m} minutes before`, String(m)));
  const initialMethod = methodOptions.find((o) => o.value === r?.method);
  const initialOffset = offsetOptions.find((o) => o.value === (r?.offset ?? 'none'));
  const initialMinutes = minuteOptions.find((o) => o.value === String(r?.minutes));
  return [
    input(
      ids.method,
      `Reminder ${i + 1}: how`,
      { type: 'static_select', action_id: V, options: methodOptions, ...(initialMethod ? { initial_option: initialMethod } : {}) },
      true,
    ),
    input(
      ids.offset,
      `Reminder ${i + 1}: when`,
      { type: 'radio_buttons', action_id: V, options: offsetOptions, ...(initialOffset ? { initial_option: initialOffset } : {}) },
      true,
    ),
    input(
      ids.minutes,
      `Reminder ${i + 1}: minutes before`,
      { type: 'static_select', action_id: V, options: minuteOptions, ...(initialMinutes ? { initial_option: initialMinutes } : {}) },
      true,
    ),
    input(ids.time, `Reminder ${i + 1}: time of day`, { type: 'timepicker', action_id: V, ...(r?.time ? { initial_time: r.time } : {}) }, true),
  ];
}

/**
 * The create/edit form. Pure: no API call is needed to open it. `privateMetadata`
 * is `meta` as the caller sealed it for the person (see signed-metadata.ts).
 */
export function actionModal(meta: ActionModalMeta, privateMetadata: string, initial: ActionFormInitial = {}): types.ModalView {
  const pinOptions = [opt('Not pinned', 'none'), opt("The location's calendar", 'location'), opt("The assignee's calendar", 'user')];
  const initialPin = pinOptions.find((o) => o.value === (initial.pin ?? 'none'));
  const urgentOption = opt('Urgent (shows at the top of dashboards)', 'urgent');
  const blocks: types.KnownBlock[] = [
    input(F.task, 'Task', {
      type: 'plain_text_input',
      action_id: V,
      multiline: true,
      max_length: 3000,
      ...(initial.task ? { initial_value: plain(initial.task, 3000) } : {}),
    }),
    input(F.dueDate, 'Due date', { type: 'datepicker', action_id: V, ...(initial.dueDate ? { initial_date: initial.dueDate } : {}) }),
    input(
      F.dueTime,
      'Due time',
      { type: 'timepicker', action_id: V, ...(initial.dueTime ? { initial_time: initial.dueTime } : {}) },
      false,
      `In your Slack time zone (${meta.tz}).`,
    ),
    input(
      F.assignee,
      'Assignee',
      { type: 'users_select', action_id: V, ...(initial.assigneeSlackUserId ? { initial_user: initial.assigneeSlackUserId } : {}) },
      true,
      'Only people who have linked their care account can be chosen.',
    ),
    input(
      F.urgent,
      'Urgency',
      { type: 'checkboxes', action_id: V, options: [urgentOption], ...(initial.urgent ? { initial_options: [urgentOption] } : {}) },
      true,
    ),
    input(F.pin, 'Pin to calendar', { type: 'radio_buttons', action_id: V, options: pinOptions, ...(initialPin ? { initial_option: initialPin } : {}) }, true),
    input(
      F.notify,
      'Notify on completion',
      {
        type: 'multi_external_select',
        action_id: V,
        min_query_length: 0,
        placeholder: plainText('Notification groups'),
        ...(initial.notify?.length ? { initial_options: initial.notify.map((g) => opt(g.name, g.id)) } : {}),
      },
      true,
    ),
    context('*Reminders* (up to two) are sent to the assignee.'),
    ...reminderBlocks(0, initial.reminders?.[0]),
    ...reminderBlocks(1, initial.reminders?.[1]),
  ];
  if (meta.mode === 'create') {
    blocks.push(
      input(
        F.subjectType,
        'Relates to',
        {
          type: 'radio_buttons',
          action_id: V,
          options: [opt('Nothing in particular', 'none'), opt('A care enquiry', 'care_enquiry'), opt('A service user', 'service_user')],
        },
        true,
      ),
      input(
        F.subject,
        'Care enquiry or service user Id',
        { type: 'plain_text_input', action_id: V, max_length: 24 },
        true,
        '24 letters and digits, from the care system.',
      ),
    );
  }
  return {
    type: 'modal',
    callback_id: CallbackIds.actionModal,
    title: plainText(meta.mode === 'create' ? 'New care action' : 'Edit care action', 24),
    submit: plainText(meta.mode === 'create' ? 'Create' : 'Save', 24),
    close: plainText('Cancel', 24),
    private_metadata: privateMetadata,
    blocks,
  };
}
