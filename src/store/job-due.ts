/**
 * When each workspace's scheduled job kinds next have work (migration 014, `job_due`): the scheduler finds
 * the workspaces due with one query per tick, and a run writes its next due time as it ends.
 */
import type { Ctx } from './db.js';
import { str } from './db.js';

/** The workspaces whose `kind` is not due at `now` (every other workspace is: no row, or its time has come). */
export async function notDue(ctx: Ctx, kind: string, now: number): Promise<Set<string>> {
  const rows = await ctx.db.all('SELECT team_id FROM job_due WHERE kind = ? AND due_at > ?', [kind, now]);
  return new Set(rows.map((r) => str(r.team_id)));
}

/** A run of `kind` for the workspace begins: its row (made due if it had none) notes the run's token. */
export async function beginDueRun(ctx: Ctx, teamId: string, kind: string, token: string): Promise<void> {
  await ctx.db.run(
    `INSERT INTO job_due (kind, team_id, due_at, run_by) VALUES (?, ?, 0, ?)
     ON CONFLICT (kind, team_id) DO UPDATE SET run_by = excluded.run_by`,
    [kind, teamId, token],
  );
}

/**
 * The run with `token` ended well: the kind is next due at `dueAt`. False (and the workspace stays due) when
 * its row changed meanwhile: let go by a change (the triggers) or taken by another run.
 */
export async function endDueRun(ctx: Ctx, teamId: string, kind: string, token: string, dueAt: number): Promise<boolean> {
  return (await ctx.db.run('UPDATE job_due SET due_at = ?, run_by = NULL WHERE kind = ? AND team_id = ? AND run_by = ?', [dueAt, kind, teamId, token])) > 0;
}
