import type { Shift } from '../time/shifts.js';
import type { ActionGroup, ActionView, AnswerLine, RenderContext } from './action-model.js';
import type { AnswerNoticeState } from './urgent/answer-notice-state.js';
import type { ChangeSaid } from './notices/change-kinds.js';
import type { OutgoingMessage } from './notices/delivery.js';

/** Who an action is for in a digest: a carer (linked: a Slack mention; otherwise a name), or null for nobody. */
export type DigestAssignee = ActionView['assignee'];

/** One carer's line in a digest: their counts (overdue includes `stale`). */
export interface DigestCarer {
  assignee: NonNullable<DigestAssignee>;
  overdue: number;
  /** Of `overdue`, those overdue by more than `staleDays` (summarised, not listed). */
  stale: number;
  today: number;
}

/** Overdue actions older than `staleDays` of one carer (or of nobody): one summary row instead of a row each. */
export interface StaleSummary {
  assignee: DigestAssignee;
  count: number;
  urgent: number;
}

/** A part of a digest's thread: Overdue, Due today, Urgent this week, Unassigned. */
export interface DigestSection {
  kind: 'overdue' | 'today' | 'urgent' | 'unassigned';
  label: string;
  /** Listed one row each, most pressing first (the view may list only the first ones and count the rest). */
  actions: ActionView[];
  /** Summary rows (one per carer) for actions overdue by more than `staleDays`. */
  stale: StaleSummary[];
}

/**
 * What a digest shows, before it is rendered. Every open action overdue, due
 * today, or urgent and due this week is counted in the totals and appears once:
 * among `top`, as a row of one section, or inside one section's stale summary.
 */
export interface DigestContent {
  title: string; // e.g. "Monday 23 November"
  filterText: string; // e.g. "urgent only", "for @Sophie", "" for all
  overdue: number;
  today: number;
  urgent: number;
  unassigned: number;
  /** Overdue by more than this many days: summarised per carer, never listed. */
  staleDays: number;
  /** Carers with something overdue or due today, most overdue first. */
  carers: DigestCarer[];
  /** What matters most (at most ten): urgent first, then the longest overdue, then due soonest. */
  top: ActionView[];
  /** The rest, for the thread (empty sections included; the view skips them). */
  sections: DigestSection[];
}

/** What a person's own morning summary shows, before it is rendered. */
export interface SummaryContent {
  title: string; // e.g. "Tuesday 15 June"
  overdue: number;
  today: number;
  urgent: number;
  groups: ActionGroup[];
  /** The setting it was sent by, to remind the person how to change it. */
  /** `time`: "HH:MM", or a shift start ("shift", "shift:<name>") in the home's zone with its `shifts`. */
  schedule: { time: string; days: 'weekdays' | 'daily'; timezone: string; shifts?: readonly Shift[] };
}

export interface RenderedDigest {
  /** The channel message. */
  main: OutgoingMessage;
  /** Thread replies with the full list when it does not fit one message. */
  thread: OutgoingMessage[];
}

/**
 * The messages that services post on their own (notices, alerts, digests).
 * The services decide what to say and where; the Slack layer renders it. They
 * are passed in (workspaces/compose/renderers.ts), so nothing under services imports Slack views.
 */
export interface MessageRenderers {
  completionNotice(a: ActionView, ctx: RenderContext, groups: string[]): OutgoingMessage;
  urgentAlert(a: ActionView, ctx: RenderContext): OutgoingMessage;
  /** A DM to whoever created the action through Slack: it was completed (the view says by whom). */
  creatorNotice(a: ActionView, ctx: RenderContext): OutgoingMessage;
  /** A DM to an action's new assignee; `by`: the Slack user who assigned it, null when made in the care system. */
  assignmentNotice(a: ActionView, ctx: RenderContext, assignment: { by: string | null }): OutgoingMessage;
  /**
   * A DM to an action's assignee: someone else (`by`, a Slack user) completed, reopened, took, snoozed (or moved
   * earlier) or edited it (or undid their snooze) through Slack, or took it away from them through Edit.
   */
  changeNotice(a: ActionView, ctx: RenderContext, change: ChangeSaid): OutgoingMessage;
  /** Null when there is nothing to post (empty, and the channel asked for quiet). */
  digest(c: DigestContent, ctx: RenderContext, options: { postWhenEmpty: boolean }): RenderedDigest | null;
  /** A person's morning summary DM (a short "nothing due" when empty, so they know it runs). */
  morningSummary(c: SummaryContent, ctx: RenderContext): OutgoingMessage;
  /** What a post or DM about a completed action is edited down to once its retention is over: no task, no buttons. */
  redacted(action: { actionId: string; actionNo: string }): OutgoingMessage;
  /**
   * An urgent alert with the escalation steps taken so far ("Escalated to @amelia at 10:32"): the alert post,
   * updated. `current`: the post's blocks as Slack holds them (only the escalation line is changed, so a row
   * such as "Snoozed by @x · Undo" stays); without them, the alert drawn afresh.
   */
  escalatedAlert?(a: ActionView, ctx: RenderContext, steps: EscalationLine[], current?: unknown[]): OutgoingMessage;
  /** The escalation of an urgent action nobody took: a reminder in its alert's thread, a senior's DM, the managers' post. */
  escalation?(a: ActionView, ctx: RenderContext, info: EscalationInfo): OutgoingMessage;
  /** The admins' one DM that a step of the ladder had nobody to reach (no seniors named for a shift, no managers' channel), and how to fix it. */
  escalationGap?(gap: EscalationGap, ctx: Pick<RenderContext, 'timezone'>): OutgoingMessage;
  /** An escalation message drawn again as its alert stands now (post-redraw.ts): as posted while open, else how it ended. */
  escalationFollowing?(a: ActionView, ctx: RenderContext, info: EscalationInfo, state: AlertState): OutgoingMessage;
  /**
   * A DM or confirmation about an action drawn again (post-redraw.ts): its headline, the event it told (kept as
   * history), above the action's card as it is now.
   */
  noticeFollowing?(a: ActionView, ctx: RenderContext, headline: FollowedHeadline): OutgoingMessage;
  /** The follow-up DM to whoever holds a taken urgent action still open (follow-up.ts), as it and its answers stand now. */
  followUp?(a: ActionView, ctx: RenderContext, info: FollowUpInfo): OutgoingMessage;
  /** The urgent alert posted again in a channel when its holder handed it back (`by`: the Slack user, `at`: when). */
  handBackAlert?(a: ActionView, ctx: RenderContext, handed: { by: string; at: Date }): OutgoingMessage;
  /** A DM to an action's assignee: someone else is on it, or joined it (issue 33); never a note. `state`: as drawn again (post-redraw.ts). */
  answerNotice?(a: ActionView, ctx: RenderContext, answer: AnswerLine, state?: AnswerNoticeState): OutgoingMessage;
}

