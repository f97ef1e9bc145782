/**
 * What a handover post says, before it is rendered: what the outgoing shift
 * completed (and who), what is still open from it (overdue, urgent,
 * unassigned, due in the next shift) and what is new since the last handover
 * (created during the outgoing shift). Pure policy: counts, and the few items
 * that matter most in each part (a handover post stays within Slack's limits
 * however busy the shift was).
 */
import { byUrgencyThenDue, type ActionView } from '../action-model.js';

/** Items listed per part; the rest are counted. */
export const HANDOVER_TOP = 5;

/** The two shifts a handover is between (the outgoing one ends when the incoming one starts). */
export interface HandoverShifts {
  outgoing: { name: string; startsAt: Date };
  incoming: { name: string; startsAt: Date; endsAt: Date; id: string };
}

/** An action completed during the outgoing shift: by a Slack person (the audit), or in the care system's web app. */
export interface HandoverCompleted {
  action: ActionView;
  /** The Slack user who completed it through Slack; null: in the care system (web app). */
  by: string | null;
}

export interface HandoverPart<T> {
  total: number;
  /** The first HANDOVER_TOP, most pressing first. */
  top: T[];
}

/** Why an open action is in the handover (each open action once, under its first reason). */
export type OpenReason = 'overdue' | 'urgent' | 'unassigned' | 'next-shift';

export interface HandoverContent {
  shifts: HandoverShifts;
  completed: HandoverPart<HandoverCompleted>;
  open: HandoverPart<ActionView> & { overdue: number; urgent: number; unassigned: number; nextShift: number };
  created: HandoverPart<ActionView>;
}

const inside = (t: Date | null, from: Date, to: Date) => t !== null && t.getTime() >= from.getTime() && t.getTime() < to.getTime();

/** Why an open action belongs to the handover at the shift change, or null (not the incoming shift's concern yet). */
export function openReason(v: ActionView, shifts: HandoverShifts): OpenReason | null {
  if (v.completed) return null;
  const change = shifts.incoming.startsAt;
  if (v.due && v.due.getTime() < change.getTime()) return 'overdue';
  if (v.urgent) return 'urgent';
  if (inside(v.due, change, shifts.incoming.endsAt)) return v.assignee ? 'next-shift' : 'unassigned';
  return null;
}

/**
 * `open`: open actions (overdue, urgent and due this week included); `changed`: actions modified since the
 * outgoing shift began, with when they were created (completed ones carry their completer, if through Slack).
 */
export function handoverContent(shifts: HandoverShifts, open: ActionView[], changed: { view: ActionView; created: Date | null }[]): HandoverContent {
  const from = shifts.outgoing.startsAt;
  const to = shifts.incoming.startsAt;
  const completed = changed
    .filter((c) => inside(c.view.completed, from, to))
    .map((c) => ({ action: c.view, by: c.view.completedBy?.slackUserId ?? null }))
    .sort((a, b) => (a.action.completed?.getTime() ?? 0) - (b.action.completed?.getTime() ?? 0));
  const reasons = open.map((v) => ({ v, reason: openReason(v, shifts) })).filter((x) => x.reason !== null);
  const stillOpen = reasons.map((x) => x.v).sort(byUrgencyThenDue);
  const countOf = (r: OpenReason) => reasons.filter((x) => x.reason === r).length;
  const created = changed
    .filter((c) => inside(c.created, from, to))
    .map((c) => c.view)
    .sort(byUrgencyThenDue);
  return {
    shifts,
    completed: { total: completed.length, top: completed.slice(0, HANDOVER_TOP) },
    open: {
      total: stillOpen.length,
      top: stillOpen.slice(0, HANDOVER_TOP),
      overdue: countOf('overdue'),
      urgent: stillOpen.filter((v) => v.urgent).length,
      unassigned: stillOpen.filter((v) => !v.assignee).length,
      nextShift: stillOpen.filter((v) => inside(v.due, to, shifts.incoming.endsAt)).length,
    },
    created: { total: created.length, top: created.slice(0, HANDOVER_TOP) },
  };
}
