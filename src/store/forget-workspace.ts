/**
 * A workspace uninstalled: every row of it deleted but its audit, in one
 * transaction; the audit rows kept with no Slack user Id in them (who did each
 * thing is removed; what was done, to which action, and when stays, as
 * anonymous evidence). Another workspace's rows are never touched: each
 * statement names the workspace exactly (a team Id, a recipient's team, or a
 * cursor, lease or key's `@<team>` suffix; T1 never matches T12).
 *
 * Left behind, because they name no workspace: the replay memory's hashed
 * request signatures and Slack event Ids (gone within the hour as they expire).
 */
import type { Ctx, Db } from './db.js';
import { json, num } from './db.js';
import { nameTeamWhere, recipientTeamWhere } from './recipient-team.js';

export interface ForgottenCounts {
  /** Rows deleted, by table. */
  deleted: Record<string, number>;
  /** Audit rows kept, with their user Ids removed. */
  auditAnonymised: number;
}

/** A Slack user (U…/W…) or bot (B…) Id, alone or in a mention: what an anonymous audit row must not hold. */
const SLACK_ID = /\b[UWB](?=[A-Z0-9]*\d)[A-Z0-9]{6,}\b/g;

/** The details with every Slack user Id in them removed (strings rewritten, structure kept). */
export function withoutSlackIds(value: unknown): unknown {
  if (typeof value === 'string') return value.replace(SLACK_ID, '');
  if (Array.isArray(value)) return value.map(withoutSlackIds);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withoutSlackIds(v)]));
  return value;
}

/** The tables a workspace's rows are in (the audit aside): every one is emptied of them. */
export const WORKSPACE_TABLES = [
  'identity_links',
  'link_requests',
  'channel_subscriptions',
  'group_routes',
  'summary_settings',
  'deliveries',
  'job_cursors',
  'job_leases',
  'job_state',
  'seen_requests',
  'seen_events',
  'workspace_settings',
  'care_connections',
  'slack_installations',
  'home_settings',
  'action_completions',
  'action_due_times',
  'action_notes',
  'episode_answers',
  'action_marks',
  'single_workspace',
] as const;

/**
 * `workspaceId` absent: a deployment of one workspace, whose database is that workspace's alone (and the Slack
 * Connect people it served): every row of every table but the audit, and the whole audit anonymised.
 */
export async function forgetWorkspace(ctx: Ctx, workspaceId?: string): Promise<ForgottenCounts> {
  const counts = workspaceId === undefined ? await forgetEverything(ctx) : await forgetOne(ctx, workspaceId);
  // The deleted rows' old page images out of the database's files (SQLite's write-ahead log): Db.clearErased.
  await ctx.db.clearErased();
  return counts;
}

async function forgetOne(ctx: Ctx, workspaceId: string): Promise<ForgottenCounts> {
  return ctx.db.transaction(async (db) => {
    const deleted: Record<string, number> = {};
    const w = workspaceId;
    for (const table of ['identity_links', 'link_requests', 'channel_subscriptions', 'group_routes', 'summary_settings']) {
      deleted[table] = await db.run(`DELETE FROM ${table} WHERE team_id = ?`, [w]);
    }
    const r = recipientTeamWhere(db.kind, w);
    // seen_events holds Slack event Ids alone: no workspace to tell them by (they expire within the hour).
    deleted.deliveries = await db.run(`DELETE FROM deliveries WHERE ${r.sql}`, r.params);
    const cursors = nameTeamWhere(db.kind, 'name', w);
    deleted.job_cursors = await db.run(`DELETE FROM job_cursors WHERE ${cursors.sql}`, cursors.params);
    deleted.job_leases = await db.run(`DELETE FROM job_leases WHERE ${cursors.sql}`, cursors.params);
    deleted.job_state = await db.run('DELETE FROM job_state WHERE workspace_id = ?', [w]);
    const keys = nameTeamWhere(db.kind, 'request_key', w);
    deleted.seen_requests = await db.run(`DELETE FROM seen_requests WHERE ${keys.sql}`, keys.params);
    deleted.workspace_settings = await db.run('DELETE FROM workspace_settings WHERE workspace_id = ?', [w]);
    deleted.care_connections = await db.run('DELETE FROM care_connections WHERE workspace_id = ?', [w]);
    deleted.home_settings = await db.run('DELETE FROM home_settings WHERE scope = ?', [w]);
    deleted.action_completions = await db.run('DELETE FROM action_completions WHERE workspace_id = ?', [w]);
    deleted.action_due_times = await db.run('DELETE FROM action_due_times WHERE workspace_id = ?', [w]);
    deleted.action_notes = await db.run('DELETE FROM action_notes WHERE workspace_id = ?', [w]);
    deleted.episode_answers = await db.run('DELETE FROM episode_answers WHERE workspace_id = ?', [w]);
    deleted.action_marks = await db.run('DELETE FROM action_marks WHERE workspace_id = ?', [w]);
    // A team's installation, or the org-wide one of an enterprise (never a team's install inside that enterprise).
    deleted.slack_installations = await db.run(
      'DELETE FROM slack_installations WHERE (is_enterprise_install = ? AND enterprise_id = ?) OR (is_enterprise_install = ? AND team_id = ?)',
      [true, w, false, w],
    );

    return { deleted, auditAnonymised: await anonymiseAudit(db, w) };
  });
}

async function forgetEverything(ctx: Ctx): Promise<ForgottenCounts> {
  return ctx.db.transaction(async (db) => {
    const deleted: Record<string, number> = {};
    for (const table of WORKSPACE_TABLES) deleted[table] = await db.run(`DELETE FROM ${table}`);
    return { deleted, auditAnonymised: await anonymiseAudit(db) };
  });
}

/** Who did each thing removed from the audit (of one team, or all of it): the user Id, and every Slack Id in the details. */
async function anonymiseAudit(db: Db, teamId?: string): Promise<number> {
  let n = 0;
  const rows =
    teamId === undefined
      ? await db.all('SELECT id, details FROM audit_log ORDER BY id')
      : await db.all('SELECT id, details FROM audit_log WHERE team_id = ? ORDER BY id', [teamId]);
  for (const row of rows) {
    const details = JSON.stringify(withoutSlackIds(json(row.details) ?? {}));
    n += await db.run('UPDATE audit_log SET user_id = ?, details = ? WHERE id = ?', ['', details, num(row.id)]);
  }
  return n;
}