/** What the follow-up DM says besides the action: which follow-up (its buttons carry `ref`), since when it is held, and how it stands. */
export interface FollowUpInfo {
  /** The follow-up's ledger occurrence (follow-up-policy.ts followUpOccurrence). */
  ref: string;
  heldSince: Date;
  via: 'taken' | 'acknowledged';
  state: FollowUpDmState;
}

/** Where a follow-up DM stands: open (its buttons), "still on it" (until when), handed back, or ended (no buttons). */
export type FollowUpDmState =
  | { kind: 'open' }
  | { kind: 'still-on-it'; at: Date; until: Date }
  | { kind: 'handed-back'; at: Date }
  | { kind: 'completed' }
  | { kind: 'not-urgent' }
  /** Someone else has it now (or nobody). */
  | { kind: 'moved' };

/**
 * The event a DM or confirmation told, rebuilt from its ledger row and the audit log: an assignment (by a Slack
 * user, or in the care system), a change someone else made, the creator's completion notice (who completed it
 * and when), the form's "Created"/"Updated" (`by`: who saved it, said in a thread; null in the saver's own DM).
 */
export type FollowedHeadline =
  | { kind: 'assignment'; by: string | null }
  | { kind: 'change'; change: ChangeSaid }
  | { kind: 'creator'; completed: Date; by: string | null }
  | { kind: 'saved'; verb: 'Created' | 'Updated'; by: string | null };

/** Where an urgent alert stands: still unanswered, or ended (completed, no longer urgent, taken by someone). */
export type AlertState = 'open' | 'completed' | 'not-urgent' | 'taken' | 'on-it';

/**
 * Why an escalation step reached nobody: no seniors named for the shift on, no managers' channel set, or
 * (a record older than these reasons) the words it was stored with.
 */
export type EscalationSkip = { reason: 'no-seniors'; shift: string } | { reason: 'no-managers-channel' } | { reason: 'other'; words: string };

/**
 * One escalation step as it happened (the record, never today's settings): where it went and when, or why
 * it reached nobody. Shown on the alert, in the posts of the steps after it, and in History.
 */
export interface EscalationLine {
  step: 'thread' | 'seniors' | 'managers';
  /** Whom it reached: Slack user ids (seniors) or channel ids (thread, managers). */
  to: string[];
  at: Date;
  /** The seniors step: the shift on when it ran (whose seniors were DMed, or had none named). */
  shift?: string;
  /** Nobody to reach, and why. */
  skipped?: EscalationSkip;
  /** Whom it was meant for but could not reach (a DM or post Slack refused for good). */
  unreached?: string[];
  /** A step of the ladder resumed after it was taken: still open after its follow-up, or handed back. */
  again?: 'followup' | 'hand-back';
  /** A repeat of the ladder's last step: the n-th of the `of` repeats allowed ("again at 11:15 (2 of 3)"). */
  repeat?: { n: number; of: number };
}

/** What an escalation message says besides the action: which step, how long unanswered, where, what happened first. */
export interface EscalationInfo {
  step: 'thread' | 'seniors' | 'managers';
  unansweredMinutes: number;
  location: string | null;
  /** The seniors step: the shift whose seniors are DMed. */
  shift?: string;
  /** The steps of the episode done before this one, as recorded (oldest first): the post says what they did, nothing more. */
  before?: EscalationLine[];
  /** A step of the ladder resumed after it was taken: still open after its follow-up, or handed back. */
  again?: 'followup' | 'hand-back';
  /** A repeat of the ladder's last step (its post says "again", and which of how many). */
  repeat?: { n: number; of: number };
}

/** A setting the ladder needed and did not have, for the admins' one notice of it. */
export interface EscalationGap {
  missing: 'seniors' | 'managers-channel';
  /** The shift on with no seniors named (missing: seniors). */
  shift?: string;
  /** What the ladder did instead: the next step it went on to, and the managers' channel when that is it. */
  next: 'thread' | 'seniors' | 'managers' | null;
  managersChannel?: string;
  /** The action that first met the gap, and when (the app's clock). */
  actionNo: string | null;
  actionId: string;
  at: Date;
}
