import type { types } from '@slack/bolt';
import { ActionIds, BlockIds, CallbackIds, FIELD_ACTION_ID as V, FieldIds as F, reminderFieldIds } from '../ids.js';
import { plain, userText } from '../text.js';
import { actions, button, context, plainText, section } from './blocks.js';
import { editSummaryText, type EditSummary } from './changed-by.js';
import { cut } from '../cut.js';

/** How a reminder is sent; "none" clears the reminder. */
export const REMINDER_METHODS = [
  ['email', 'Email'],
  ['sms_or_whatsapp', 'SMS or WhatsApp'],
  ['voice', 'Voice call'],
  ['user_pref', "The person's preference"],
] as const;
export const NO_REMINDER = 'none';
/** Minutes before the due time the care API accepts. */
export const REMINDER_MINUTES = [5, 10, 15, 30, 45, 60] as const;
/** The minutes the form offers; an action with another allowed offset shows it as one more choice. */
export const OFFERED_MINUTES = [15, 30, 60] as const;

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
  /** The care user it is assigned to, as the picker shows them (see assigneeOption). */
  assignee?: { careUserId: string; label: string };
  urgent?: boolean;
  pin?: 'location' | 'user' | null;
  notify?: { id: string; name: string }[];
  reminders?: ReminderForm[];
  /** Create only: what it relates to, as entered so far. */
  subject?: { type?: string; id?: string };
  /** Show pin, reminders and "relates to" (else a "More options" button). */
  more?: boolean;
  /** Create only: marked as needing two staff. */
  twoStaff?: boolean;
  /** A check on the due time, shown under it ("More than a year ahead: …"). */
  dueNotice?: string;
  /** Edit from a channel post: what saving changes for others, asked before it is saved. */
  editQuestion?: EditSummary;
}

/** What the edit form remembers (sealed) of the action it was opened on from a channel post. */
export interface SharedEditWas {
  /** The care user it is assigned to (null: nobody), and their name as the form showed it. */
  assignee: string | null;
  name: string | null;
  urgent: boolean;
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
  /** Edit only: the due time the action had (ISO), which may stay as it is even when past. */
  dueWas?: string;
  /** A due time more than a year ahead the person has been asked about once (ISO): submitting it again keeps it. */
  farAheadOk?: string;
  /** Edit only, opened from a channel post: the action as it was (the form names its assignee; saving a change others see asks first). */
  shared?: SharedEditWas;
  /** The change (a digest, see forms/edit-question.ts) the person has been asked about once: submitting it again saves it. */
  editOk?: string;
  /** The task was longer than the form holds: its whole length, and a digest of the cut text shown (see forms/task-limit.ts). */
  taskCut?: { from: number; digest: string };
  /**
   * How `/care …` words were read: `asNew`, the first word when it was no sub-command (so they were read as
   * `/care new`), and the words that look like a date but were not read.
   */
  typed?: { asNew?: string | undefined; unread?: string[] | undefined };
}

/** The first word typed after `/care`, as carried in the form (short). */
export const firstWordOf = (words: string) => {
  const first = words.trim().split(/\s+/)[0] ?? '';
  return cut(first, 30, { mrkdwn: false });
};

/** Said when words after `/care` were no sub-command and became a new action. */
export function readAsNewText(firstWord: string): string {
  return `Read as \`/care new\`: “${userText(firstWord, 30)}” is not a /care command (\`/care help\` lists them).`;
}

/** Under the due time: words that look like a date but were not read (left in the task). */
export function unreadNotice(words: string[]): string {
  return `Not read as a date: ${words.map((w) => `“${userText(w, 40)}”`).join(', ')}. They are left in the task; set the due date and time here.`;
}

/** Under the task, when the text was longer than a form holds: said at once, not found out later. */
export function taskCutNotice(meta: Pick<ActionModalMeta, 'mode' | 'taskCut'>): string | undefined {
  if (!meta.taskCut) return undefined;
  const from = meta.taskCut.from.toLocaleString('en-GB');
  return meta.mode === 'edit'
    ? `This action’s task is ${from} characters; a task here holds at most 3,000. Only the first 3,000 are shown, and saving them as they are would cut the rest: shorten it here, or change it in the care system.`
    : `Your text is ${from} characters; a task holds at most 3,000. Only the first 3,000 are in the box: shorten it before saving.`;
}

/** Atop the edit form opened from a channel post: whose action it is, and who sees and is told of a change. */
export function sharedEditNote(was: SharedEditWas): string {
  const whose = was.assignee ? `Assigned to *${userText(was.name ?? 'someone not in Slack', 80)}*.` : 'Assigned to nobody.';
  return `:busts_in_silhouette: ${whose} Everyone in this channel will see what you change, with Undo for a few minutes; whoever it is assigned to, before and after, is told.`;
}

