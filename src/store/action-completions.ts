/**
 * When each action was completed, as the changes poll saw it, and whether the app's own messages about it
 * have been redacted (retention, issue 28). Keyed by workspace (its Slack team) and action Id.
 */
import type { Ctx } from './db.js';
import { num, str } from './db.js';

export interface ActionCompletion {
  actionId: string;
  /** The action's number as people know it ('' when it has none): the neutral line names it. */
  actionNo: string;
  /** The care action's `completed` (ms since the epoch). */
  completedAt: number;
}

/**
 * Remember that an action is completed, or with null that it is open again. A new completion time starts
 * its redaction afresh; the same one changes nothing. Reopened: the row goes unless its messages were
 * redacted already (those stay redacted; a later completion is remembered anew).
 */
export async function noteCompletion(
  ctx: Ctx,
  workspaceId: string,
  actionId: string,
  completion: { actionNo: string; completedAt: number } | null,
): Promise<void> {
  if (completion === null) {
    await ctx.db.run('DELETE FROM action_completions WHERE workspace_id = ? AND action_id = ? AND redacted_at IS NULL', [workspaceId, actionId]);
    return;
  }
  await ctx.db.run(
    `INSERT INTO action_completions (workspace_id, action_id, action_no, completed_at, redacted_at) VALUES (?, ?, ?, ?, NULL)
     ON CONFLICT (workspace_id, action_id) DO UPDATE SET action_no = excluded.action_no, completed_at = excluded.completed_at, redacted_at = NULL
     WHERE action_completions.completed_at <> excluded.completed_at`,
    [workspaceId, actionId, completion.actionNo, completion.completedAt],
  );
}

/** Completions at or before `completedBefore` (ms) whose messages are not all redacted yet, oldest first. */
export async function dueRedactions(ctx: Ctx, workspaceId: string, completedBefore: number, limit = 200): Promise<ActionCompletion[]> {
  const rows = await ctx.db.all(
    `SELECT action_id, action_no, completed_at FROM action_completions
     WHERE workspace_id = ? AND redacted_at IS NULL AND completed_at <= ? ORDER BY completed_at, action_id LIMIT ?`,
    [workspaceId, completedBefore, Math.max(1, Math.min(limit, 1000))],
  );
  return rows.map((r) => ({ actionId: str(r.action_id), actionNo: str(r.action_no), completedAt: num(r.completed_at) }));
}

/** Every message of this completion is redacted: true for the one caller that marked it (it writes the audit row). */
export async function markRedacted(ctx: Ctx, workspaceId: string, completion: Pick<ActionCompletion, 'actionId' | 'completedAt'>): Promise<boolean> {
  const changed = await ctx.db.run(
    'UPDATE action_completions SET redacted_at = ? WHERE workspace_id = ? AND action_id = ? AND completed_at = ? AND redacted_at IS NULL',
    [ctx.now(), workspaceId, completion.actionId, completion.completedAt],
  );
  return changed > 0;
}
