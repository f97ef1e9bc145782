/**
 * What the changes poll saw happen in the care system (not through Slack),
 * written to the audit log so an action's history can show it "in the care
 * system": completed, reopened, assigned to someone new, made urgent. Ids,
 * people and times only, never task text. Idempotent: the poll's overlap
 * re-reads the same versions, and an observation already written (or a change
 * made through Slack that explains it) is not written again.
 */
import type { Action } from '../../care/index.js';
import type { AuditEntry, WorkspaceStore } from '../../store/index.js';
import { parseApiDateTime } from '../../time/slack-date.js';
import { assignmentCursor, parseAssignment } from '../notices/assignment-notices.js';
import { parseUrgency, urgencyCursor } from '../urgent/urgent-alerts.js';

/** The audit user of an observation: nobody in Slack (the care system, or someone in its web app). */
export const CARE_SYSTEM_USER = '';

/** The verbs the changes poll writes (details: `at`, the care system's time of the change, and what it became). */
export const SEEN_VERBS = {
  /** `{ completed, at, generated? }`: `generated`, an action the care system generated (it completes those itself). */
  complete: 'seen.complete',
  /** `{ completed, at }`: the completion that was undone. */
  reopen: 'seen.reopen',
  /** `{ from, to, at }`: care user Ids (null: nobody). */
  assign: 'seen.assign',
  /** `{ at }`. */
  urgent: 'seen.urgent',
} as const;

const COMPLETE_VERBS = new Set(['action.complete', SEEN_VERBS.complete]);
const OPEN_VERBS = new Set(['action.reopen', SEEN_VERBS.reopen]);

const timeOf = (v: unknown) => (typeof v === 'string' ? (parseApiDateTime(v)?.getTime() ?? null) : null);

/**
 * The observations this version of the action brings, given its audit rows (newest first) and what the
 * app remembered of its assignee and urgency before this version was worked. Pure.
 */
export function observationsOf(
  action: Action,
  rows: AuditEntry[],
  remembered: { assignee: { to: string | null; seen: string } | null; urgent: { urgent: boolean; seen: string } | null },
): { verb: string; details: Record<string, unknown> }[] {
  const out: { verb: string; details: Record<string, unknown> }[] = [];
  const modified = action.modified ?? null;
  const newer = (seen: string) => (timeOf(modified) ?? 0) > (timeOf(seen) ?? 0);
  const completed = timeOf(action.completed);
  if (completed !== null) {
    const known = rows.some((r) => COMPLETE_VERBS.has(r.verb) && timeOf(r.details.completed) === completed);
    if (!known)
      out.push({ verb: SEEN_VERBS.complete, details: { completed: action.completed, at: action.completed, ...(action.tag ? { generated: true } : {}) } });
  } else {
    // Reopened: the newest completion-or-reopen the app knows of is a completion.
    const last = rows.find((r) => COMPLETE_VERBS.has(r.verb) || OPEN_VERBS.has(r.verb));
    if (last && COMPLETE_VERBS.has(last.verb) && (timeOf(modified) ?? 0) > (timeOf(last.details.completed) ?? 0)) {
      out.push({ verb: SEEN_VERBS.reopen, details: { completed: last.details.completed ?? null, at: modified } });
    }
  }
  const to = action.assigned_to ?? null;
  if (remembered.assignee && remembered.assignee.to !== to && newer(remembered.assignee.seen)) {
    out.push({ verb: SEEN_VERBS.assign, details: { from: remembered.assignee.to, to, at: modified } });
  }
  if (remembered.urgent && !remembered.urgent.urgent && action.urgent && !action.completed && newer(remembered.urgent.seen)) {
    out.push({ verb: SEEN_VERBS.urgent, details: { at: modified } });
  }
  return out;
}

export interface CareObservations {
  /** Called by the changes poll for each version it reads, before the assignment and urgency memories move on. */
  observe(action: Action): Promise<number>;
}

export function createCareObservations(deps: { store: WorkspaceStore; teamId: () => Promise<string> }): CareObservations {
  return {
    async observe(action) {
      const teamId = await deps.teamId();
      const [rows, assignment, urgency] = await Promise.all([
        deps.store.listAudit({ actionId: action._id, limit: 200 }),
        deps.store.getCursor(assignmentCursor(action._id)),
        deps.store.getCursor(urgencyCursor(action._id)),
      ]);
      const a = parseAssignment(assignment);
      const u = parseUrgency(urgency);
      const seen = observationsOf(
        action,
        rows.filter((r) => r.teamId === teamId),
        { assignee: a ? { to: a.to, seen: a.seen } : null, urgent: u ? { urgent: u.since !== null, seen: u.seen } : null },
      );
      for (const o of seen) await deps.store.appendAudit({ userId: CARE_SYSTEM_USER, verb: o.verb, actionId: action._id, details: o.details });
      return seen.length;
    },
  };
}
