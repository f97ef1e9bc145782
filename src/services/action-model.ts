/**
 * The domain model of an action as the app shows and changes it, below Slack:
 * view models, references, the form's value, and the due-time grouping used by
 * lists, the Home tab and digests. Pure: no I/O, no imports of other services.
 */
import { dueWindow, inWindow } from '../time/due-windows.js';

/**
 * The attributes the app reads of an action anywhere (views, notices, alerts,
 * digests, the changes poll): one list, so one poll's reads serve every use.
 */
export const ACTION_ATTRIBUTES = [
  '_id',
  'action_no',
  'task',
  'due',
  'urgent',
  'completed',
  'assigned_to',
  'modified',
  'notify_on_complete',
  'location',
] as const;

/** What the views need to know about an action, already resolved for display. */
export interface ActionView {
  id: string;
  actionNo: string | null;
  task: string | null;
  due: Date | null;
  urgent: boolean;
  completed: Date | null;
  /**
   * Slack user to mention when the assignee is linked, with their Slack name (`slackName`, for plain
   * text such as a confirmation dialog) when Slack told it; otherwise the care user's name if known.
   * `careUserId`: who it is in the care system, when read from it.
   */
  assignee: { slackUserId?: string; slackName?: string; name?: string; careUserId?: string } | null;
  /** The action in the care system's own web app, when CARE_WEB_URL is set (see care-web-link.ts). */
  careUrl?: string;
  /**
   * Who completed it, when it was completed through Slack (the app's audit log,
   * matched by completion time). Absent: completed in the care system (or open).
   */
  completedBy?: { slackUserId: string };
}

/** A labelled run of actions in a list ("Overdue", "Due today", …). */
export interface ActionGroup {
  label: string;
  actions: ActionView[];
}

/** How a person names one action: its care Id or its action number. */
export type ActionRef = { type: 'id'; id: string } | { type: 'no'; no: string };

export interface ReminderValue {
  method: string;
  offset_type: 'none' | 'delta' | 'time';
  offset_delta?: number;
  offset_time_str?: string;
}

/** A validated create/edit form, in care terms (the assignee as a care user: anyone on the rota, in Slack or not). */
export interface ActionFormValue {
  task: string;
  due: Date;
  assigneeCareUserId: string | null;
  urgent: boolean;
  pin: 'location' | 'user' | null;
  notify: string[];
  reminders: ReminderValue[];
  subject: { type: 'care_enquiry' | 'service_user'; id: string } | null;
}

/** The form fields a refusal can belong to (the Slack form maps them onto its inputs). */
export type ActionField = 'task' | 'due' | 'assignee' | 'urgent' | 'pin' | 'notify' | 'subject';

/** How to show actions where a message goes: when "now" is, the reader's zone, and whether task text may appear. */
export interface RenderContext {
  now: Date;
  /** Zone for fallback text of date tokens. */
  timezone: string;
  /** Whether task text may be shown where this is posted. */
  showTask: boolean;
  /**
   * Posted where many people see it (a channel message, not an ephemeral
   * answer, a DM or the Home tab): Complete and Reopen ask first, and where the
   * task text is hidden the post offers View instead of Complete.
   */
  shared?: boolean;
}

export const isOverdue = (a: ActionView, now: Date) => !a.completed && a.due !== null && a.due.getTime() < now.getTime();

/** Urgent first, then by due time (no due time last). */
export function byUrgencyThenDue(a: ActionView, b: ActionView): number {
  if (a.urgent !== b.urgent) return a.urgent ? -1 : 1;
  return (a.due?.getTime() ?? Infinity) - (b.due?.getTime() ?? Infinity);
}

/** Open actions by when they are due, in one time zone. Each action is in at most one bucket. */
export interface DueBuckets {
  /** Due before now. */
  overdue: ActionView[];
  /** Due later today (local day). */
  today: ActionView[];
  /** Due after today, within the next 7 local days. */
  nextWeek: ActionView[];
}

/** Sort (urgent first, then due) and split into overdue / today / next 7 days; the rest is left out. */
export function bucketByDue(views: ActionView[], now: Date, tz: string): DueBuckets {
  const overdue = dueWindow('overdue', now, tz);
  const today = dueWindow('today', now, tz);
  const week = dueWindow('week', now, tz);
  const buckets: DueBuckets = { overdue: [], today: [], nextWeek: [] };
  for (const v of [...views].sort(byUrgencyThenDue)) {
    if (!v.due) continue;
    if (inWindow(v.due, overdue)) buckets.overdue.push(v);
    else if (inWindow(v.due, today)) buckets.today.push(v);
    else if (inWindow(v.due, week)) buckets.nextWeek.push(v);
  }
  return buckets;
}

/** What a digest or a morning summary shows: overdue, due today, and urgent ones due later this week. */
export interface AttentionList {
  /** "Monday 23 November" in the zone. */
  title: string;
  overdue: number;
  today: number;
  urgent: number;
  groups: ActionGroup[];
}

export function attentionList(views: ActionView[], now: Date, tz: string): AttentionList {
  const { overdue, today, nextWeek } = bucketByDue(views, now, tz);
  const urgentLater = nextWeek.filter((v) => v.urgent);
  return {
    title: new Intl.DateTimeFormat('en-GB', { timeZone: tz, weekday: 'long', day: 'numeric', month: 'long' }).format(now),
    overdue: overdue.length,
    today: today.length,
    urgent: [...overdue, ...today, ...urgentLater].filter((v) => v.urgent).length,
    groups: [
      { label: ':warning: Overdue', actions: overdue },
      { label: ':calendar: Due today', actions: today },
      { label: ':rotating_light: Urgent, due this week', actions: urgentLater },
    ],
  };
}
