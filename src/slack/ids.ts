/**
 * Every action_id, callback_id and block_id the app uses, and the grammar of
 * the ids that carry data (which action a block shows, where a list came
 * from), with the helpers that write and read them. Nothing else builds or
 * parses an id.
 */
import type { ListWhere } from '../services/actions/list-where.js';
import type { DueWindowName } from '../time/due-windows.js';
import type { SnoozeChoice } from '../time/snooze.js';
import { cutId } from './cut.js';

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
  summaryChange: 'care_summary_change',
  summaryOff: 'care_summary_off',
  snooze: 'care_snooze',
  openInCare: 'care_open_in_care',
  /** The create/edit form's "More options" button. */
  moreOptions: 'care_form_more',
  /** Where task text is hidden (shared channels): show the full card to the clicker only. */
  view: 'care_view',
  /** An action's life (created, assigned, snoozed, completed, …) in a modal for the clicker only. Value: the action Id. */
  history: 'care_history',
  /** Assign an unassigned (or urgent) action to the clicker. */
  takeIt: 'care_take',
  /** The "⋯" menu of an open card: Complete with note…, Take it with note… (value: see noteOptionValue). */
  noteMenu: 'care_note_menu',
  /** Undo a Complete or Reopen made on a shared surface, for a few minutes after it. */
  undo: 'care_undo',
  /** An admin's Retry of a failed delivery on their Home tab (value = the ledger row's id). */
  retryDelivery: 'care_delivery_retry',
  /** An admin's second step for task text in a public channel's digest (value = the digest's set-up time, ms). */
  showTasksConfirm: 'care_show_tasks_confirm',
  /** An admin's "Reassign work" on a carer of the Team view (value = the care user's Id). */
  reassignWork: 'care_reassign_work',
  /** Undo on an admin's reassign result DM (value = the run's Id). */
  reassignUndo: 'care_reassign_undo',
  /** The Home tab's location filter (a static select; value = a location Id, or "all"). */
  homeLocation: 'care_home_location',
  /** An admin's "Forget <name>" after `/care forget @person` (value = the Slack user Id), and its Cancel. */
  forgetPerson: 'care_forget_person',
  forgetCancel: 'care_forget_cancel',
  /** Accept handover on a handover post (its value: the handover's ref, see handoverRefValue). */
  handoverAccept: 'care_handover_accept',
  /** The accepter's Undo of a handover's acceptance (its value: see handoverUndoValue). */
  handoverUndo: 'care_handover_undo',
  /** The follow-up DM of a taken urgent action (value: see followUpValue): Done, Still on it, Hand back. */
  followUpDone: 'care_followup_done',
  followUpStillOnIt: 'care_followup_still',
  followUpHandBack: 'care_followup_hand_back',
  /** "I'm on it" on an urgent alert or escalation post (value: the action Id): opens its confirm modal. */
  onIt: 'care_on_it',
  /** "I can't" on an urgent alert or escalation post (value: the action Id): opens its reason modal. */
  cant: 'care_cant',
  /** "Join" (the second of two staff) on a two-person action's alert (value: the action Id); asks first. */
  joinIn: 'care_join',
  /** The answerer's Undo of an answer (value: sealed, see answer-undo.ts). */
  answerUndo: 'care_answer_undo',
} as const;

/** A follow-up button's value: `<action Id>|<the follow-up's ref>` (follow-up-policy.ts followUpOccurrence). */
export const followUpValue = (actionId: string, ref: string) => `${actionId}|${ref}`;

/** A follow-up button's value -> its parts, or null. */
export function parseFollowUpValue(value: string | undefined): { actionId: string; ref: string } | null {
  const m = /^([0-9a-f]{24})\|(.{1,300})$/s.exec(value ?? '');
  return m ? { actionId: m[1]!, ref: m[2]! } : null;
}

export const CallbackIds = {
  actionModal: 'care_action_modal',
  createFromMessage: 'care_create_from_message',
  approveLinkModal: 'care_link_approve_modal',
  summaryModal: 'care_summary_modal',
  snoozeModal: 'care_snooze_modal',
  /** Complete or Take it with a note: the note's form (it is also the question on a channel post). */
  noteModal: 'care_note_modal',
  /** "Snooze to … ?" asked before a quick snooze on a channel post. */
  snoozeConfirm: 'care_snooze_confirm',
  /** Reassign work: who to move it to and which of it (opened from the Team view). */
  reassignPick: 'care_reassign_pick',
  /** Reassign work: "Move 25 open actions from … to …?" and then its progress and result. */
  reassignConfirm: 'care_reassign_confirm',
  /** "I'm on it" asked first (who is doing it, when nobody is assigned; a short note). */
  onItModal: 'care_on_it_modal',
  /** "I can't": why (a short list) and an optional note. */
  cantModal: 'care_cant_modal',
} as const;

