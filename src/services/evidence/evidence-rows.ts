/**
 * One evidence row per action (pure): when it was created, first due, due at completion and completed,
 * who completed it and through what, and how late. Lateness is measured from the first due time the app
 * saw (a snooze or a due edit never makes late work on time), from instants (milliseconds since the
 * epoch), never from wall clocks, so an action due at 01:30 BST and completed at 01:30 GMT is an hour late.
 */
import type { EpisodeAnswerKind } from '../../store/index.js';

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
  /** The due time now (at completion, for a completed action). */
  due: number | null;
  /** The first due time the app saw (its first look, the poll, or as created through Slack); else the due time now. */
  firstDue: number | null;
  /** How many times the due time changed after the first (snoozes, due edits), as the app saw them. */
  reschedules: number;
  /** The care user it is assigned to (null: nobody). */
  assignedTo: string | null;
  urgent: boolean;
  /** About a safeguarding concern (a named tag or notification group on it: safeguarding.ts). */
  safeguarding?: boolean;
  completed: number | null;
  /** The care system's own tag of an action it made itself (e.g. a care plan review). */
  tag: string | null;
  task: string | null;
  /** The care system's action tags on it (`user_tags`): whether it needs two staff. */
  userTags?: readonly string[];
}

/** A note kept with a completion or a take (action-notes.ts), as the file says it: only with task text. */
export interface EvidenceNote {
  /** When it was written (ms). */
  at: number;
  /** Who wrote it (their Slack name). */
  by: string;
  /** What it went with: `complete`, `take`… */
  verb: string;
  text: string;
}

/** One answer as the file says it: names already looked up, no note. */
export interface EvidenceAnswer {
  at: number;
  /** Who answered (their Slack name). */
  by: string;
  answer: EpisodeAnswerKind;
  /** "I'm on it" said for someone else: who is doing it (their Slack name). */
  doer?: string | undefined;
  /** "I can't": the reason code (answer-policy.ts CANT_REASONS). */
  reason?: string | null | undefined;
  undoneAt: number | null;
}

/** Who was on a two-person action (by name, the taker first) and how many it needed. */
export interface EvidenceStaff {
  names: readonly string[];
  needed: number;
}

export interface EvidenceRow {
  number: string;
  location: string;
  created: number | null;
  firstDue: number | null;
  /** The due time at completion (open: the due time now). */
  due: number | null;
  completed: number | null;
  reschedules: number;
  /** The assignee's name in the care system ('' when nobody's). */
  assignedTo: string;
  urgent: boolean;
  /** About a safeguarding concern (a named tag or notification group on it: safeguarding.ts). */
  safeguarding?: boolean;
  /** A person's name, "the care system", "unknown", or '' while open. */
  completedBy: string;
  through: CompletedThrough | null;
  timeliness: Timeliness;
  task: string | null;
  /** The answers to its urgent episodes (on it, can't, joined), oldest first: who, when, the reason's words; never a note. */
  answers?: readonly EvidenceAnswer[];
  /** A two-person action: who was on it (absent: not a two-person action). */
  staff?: EvidenceStaff | null;
  /** The action's notes, oldest first (absent: not read, as without task text). */
  notes?: readonly EvidenceNote[];
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
    /** A care user's name ('unknown' when the care system has none for them). */
    careNameOf: (careUserId: string) => string;
    /** The action's notes (only with task text: a note may name a resident). */
    notesOf?: (actionId: string) => readonly EvidenceNote[];
    /** The answers to its urgent episodes (no notes). */
    answersOf?: (actionId: string) => readonly EvidenceAnswer[];
    /** Who was on it, for a two-person action; null otherwise. */
    staffOf?: (actionId: string) => EvidenceStaff | null;
  },
): EvidenceRow[] {
  return actions.map((a) => ({
    number: a.number,
    location: deps.locationName(a.locationId),
    created: a.created,
    firstDue: a.firstDue,
    due: a.due,
    completed: a.completed,
    reschedules: a.reschedules,
    assignedTo: a.assignedTo ? deps.careNameOf(a.assignedTo) : '',
    urgent: a.urgent,
    safeguarding: a.safeguarding === true,
    ...completionOf(a, deps.sourceOf(a.id), deps.nameOf),
    timeliness: timelinessOf(a.firstDue, a.completed, deps.now),
    task: a.task,
    ...(deps.answersOf ? { answers: deps.answersOf(a.id) } : {}),
    ...(deps.staffOf ? { staff: deps.staffOf(a.id) } : {}),
    ...(deps.notesOf ? { notes: deps.notesOf(a.id) } : {}),
  }));
}
