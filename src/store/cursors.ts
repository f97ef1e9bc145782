/** Job cursors: a named string a job resumes from (e.g. the last `modified` seen). */
import type { Ctx } from './db.js';
import { str } from './db.js';

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