/** Input blocks of the forms: block_id = the field, action_id = FIELD_ACTION_ID. */
export const FieldIds = {
  /** "I'm on it" for an unassigned action: who is doing it (optional); an answer's short note; "I can't": why. */
  answerDoer: 'answer_doer',
  answerNote: 'answer_note',
  cantReason: 'cant_reason',
  /** The create form's More options: the action needs two staff (issue 33). */
  twoStaff: 'two_staff',
  task: 'task',
  dueDate: 'due_date',
  dueTime: 'due_time',
  assignee: 'assignee',
  urgent: 'urgent',
  pin: 'pin_to_calendar',
  notify: 'notify_on_complete',
  subjectType: 'subject_type',
  linkCareUserId: 'link_care_user_id',
  /** The approval form's searchable list of care users (an external_select). */
  linkCareUser: 'link_care_user',
  subject: 'subject',
  summaryTime: 'summary_time',
  summaryDays: 'summary_days',
  /** Reassign work: which of it moves (overdue, due today, all). */
  reassignScope: 'reassign_scope',
  summaryWhen: 'summary_when',
  /** The note given with a Complete or Take it. */
  note: 'note',
} as const;

export const FIELD_ACTION_ID = 'value';

/** The inputs of reminder `i` (0 or 1): how, when (it redraws the form), and the time of day (shown for "at a time of day"). */
export function reminderFieldIds(i: 0 | 1) {
  return { method: `reminder_${i}_method`, when: `reminder_${i}_when`, time: `reminder_${i}_time` } as const;
}
/** The "when" input of either reminder (its changes redraw the form). */
export const REMINDER_WHEN_BLOCK = /^reminder_[01]_when$/;

/** A care record's Id: 24 hex digits (lower case). */
export const CARE_ID = /^[0-9a-f]{24}$/;
export const isCareId = (s: string): boolean => CARE_ID.test(s);

// ---- where a list answer came from (carried in its block ids) ----

/** Where a list answer came from: enough to render it again after a click on it. */
export type ListSource =
  | { kind: 'mine'; where?: ListWhere }
  | { kind: 'due'; window: DueWindowName; slackUserId: string; where?: ListWhere }
  | { kind: 'find'; words: string };

const MAX_SOURCE = 200;
const SOURCE_SEP = '~';

/** The source as a block_id suffix, or undefined when it would not fit (very long search words). */
/** A narrowed list's location or resident: `@L:<id>:<name>` or `@R:<id>` after the source. */
const whereSuffix = (w: ListWhere | undefined) => (!w ? '' : w.type === 'location' ? `@L:${w.id}:${cutId(w.name, 60)}` : `@R:${w.id}`);
const WHERE = '(?:@L:([0-9a-f]{24}):(.{1,60})|@R:([0-9a-f]{24}))?';
function whereOf(m: RegExpExecArray, at: number): { where?: ListWhere } {
  if (m[at]) return { where: { type: 'location', id: m[at]!, name: m[at + 1]! } };
  if (m[at + 2]) return { where: { type: 'resident', id: m[at + 2]! } };
  return {};
}

export function encodeListSource(s: ListSource): string | undefined {
  const raw =
    s.kind === 'mine' ? `mine${whereSuffix(s.where)}` : s.kind === 'due' ? `due:${s.window}:${s.slackUserId}${whereSuffix(s.where)}` : `find:${s.words}`;
  return raw.length <= MAX_SOURCE ? raw : undefined;
}

function decodeListSource(raw: string): ListSource | null {
  const mine = new RegExp(`^mine${WHERE}$`, 's').exec(raw);
  if (mine) return { kind: 'mine', ...whereOf(mine, 1) };
  const due = new RegExp(`^due:(today|tomorrow|week|overdue):([UW][A-Z0-9]+)${WHERE}$`, 's').exec(raw);
  if (due) return { kind: 'due', window: due[1] as DueWindowName, slackUserId: due[2]!, ...whereOf(due, 3) };
  if (raw.startsWith('find:') && raw.length > 'find:'.length) return { kind: 'find', words: raw.slice('find:'.length) };
  return null;
}

// ---- the Snooze menu's options: `<choice>:<action Id>` ----

/** A Snooze option: a quick choice (see time/snooze.ts) or `pick` (the date and time form). */
export function snoozeOptionValue(choice: SnoozeChoice | 'pick', actionId: string): string {
  return `${choice}:${actionId}`;
}

export function parseSnoozeOption(value: string | undefined): { choice: string; actionId: string } | null {
  const m = /^([a-z]+):([0-9a-f]{24})$/.exec(value ?? '');
  return m ? { choice: m[1]!, actionId: m[2]! } : null;
}

// ---- blocks that show one action ----

/**
 * The parts of an action's blocks: `task_<id>` (a card's or notice's text),
 * `facts_<id>` (a card's fields), `card_<id>` (its buttons), `line_<id>` (a
 * list line) and `by_<id>` (on a channel post, who last completed, reopened,
 * undid or took it, with Undo for a while), `alert_<id>` (an urgent alert's
 * first block: a change redraws it as an alert). Lines and buttons of a list
 * answer also carry `~<source>`.
 */
export type ActionBlockPart = 'task' | 'facts' | 'card' | 'line' | 'by' | 'alert';

