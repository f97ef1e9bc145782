/**
 * One action of a reassign run (or of its Undo) moved from one care user to another: read again just
 * before, so one deleted, completed or given to someone else meanwhile is left (and said why); the
 * per-action assignment DM kept quiet (the run's summary tells the people instead); audited by action.
 */
import { type Action, type CareClient, NotFoundError } from '../../care/index.js';
import type { Logger } from '../../logging/logger.js';
import type { WorkspaceStore } from '../../store/index.js';
import type { AssignmentNotices } from '../notices/assignment-notices.js';
import type { Actor } from '../people/identity.js';
import { sameActionAssignedTo } from '../actions/keep-action.js';
import type { MovedAction } from './reassign-types.js';

export type MoveOutcome = { moved: true; action: MovedAction } | { moved: false; action: MovedAction; why: string };

export interface MoveDeps {
  care: CareClient;
  store: Pick<WorkspaceStore, 'appendAudit'>;
  assignments: Pick<AssignmentNotices, 'quietly'>;
  logger: Logger;
}

export interface MoveRequest {
  planned: MovedAction;
  from: string;
  to: string;
  /** The audit's verb and the run it belongs to. */
  verb: string;
  run: string;
  /** How a change since is said: "meanwhile" (a run) or "since the reassignment" (its Undo). */
  since: string;
}

const label = (a: Pick<Action, '_id' | 'action_no'>): MovedAction => ({ id: a._id, no: a.action_no ?? null });

export async function moveOne(deps: MoveDeps, admin: Actor, req: MoveRequest): Promise<MoveOutcome> {
  const { care, logger } = deps;
  const id = req.planned.id;
  let current: Action | null = null;
  try {
    current = await care.actions.retrieve(id);
    if (current.completed) return { moved: false, action: label(current), why: `completed ${req.since}` };
    const assignee = current.assigned_to ?? null;
    if (assignee === req.to) return { moved: true, action: label(current) };
    if (assignee !== req.from) return { moved: false, action: label(current), why: `given to someone else ${req.since}` };
    const update = sameActionAssignedTo(current, req.to);
    if (!update) return { moved: false, action: label(current), why: 'it has no due time (change it in the care system)' };
    // Told in the one summary, not action by action: the assignment is remembered as already told.
    const undo = await deps.assignments.quietly(current, req.to, admin.userId);
    let moved: Action;
    try {
      moved = (await care.actions.update(id, update)) ?? (await care.actions.retrieve(id));
    } catch (err) {
      await undo.restore();
      throw err;
    }
    await undo.settled(moved).catch((err) => logger.warn('could not remember a reassigned action as told', { actionId: id, error: err }));
    await deps.store.appendAudit({
      userId: admin.userId,
      verb: req.verb,
      actionId: id,
      details: { from: req.from, to: req.to, run: req.run },
    });
    return { moved: true, action: label(current) };
  } catch (err) {
    const why = err instanceof NotFoundError ? 'deleted in the care system' : 'the care system did not take the change; try it again';
    if (!(err instanceof NotFoundError)) logger.warn('a reassignment failed', { actionId: id, error: err });
    return { moved: false, action: { id, no: current?.action_no ?? req.planned.no }, why };
  }
}
