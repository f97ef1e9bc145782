import type { Shift } from '../time/shifts.js';
import type { ActionGroup, ActionView, RenderContext } from './action-model.js';
import type { OutgoingMessage } from './delivery.js';

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
 * are passed in (see compose.ts), so nothing under services imports Slack views.
 */
export interface MessageRenderers {
  completionNotice(a: ActionView, ctx: RenderContext, groups: string[]): OutgoingMessage;
  urgentAlert(a: ActionView, ctx: RenderContext): OutgoingMessage;
  /** A DM to whoever created the action through Slack: it was completed (the view says by whom). */
  creatorNotice(a: ActionView, ctx: RenderContext): OutgoingMessage;
  /** A DM to an action's new assignee; `by`: the Slack user who assigned it, null when made in the care system. */
  assignmentNotice(a: ActionView, ctx: RenderContext, assignment: { by: string | null }): OutgoingMessage;
  /** A DM to an action's assignee: someone else (`by`, a Slack user) completed, reopened, took or snoozed it (or undid their snooze) through Slack. */
  changeNotice(a: ActionView, ctx: RenderContext, change: { kind: 'complete' | 'reopen' | 'take' | 'snooze' | 'unsnooze'; by: string }): OutgoingMessage;
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
}

/** One escalation step shown on the alert: where it went and when. */
export interface EscalationLine {
  step: 'thread' | 'seniors' | 'managers';
  /** Slack user ids (seniors) or channel ids (thread, managers). */
  to: string[];
  at: Date;
}

/** What an escalation message says besides the action: which step, how long unanswered, where. */
export interface EscalationInfo {
  step: 'thread' | 'seniors' | 'managers';
  unansweredMinutes: number;
  location: string | null;
}
