/** Job cursors: a named string a job resumes from (e.g. the last `modified` seen). */
import type { Ctx } from './db.js';
import { str } from './db.js';
import { nameTeamWhere } from './recipient-team.js';

export async function getCursor(ctx: Ctx, name: string): Promise<string | null> {
  const row = await ctx.db.get('SELECT value FROM job_cursors WHERE name = ?', [name]);
  return row ? str(row.value) : null;
}

export async function setCursor(ctx: Ctx, name: string, value: string): Promise<void> {
  await ctx.db.run(
    `INSERT INTO job_cursors (name, value, updated_at) VALUES (?, ?, ?)
     ON CONFLICT (name) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
    [name, value, ctx.now()],
  );
}

/** The cursors whose name starts with `prefix` (compared exactly, no wildcard); with `teamId`, only that workspace's (`…@<team>`). */
export async function listCursors(ctx: Ctx, prefix: string, teamId?: string): Promise<{ name: string; value: string }[]> {
  const len = Array.from(prefix).length;
  const team = teamId === undefined ? null : nameTeamWhere(ctx.db.kind, 'name', teamId);
  const rows = await ctx.db.all(`SELECT name, value FROM job_cursors WHERE substr(name, 1, ?) = ?${team ? ` AND ${team.sql}` : ''} ORDER BY name`, [
    len,
    prefix,
    ...(team?.params ?? []),
  ]);
  return rows.map((r) => ({ name: str(r.name), value: str(r.value) }));
}

/** Forget one cursor; true when it was there. */
export async function deleteCursor(ctx: Ctx, name: string): Promise<boolean> {
  return (await ctx.db.run('DELETE FROM job_cursors WHERE name = ?', [name])) > 0;
}
