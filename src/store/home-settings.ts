/**
 * A care home's named settings (shifts, handover channels, escalation...), one
 * JSON text each, per scope: the workspace's Slack team id.
 * Setting null removes one (its default applies again).
 */
import type { Ctx, Row } from './db.js';
import { num, str, strOrNull } from './db.js';
import type { HomeSetting } from './types.js';

const COLUMNS = 'scope, name, value, updated_by, updated_at';

const toSetting = (row: Row): HomeSetting => ({
  name: str(row.name),
  value: str(row.value),
  updatedBy: strOrNull(row.updated_by),
  updatedAt: num(row.updated_at),
});

export async function getHomeSetting(ctx: Ctx, scope: string, name: string): Promise<HomeSetting | null> {
  const row = await ctx.db.get(`SELECT ${COLUMNS} FROM home_settings WHERE scope = ? AND name = ?`, [scope, name]);
  return row ? toSetting(row) : null;
}

export async function listHomeSettings(ctx: Ctx, scope: string): Promise<HomeSetting[]> {
  const rows = await ctx.db.all(`SELECT ${COLUMNS} FROM home_settings WHERE scope = ? ORDER BY name`, [scope]);
  return rows.map(toSetting);
}

export async function setHomeSetting(ctx: Ctx, scope: string, name: string, value: string | null, updatedBy: string | null): Promise<void> {
  if (value === null) {
    await ctx.db.run('DELETE FROM home_settings WHERE scope = ? AND name = ?', [scope, name]);
    return;
  }
  await ctx.db.run(
    `INSERT INTO home_settings (${COLUMNS}) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (scope, name) DO UPDATE SET value = excluded.value, updated_by = excluded.updated_by, updated_at = excluded.updated_at`,
    [scope, name, value, updatedBy, ctx.now()],
  );
}
