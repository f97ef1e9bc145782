/**
 * One evidence row per action (pure): when it was created, due and completed, who completed it and
 * through what, and how late. Lateness is worked out from instants (milliseconds since the epoch), never
 * from wall clocks, so an action due at 01:30 BST and completed at 01:30 GMT is an hour late.
 */

/** Through what an action was completed: Slack (a person, the audit says), the care system's web app, the care system itself. */
export type CompletedThrough = 'slack' | 'web-app' | 'care-system' | 'unknown';

/** What the app knows of one completion (from the audit log and the action's tag). */
export type CompletionSource = { through: 'slack'; slackUserId: string } | { through: 'web-app' | 'care-system' | 'unknown' };

export type Timeliness =
  | { kind: 'on-time' }
  | { kind: 'late'; minutesLate: number }
  | { kind: 'open-overdue'; minutesOverdue: number }
  | { kind: 'open' }
  /** No due time (the care system requires one; kept for bad data). */
  | { kind: 'no-due' };

export interface EvidenceAction {
  id: string;
  number: string;
  locationId: string | null;
  /** Instants (ms); null when the care system gave none. */
  created: number | null;
  due: number | null;
  completed: number | null;
  /** The care system's own tag of an action it made itself (e.g. a care plan review). */
  tag: string | null;
  task: string | null;
}

export interface EvidenceRow {
  number: string;
  location: string;
  created: number | null;
  due: number | null;
  completed: number | null;
  /** A person's name, "the care system", "unknown", or '' while open. */
  completedBy: string;
  through: CompletedThrough | null;
  timeliness: Timeliness;
  task: string | null;
}

const MINUTE = 60_000;

/** Whole minutes late (a part-minute late counts as a minute: 30 s late is late). */
const minutesAfter = (later: number, earlier: number) => Math.ceil((later - earlier) / MINUTE);

/** On time: completed at or before the due instant. Open: overdue once the due instant has passed. */
export function timelinessOf(due: number | null, completed: number | null, now: number): Timeliness {
  if (due === null) return { kind: 'no-due' };
  if (completed !== null) return completed <= due ? { kind: 'on-time' } : { kind: 'late', minutesLate: minutesAfter(completed, due) };
  return now > due ? { kind: 'open-overdue', minutesOverdue: minutesAfter(now, due) } : { kind: 'open' };
}

/**
 * Who completed it, and through what:
 * - an audit row of a completion through Slack at this completion time: that person (by name), Slack;
 * - else an action the care system made itself (`tag` set): "the care system", the care system;
 * - else (the web app, or anything the app never saw): "unknown", the web app.
 */
export function completionOf(
  action: Pick<EvidenceAction, 'completed' | 'tag'>,
  source: CompletionSource | undefined,
  nameOf: (slackUserId: string) => string,
): { completedBy: string; through: CompletedThrough | null } {
  if (action.completed === null) return { completedBy: '', through: null };
  if (source?.through === 'slack') return { completedBy: nameOf(source.slackUserId), through: 'slack' };
  if (source?.through === 'care-system' || (source === undefined && action.tag)) return { completedBy: 'the care system', through: 'care-system' };
  if (source?.through === 'unknown') return { completedBy: 'unknown', through: 'unknown' };
  return { completedBy: 'unknown', through: 'web-app' };
}

export function evidenceRows(
  actions: readonly EvidenceAction[],
  deps: {
    now: number;
    locationName: (id: string | null) => string;
    sourceOf: (actionId: string) => CompletionSource | undefined;
    nameOf: (slackUserId: string) => string;
  },
): EvidenceRow[] {
  return actions.map((a) => ({
    number: a.number,
    location: deps.locationName(a.locationId),
    created: a.created,
    due: a.due,
    completed: a.completed,
    ...completionOf(a, deps.sourceOf(a.id), deps.nameOf),
    timeliness: timelinessOf(a.due, a.completed, deps.now),
    task: a.task,
  }));
}
