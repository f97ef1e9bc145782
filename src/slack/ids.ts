/** Every action_id, callback_id and block_id the app uses, in one place. */
export const ActionIds = {
  complete: 'care_complete',
  reopen: 'care_reopen',
  edit: 'care_edit',
  newAction: 'care_new',
  homeMore: 'care_home_more',
  shareLiterature: 'care_share_literature',
  unlink: 'care_unlink',
  approveLink: 'care_link_approve',
  rejectLink: 'care_link_reject',
  notifyGroups: 'care_notify_groups',
} as const;

export const CallbackIds = {
  actionModal: 'care_action_modal',
  createFromMessage: 'care_create_from_message',
  approveLinkModal: 'care_link_approve_modal',
} as const;

/** Input blocks of the action modal: block_id = the field, action_id = 'value'. */
export const FieldIds = {
  task: 'task',
  dueDate: 'due_date',
  dueTime: 'due_time',
  assignee: 'assignee',
  urgent: 'urgent',
  pin: 'pin_to_calendar',
  notify: 'notify_on_complete',
  reminder0Method: 'reminder_0_method',
  reminder0Offset: 'reminder_0_offset',
  reminder0Minutes: 'reminder_0_minutes',
  reminder0Time: 'reminder_0_time',
  reminder1Method: 'reminder_1_method',
  reminder1Offset: 'reminder_1_offset',
  reminder1Minutes: 'reminder_1_minutes',
  reminder1Time: 'reminder_1_time',
  subjectType: 'subject_type',
  linkCareUserId: 'link_care_user_id',
  subject: 'subject',
} as const;

export const FIELD_ACTION_ID = 'value';
