import type { ActionGroup, ActionView, RenderContext } from './action-model.js';
import type { OutgoingMessage } from './delivery.js';

/** What a digest shows, before it is rendered. */
export interface DigestContent {
  title: string; // e.g. "Monday 23 November"
  filterText: string; // e.g. "urgent only", "for @Sophie", "" for all
  overdue: number;
  today: number;
  urgent: number;
  groups: ActionGroup[];
}

/** What a person's own morning summary shows, before it is rendered. */
export interface SummaryContent {
  title: string; // e.g. "Tuesday 15 June"
  overdue: number;
  today: number;
  urgent: number;
  groups: ActionGroup[];
  /** The setting it was sent by, to remind the person how to change it. */
  schedule: { time: string; days: 'weekdays' | 'daily'; timezone: string };
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
  /** A DM to an action's new assignee; `by`: the Slack user who assigned it, null when made in the care system. */
  assignmentNotice(a: ActionView, ctx: RenderContext, assignment: { by: string | null }): OutgoingMessage;
  /** A DM to an action's assignee: someone else (`by`, a Slack user) completed, reopened or took it through Slack. */
  changeNotice(a: ActionView, ctx: RenderContext, change: { kind: 'complete' | 'reopen' | 'take'; by: string }): OutgoingMessage;
  /** Null when there is nothing to post (empty, and the channel asked for quiet). */
  digest(c: DigestContent, ctx: RenderContext, options: { postWhenEmpty: boolean }): RenderedDigest | null;
  /** A person's morning summary DM (a short "nothing due" when empty, so they know it runs). */
  morningSummary(c: SummaryContent, ctx: RenderContext): OutgoingMessage;
}