/** Asked before saving an edit others will see (the form drawn again with this atop it). */
export function editQuestionText(edits: EditSummary): string {
  return `:warning: *Save this change for everyone in this channel?* ${editSummaryText(edits)}. Press *Save* again to save it, or *Cancel* to leave it as it was.`;
}

/** Whether the edit form opens with More options shown: something there is set. */
export const hasMoreOptions = (initial: ActionFormInitial): boolean =>
  Boolean(initial.pin) ||
  Boolean(initial.reminders?.length) ||
  Boolean(initial.subject?.id) ||
  Boolean(initial.subject?.type && initial.subject.type !== 'none');

/** The value of a reminder's "when" choice: `none`, `delta:<minutes>` or `time`. */
export function whenValue(r: ReminderForm | undefined): string {
  if (r?.offset === 'delta' && r.minutes) return `delta:${r.minutes}`;
  return r?.offset === 'time' ? 'time' : 'none';
}

const minutesLabel = (m: number) => (m === 60 ? '1 hour before' : `${m} minutes before`);

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

function whenOptions(current: ReminderForm | undefined): types.PlainTextOption[] {
  const minutes = new Set<number>(OFFERED_MINUTES);
  // An action made elsewhere may have 5, 10 or 45 minutes: offered too, so it is not lost.
  if (current?.offset === 'delta' && current.minutes && (REMINDER_MINUTES as readonly number[]).includes(current.minutes)) minutes.add(current.minutes);
  return [
    opt('At the due time', 'none'),
    ...[...minutes].sort((a, b) => a - b).map((m) => opt(minutesLabel(m), `delta:${m}`)),
    opt('At a time of day that day', 'time'),
  ];
}

function reminderBlocks(i: 0 | 1, r: ReminderForm | undefined): types.KnownBlock[] {
  const ids = reminderFieldIds(i);
  const methodOptions = [opt('No reminder', NO_REMINDER), ...REMINDER_METHODS.map(([v, t]) => opt(t, v))];
  const initialMethod = methodOptions.find((o) => o.value === r?.method);
  const options = whenOptions(r);
  const initialWhen = r ? options.find((o) => o.value === whenValue(r)) : undefined;
  const blocks: types.KnownBlock[] = [
    input(
      ids.method,
      `Reminder ${i + 1}: how`,
      { type: 'static_select', action_id: V, options: methodOptions, ...(initialMethod ? { initial_option: initialMethod } : {}) },
      true,
    ),
    {
      // Choosing "at a time of day" redraws the form with a time picker under it.
      ...input(
        ids.when,
        `Reminder ${i + 1}: when`,
        { type: 'static_select', action_id: V, options, ...(initialWhen ? { initial_option: initialWhen } : {}) },
        true,
      ),
      dispatch_action: true,
    },
  ];
  if (r?.offset === 'time')
    blocks.push(input(ids.time, `Reminder ${i + 1}: time of day`, { type: 'timepicker', action_id: V, ...(r.time ? { initial_time: r.time } : {}) }));
  return blocks;
}

function moreBlocks(mode: 'create' | 'edit', initial: ActionFormInitial): types.KnownBlock[] {
  const pinOptions = [opt('Not pinned', 'none'), opt("The location's calendar", 'location'), opt("The assignee's calendar", 'user')];
  const initialPin = pinOptions.find((o) => o.value === (initial.pin ?? 'none'));
  const blocks: types.KnownBlock[] = [
    input(F.pin, 'Pin to calendar', { type: 'radio_buttons', action_id: V, options: pinOptions, ...(initialPin ? { initial_option: initialPin } : {}) }, true),
    context('*Reminders* (up to two) are sent to the assignee.'),
    ...reminderBlocks(0, initial.reminders?.[0]),
    ...reminderBlocks(1, initial.reminders?.[1]),
  ];
  if (mode === 'create') {
    // Two-person work (issue 33): its urgent alert keeps asking until two people answered.
    const twoStaff = opt('Needs two staff (its urgent alert asks until two people answer)', 'two-staff');
    blocks.push(
      input(
        F.twoStaff,
        'Two staff',
        { type: 'checkboxes', action_id: V, options: [twoStaff], ...(initial.twoStaff ? { initial_options: [twoStaff] } : {}) },
        true,
      ),
    );
    const subjectOptions = [opt('Nothing in particular', 'none'), opt('A care enquiry', 'care_enquiry'), opt('A service user', 'service_user')];
    const initialSubject = subjectOptions.find((o) => o.value === initial.subject?.type);
    blocks.push(
      input(
        F.subjectType,
        'Relates to',
        { type: 'radio_buttons', action_id: V, options: subjectOptions, ...(initialSubject ? { initial_option: initialSubject } : {}) },
        true,
      ),
      input(
        F.subject,
        'Care enquiry or service user Id',
        { type: 'plain_text_input', action_id: V, max_length: 24, ...(initial.subject?.id ? { initial_value: plain(initial.subject.id, 24) } : {}) },
        true,
        '24 letters and digits, from the care system.',
      ),
    );
  }
  return blocks;
}

