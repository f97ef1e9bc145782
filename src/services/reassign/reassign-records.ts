/**
 * What a reassign run keeps in the store's cursors (`reassign:<runId>`), and for how long. Pure.
 *
 * - While it is asked and run: the plan (names and Slack Ids, to show and to move exactly what was
 *   confirmed). Never confirmed, or a run that died: dropped a day after it was counted.
 * - When the run ends: only what its Undo needs (who from and to, by care user Id and Slack Id, the
 *   actions moved), until the Undo window ends; nothing when nothing moved. Used Undo: deleted.
 */
import type { MovedAction, ReassignPlan } from './reassign-types.js';

/** Undo of a reassignment works this long after the run ends. */
export const REASSIGN_UNDO_WINDOW_MS = 24 * 3_600_000;
/** A plan not confirmed (or a run that never ended) is dropped this long after it was counted. */
export const PLAN_KEPT_MS = 24 * 3_600_000;

export const reassignRecordName = (runId: string) => `reassign:${runId}`;
export const REASSIGN_RECORD_PREFIX = 'reassign:';

/** One side of a move as its Undo keeps it: no name (read again from the care system when needed). */
export interface UndoSide {
  careUserId: string;
  slackUserId?: string;
}

export interface UndoRecord {
  state: 'undoable';
  from: UndoSide;
  to: UndoSide;
  /** The actions this run moved from `from` to `to`: only these go back. */
  moved: MovedAction[];
  /** Unix ms: Undo works until then. */
  expiresAt: number;
}

export interface KeptPlan {
  state: 'confirming' | 'running';
  plan: ReassignPlan;
  /** Unix ms when it was counted (absent in plans kept before this was recorded). */
  at?: number;
}

export type ReassignRecord = KeptPlan | UndoRecord;

export function parseReassignRecord(raw: string | null): ReassignRecord | null {
  if (!raw) return null;
  try {
    const v = JSON.parse(raw) as {
      state?: string;
      plan?: ReassignPlan;
      at?: unknown;
      from?: UndoSide;
      to?: UndoSide;
      moved?: MovedAction[];
      expiresAt?: unknown;
    };
    if ((v.state === 'confirming' || v.state === 'running') && v.plan && Array.isArray(v.plan.actions))
      return { state: v.state, plan: v.plan, ...(typeof v.at === 'number' ? { at: v.at } : {}) };
    if (v.state === 'undoable' && v.from && v.to && Array.isArray(v.moved) && typeof v.expiresAt === 'number')
      return { state: 'undoable', from: v.from, to: v.to, moved: v.moved, expiresAt: v.expiresAt };
    return null;
  } catch {
    return null;
  }
}

/** What Undo needs of a finished run, or null when nothing moved (nothing to keep). */
export function undoRecordOf(plan: ReassignPlan, moved: MovedAction[], endedAt: number): UndoRecord | null {
  if (!moved.length) return null;
  const side = (p: ReassignPlan['from']): UndoSide => ({ careUserId: p.careUserId, ...(p.slackUserId ? { slackUserId: p.slackUserId } : {}) });
  return { state: 'undoable', from: side(plan.from), to: side(plan.to), moved, expiresAt: endedAt + REASSIGN_UNDO_WINDOW_MS };
}

/** Whether the sweep drops this record now: an Undo past its window, a plan older than a day, or one it cannot read (kept before). */
export function sweptAt(record: ReassignRecord | null, now: number): boolean {
  if (!record) return true;
  if (record.state === 'undoable') return record.expiresAt <= now;
  return record.at === undefined || record.at + PLAN_KEPT_MS <= now;
}
