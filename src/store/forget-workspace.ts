/**
 * A workspace uninstalled: every row of it deleted but its audit, in one
 * transaction; the audit rows kept with no Slack user Id in them (who did each
 * thing is removed; what was done, to which action, and when stays, as
 * anonymous evidence). Another workspace's rows are never touched: each
 * statement names the workspace exactly (a team Id, a recipient's team, or a
 * cursor, lease or key's `@<team>` / `:<team>` suffix; T1 never matches T12).
 *
 * Left behind, because they name no workspace: the replay memory's hashed
 * request signatures and Slack event Ids (gone within the hour as they expire).
 */
import type { Ctx, Db, Param } from './db.js';
import { json, num } from './db.js';
import { recipientTeamWhere } from './recipient-team.js';

export interface ForgottenCounts {
  /** Rows deleted, by table. */
  deleted: Record<string, number>;
  /** Audit rows kept, with their user Ids removed. */
  auditAnonymised: number;
}

/** A Slack user (U…/W…) or bot (B…) Id, alone or in a mention: what an anonymous audit row must not hold. */
const SLACK_ID = /\b[UWB][A-Z0-9]{6,}\b/g;

/** The details with every Slack user Id in them removed (strings rewritten, structure kept). */
export function withoutSlackIds(value: unknown): unknown {
  if (typeof value === 'string') return value.replace(SLACK_ID, '');
  if (Array.isArray(value)) return value.map(withoutSlackIds);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withoutSlackIds(v)]));
  return value;
}

function suffixScope(db: Db, column: string, teamId: string): { sql: string; params: Param[] } {
  const len = db.kind === 'postgres' ? 'char_length' : 'length';
  const at = `@${teamId}`;
  const colon = `:${teamId}`;
  const n = Array.from(at).length;
  return {
    sql: `(substr(${column}, ${len}(${column}) - ? + 1) = ? OR substr(${column}, ${len}(${column}) - ? + 1) = ?)`,
    params: [n, at, n, colon],
  };
}

export async function forgetWorkspace(ctx: Ctx, workspaceId: string): Promise<ForgottenCounts> {
  return ctx.db.transaction(async (db) => {
    const deleted: Record<string, number> = {};
    const w = workspaceId;
    for (const table of ['identity_links', 'link_requests', 'channel_subscriptions', 'group_routes', 'summary_settings']) {
      deleted[table] = await db.run(`DELETE FROM ${table} WHERE team_id = ?`, [w]);
    }
    const r = recipientTeamWhere(db.kind, w);
    deleted.deliveries = await db.run(`DELETE FROM deliveries WHERE ${r.sql}`, r.params);
    const cursors = suffixScope(db, 'name', w);
    deleted.job_cursors = await db.run(`DELETE FROM job_cursors WHERE ${cursors.sql}`, cursors.params);
    deleted.job_leases = await db.run(`DELETE FROM job_leases WHERE ${cursors.sql}`, cursors.params);
    const keys = suffixScope(db, 'request_key', w);
    deleted.seen_requests = await db.run(`DELETE FROM seen_requests WHERE ${keys.sql}`, keys.params);
    deleted.workspace_settings = await db.run('DELETE FROM workspace_settings WHERE workspace_id = ?', [w]);
    deleted.care_connections = await db.run('DELETE FROM care_connections WHERE workspace_id = ?', [w]);
    // A team's installation, or the org-wide one of an enterprise (never a team's install inside that enterprise).
    deleted.slack_installations = await db.run(
      'DELETE FROM slack_installations WHERE (is_enterprise_install = ? AND enterprise_id = ?) OR (is_enterprise_install = ? AND team_id = ?)',
      [true, w, false, w],
    );

    let auditAnonymised = 0;
    for (const row of await db.all('SELECT id, user_id, details FROM audit_log WHERE team_id = ? ORDER BY id', [w])) {
      const details = JSON.stringify(withoutSlackIds(json(row.details) ?? {}));
      auditAnonymised += await db.run('UPDATE audit_log SET user_id = ?, details = ? WHERE id = ?', ['', details, num(row.id)]);
    }
    return { deleted, auditAnonymised };
  });
}