export function actionBlockId(part: ActionBlockPart, actionId: string, source?: string): string {
  const base = `${part}_${actionId}`;
  return source ? cutId(`${base}${SOURCE_SEP}${source}`, 255) : base;
}

/** Whether a block_id is this part of this action's blocks (with or without a source). */
export function isActionBlock(blockId: string | undefined, part: ActionBlockPart, actionId: string): boolean {
  const base = `${part}_${actionId}`;
  return blockId === base || Boolean(blockId?.startsWith(`${base}${SOURCE_SEP}`));
}

/** The raw source suffix of a block_id (to render a re-drawn line with the same one), if any. */
export function sourceSuffixOf(blockId: string | undefined): string | undefined {
  const at = blockId?.indexOf(SOURCE_SEP) ?? -1;
  return blockId && at >= 0 ? blockId.slice(at + 1) : undefined;
}

/** The list source a list block's id carries, if any. */
export function listSourceOfBlockId(blockId: string | undefined): ListSource | null {
  const raw = sourceSuffixOf(blockId);
  return raw ? decodeListSource(raw) : null;
}

// ---- other blocks ----

export const BlockIds = {
  linkRequest: (requestId: string) => `linkreq_${requestId}`,
  link: (slackUserId: string) => `link_${slackUserId}`,
  literature: (itemId: string) => `lit_${itemId}`,
  helpActions: 'help_actions',
  homeTop: 'home_top',
  /** A handover post's Accept button (replaced by who accepted, when). */
  handoverAccept: 'handover_accept',
  /** A handover post's line saying an acceptance was undone, and by whom. */
  handoverUndone: 'handover_undone',
  homeMore: 'home_more',
  homeFirst: 'home_first',
  homeSummary: 'home_summary',
  /** The create/edit form: the "More options" button's block, and the "check the date" notice under the due time. */
  formMore: 'form_more',
  dueNotice: 'due_notice',
  /** The create form: how the typed words were read ("Read as /care new"; words not read as a date). */
  readAs: 'read_as',
  dueUnread: 'due_unread',
  /** The admins' Home sections: an unassigned action's row (with Take it), a failed delivery's row (with Retry). */
  teamUnassigned: (actionId: string) => `team_unassigned_${actionId}`,
  teamCarer: (careUserId: string) => `team_carer_${careUserId}`,
  statusFailed: (deliveryId: number) => `status_failed_${deliveryId}`,
  /** The create/edit form: the notice under a task longer than the form holds. */
  taskNotice: 'task_notice',
  /** The edit form opened from a channel post: whose it is and who sees the change; the question before saving it. */
  editShared: 'edit_shared',
  editQuestion: 'edit_question',
  /** The reply to `/care digest here … --show-tasks` in a public channel: the button that shows task text there. */
  showTasks: 'show_tasks',
  /** An urgent alert's escalation lines ("Escalated to @amelia at 10:32"), after its buttons. */
  escalated: (actionId: string) => `escalated_${actionId}`,
  /** The answers to an urgent episode on its posts ("Priya is on it since 10:04"). */
  answers: (actionId: string) => `answers_${actionId}`,
  /** The "I'm on it" / "I can't" / "Join" buttons of an urgent post. */
  answerButtons: (actionId: string) => `answer_buttons_${actionId}`,
} as const;

// ---- connecting a workspace's care account (App Home card and form) ----

export const ConnectCareIds = {
  /** "Connect your care system" / "Reconnect": opens the form (admins only). */
  open: 'connect_care_open',
  /** Removes the workspace's care connection (admins only, after a confirm dialog). */
  disconnect: 'connect_care_disconnect',
  /** The form's callback_id. */
  modal: 'connect_care',
  /** The Home card's buttons. */
  homeBlock: 'connect_care_home',
  /** The form's inputs (action_id FIELD_ACTION_ID). */
  address: 'connect_care_address',
  otherAddress: 'connect_care_url',
  accountId: 'connect_care_account',
  apiKey: 'connect_care_key',
  apiSecret: 'connect_care_secret',
} as const;

// ---- a handover post's Accept button: `<channel id> <occurrence>` ----

export function handoverRefValue(ref: { channelId: string; occurrence: string }): string {
  return `${ref.channelId} ${ref.occurrence}`;
}

export function parseHandoverRef(value: string | undefined): { channelId: string; occurrence: string } | null {
  const m = /^([CGD][A-Z0-9]+) (\d{4}-\d{2}-\d{2}\/.{1,24})$/u.exec(value ?? '');
  return m ? { channelId: m[1]!, occurrence: m[2]! } : null;
}

/** The Undo of an acceptance: `<round> <channel id> <occurrence>` (who may use it is the store's to say). */
export function handoverUndoValue(ref: { channelId: string; occurrence: string }, round: number): string {
  return `${round} ${handoverRefValue(ref)}`;
}

export function parseHandoverUndo(value: string | undefined): { ref: { channelId: string; occurrence: string }; round: number } | null {
  const m = /^(\d{1,3}) (.+)$/su.exec(value ?? '');
  const ref = m ? parseHandoverRef(m[2]) : null;
  return m && ref ? { ref, round: Number(m[1]) } : null;
}