/** What the assignee picker says of someone with no Slack account linked here. */
export const NOT_IN_SLACK = 'not in Slack: they see it in the care system';

/** A care user as the assignee picker offers them: their name, marked when they are not in Slack (Slack's 75-character limit). */
export function assigneeLabel(choice: { name: string; slackUserId?: string | undefined }): string {
  if (choice.slackUserId) return cut(choice.name, 75, { ellipsis: '', mrkdwn: false });
  const mark = ` — ${NOT_IN_SLACK}`;
  const room = 75 - mark.length;
  const name = cut(choice.name, room, { mrkdwn: false });
  return `${name}${mark}`;
}

export const assigneeOption = (choice: { id: string; name: string; slackUserId?: string | undefined }) => opt(assigneeLabel(choice), choice.id);

/**
 * The create/edit form. Pure: no API call is needed to open it. `privateMetadata`
 * is `meta` as the caller sealed it for the person (see signed-metadata.ts).
 * At a glance: task, due date and time, assignee, urgent and notify; "More
 * options" adds pin, reminders and (create only) what it relates to.
 */
export function actionModal(meta: ActionModalMeta, privateMetadata: string, initial: ActionFormInitial = {}): types.ModalView {
  const urgentOption = opt('Urgent (shows at the top of dashboards)', 'urgent');
  const unread = meta.typed?.unread ?? [];
  const blocks: types.KnownBlock[] = [
    ...(initial.editQuestion ? [section(editQuestionText(initial.editQuestion), { block_id: BlockIds.editQuestion }) as types.KnownBlock] : []),
    ...(meta.shared ? [{ ...context(sharedEditNote(meta.shared)), block_id: BlockIds.editShared }] : []),
    ...(meta.typed?.asNew ? [{ ...context(`:information_source: ${readAsNewText(meta.typed.asNew)}`), block_id: BlockIds.readAs }] : []),
    input(F.task, 'Task', {
      type: 'plain_text_input',
      action_id: V,
      multiline: true,
      max_length: 3000,
      ...(initial.task ? { initial_value: plain(initial.task, 3000) } : {}),
    }),
    ...(taskCutNotice(meta) ? [{ ...context(`:warning: ${taskCutNotice(meta)}`), block_id: BlockIds.taskNotice }] : []),
    input(F.dueDate, 'Due date', { type: 'datepicker', action_id: V, ...(initial.dueDate ? { initial_date: initial.dueDate } : {}) }),
    input(
      F.dueTime,
      'Due time',
      { type: 'timepicker', action_id: V, ...(initial.dueTime ? { initial_time: initial.dueTime } : {}) },
      false,
      `In your Slack time zone (${meta.tz}).`,
    ),
    ...(initial.dueNotice ? [{ ...context(`:warning: ${initial.dueNotice}`), block_id: BlockIds.dueNotice }] : []),
    ...(unread.length ? [{ ...context(`:grey_question: ${unreadNotice(unread)}`), block_id: BlockIds.dueUnread }] : []),
    input(
      F.assignee,
      'Assignee',
      {
        type: 'external_select',
        action_id: V,
        min_query_length: 0,
        placeholder: plainText('Anyone on the rota'),
        ...(initial.assignee ? { initial_option: opt(initial.assignee.label, initial.assignee.careUserId) } : {}),
      },
      true,
      'Everyone in the care system; someone not in Slack sees it there.',
    ),
    input(
      F.urgent,
      'Urgency',
      { type: 'checkboxes', action_id: V, options: [urgentOption], ...(initial.urgent ? { initial_options: [urgentOption] } : {}) },
      true,
    ),
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
    ...(initial.more
      ? moreBlocks(meta.mode, initial)
      : [
          actions(BlockIds.formMore, [button('More options', ActionIds.moreOptions, 'more')]),
          context(meta.mode === 'create' ? 'Pin to calendar, reminders, what it relates to.' : 'Pin to calendar, reminders.'),
        ]),
  ];
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
