/**
 * One Slack person's data (a subject access request and an erasure), read and
 * erased table by table: every column of the schema that can hold a Slack user
 * Id is named here. With `teamId`, only the rows of that workspace (a
 * deployment of many); without it, every row (a deployment of one, whose
 * database holds its own workspace and the Slack Connect people it serves).
 *
 * Erasing deletes what is the person's own (links, link requests, summary
 * settings, the ledger rows of messages addressed to them) and replaces their
 * Id wherever it records something they did for others (an audit row, a digest
 * they set up, a care account they connected) by an anonymous token, in one
 * transaction. No row names them afterwards.
 */
import type { Ctx, Db, Param, Row } from './db.js';
import { num, str } from './db.js';
import { nameTeamWhere, recipientTeamWhere } from './recipient-team.js';

/** Every row that names the person, by table, as stored (no sealed token or secret is ever included). */
export type PersonRecords = Record<string, Row[]>;

export interface ErasedCounts {
  links: number;
  linkRequests: number;
  summarySettings: number;
  deliveries: number;
  /** Their own remembered choices (the Home tab's location) and reassign runs that name them. */
  remembered: number;
  /** Rows kept with the person's Id replaced by the anonymous token. */
  anonymised: number;
}

export interface EraseOptions {
  /** Only this workspace's rows (many workspaces); absent: every row (a deployment of one). */
  teamId?: string | undefined;
  /** The ledger recipients that are theirs besides `user:<team>/<id>` (the hashed email of completion notices). */
  extraRecipients?: readonly string[];
  /** The erasure's own audit row: written in the same transaction, naming the admin, never the person. */
  audit: { teamId: string; userId: string; verb: string };
}

const contains = (db: Db, column: string) => (db.kind === 'postgres' ? `strpos(${column}::text, ?) > 0` : `instr(${column}, ?) > 0`);
const replaced = (db: Db, column: string, jsonb: boolean) =>
  db.kind === 'postgres' ? (jsonb ? `replace(${column}::text, ?, ?)::jsonb` : `replace(${column}, ?, ?)`) : `replace(${column}, ?, ?)`;

interface Scope {
  sql: string;
  params: Param[];
}

/** ` AND <column> = ?`, or nothing without a team. */
function teamScope(column: string, teamId: string | undefined): Scope {
  return teamId === undefined ? { sql: '', params: [] } : { sql: ` AND ${column} = ?`, params: [teamId] };
}

/** The ledger rows addressed to the person: `user:<team>/<id>` (any team without one), and their other recipients. */
function deliveryScope(db: Db, slackUserId: string, teamId: string | undefined, extra: readonly string[]): Scope {
  const mine =
    teamId === undefined
      ? {
          sql: `(recipient LIKE 'user:%' AND substr(recipient, length(recipient) - ?) = ?)`,
          params: [Array.from(slackUserId).length, `/${slackUserId}`] as Param[],
        }
      : { sql: 'recipient = ?', params: [`user:${teamId}/${slackUserId}`] as Param[] };
  const others = extra.length ? ` OR recipient IN (${extra.map(() => '?').join(', ')})` : '';
  const team = teamId === undefined ? { sql: '', params: [] as Param[] } : recipientTeamWhere(db.kind, teamId);
  return {
    sql: `(${mine.sql}${others})${team.sql ? ` AND ${team.sql}` : ''}`,
    params: [...mine.params, ...extra, ...team.params],
  };
}

/** A workspace's cursors (recipient-team.ts's nameTeamWhere), as a condition to add; none without a team. */
function cursorScope(db: Db, column: string, teamId: string | undefined): Scope {
  if (teamId === undefined) return { sql: '', params: [] };
  const w = nameTeamWhere(db.kind, column, teamId);
  return { sql: ` AND ${w.sql}`, params: w.params };
}

/** Everything the app holds that names this Slack person. */
export async function personRecords(ctx: Ctx, slackUserId: string, teamId?: string): Promise<PersonRecords> {
  const { db } = ctx;
  const u = slackUserId;
  const all = (sql: string, params: Param[]) => db.all(sql, params);
  const team = (column: string) => teamScope(column, teamId);
  const t = team('team_id');
  const w = team('workspace_id');
  const d = deliveryScope(db, u, teamId, []);
  const c = cursorScope(db, 'name', teamId);
  return {
    identity_links: await all(`SELECT * FROM identity_links WHERE (slack_user_id = ? OR linked_by = ?)${t.sql} ORDER BY linked_at`, [u, u, ...t.params]),
    link_requests: await all(`SELECT * FROM link_requests WHERE (slack_user_id = ? OR decided_by = ?)${t.sql} ORDER BY id`, [u, u, ...t.params]),
    summary_settings: await all(`SELECT * FROM summary_settings WHERE slack_user_id = ?${t.sql}`, [u, ...t.params]),
    channel_subscriptions: await all(`SELECT * FROM channel_subscriptions WHERE (set_up_by = ? OR ${contains(db, 'filters')})${t.sql} ORDER BY set_up_at`, [
      u,
      u,
      ...t.params,
    ]),
    group_routes: await all(`SELECT * FROM group_routes WHERE set_up_by = ?${t.sql} ORDER BY set_up_at`, [u, ...t.params]),
    // What was sent to them and when: the ledger keeps no message text.
    deliveries: await all(
      `SELECT id, kind, action_id, occurrence, recipient, state, attempts, created_at, updated_at, sent_at FROM deliveries WHERE ${d.sql} ORDER BY id`,
      d.params,
    ),
    audit_log: await all(`SELECT * FROM audit_log WHERE (user_id = ? OR ${contains(db, 'details')})${t.sql} ORDER BY id`, [u, u, ...t.params]),
    job_cursors: await all(`SELECT name, value, updated_at FROM job_cursors WHERE (${contains(db, 'value')} OR ${contains(db, 'name')})${c.sql}`, [
      u,
      u,
      ...c.params,
    ]),
    workspace_settings: await all(`SELECT * FROM workspace_settings WHERE (${contains(db, 'admin_user_ids')} OR updated_by = ?)${w.sql}`, [u, u, ...w.params]),
    care_connections: await all(`SELECT workspace_id, base_url, account_id, connected_by, connected_at FROM care_connections WHERE connected_by = ?${w.sql}`, [
      u,
      ...w.params,
    ]),
    home_settings: await all(`SELECT * FROM home_settings WHERE (${contains(db, 'value')} OR updated_by = ?)${team('scope').sql} ORDER BY name`, [
      u,
      u,
      ...team('scope').params,
    ]),
    slack_installations: await all(
      `SELECT installation_key, team_id, enterprise_id, installer_user_id, user_scopes, installed_at, updated_at FROM slack_installations
        WHERE installer_user_id = ?${team('COALESCE(team_id, enterprise_id)').sql}`,
      [u, ...team('COALESCE(team_id, enterprise_id)').params],
    ),
  };
}

/** The next anonymous token of this scope: `erased-<n>`, n one more than the erasures already audited there. */
async function nextToken(db: Db, verb: string, teamId: string | undefined): Promise<string> {
  const t = teamScope('team_id', teamId);
  const row = await db.get(`SELECT COUNT(*) AS n FROM audit_log WHERE verb = ?${t.sql}`, [verb, ...t.params]);
  return `erased-${num(row?.n ?? 0) + 1}`;
}

/** Erase the person in one transaction; resolves to what was deleted and how many rows were kept anonymised. */
export async function erasePerson(ctx: Ctx, slackUserId: string, options: EraseOptions): Promise<ErasedCounts> {
  const { teamId } = options;
  return ctx.db.transaction(async (db) => {
    const u = slackUserId;
    const token = await nextToken(db, options.audit.verb, teamId);
    const team = (column: string) => teamScope(column, teamId);
    const t = team('team_id');
    const w = team('workspace_id');
    const run = (sql: string, params: Param[]) => db.run(sql, params);
    const counts: ErasedCounts = { links: 0, linkRequests: 0, summarySettings: 0, deliveries: 0, remembered: 0, anonymised: 0 };

    counts.links = await run(`DELETE FROM identity_links WHERE slack_user_id = ?${t.sql}`, [u, ...t.params]);
    counts.linkRequests = await run(`DELETE FROM link_requests WHERE slack_user_id = ?${t.sql}`, [u, ...t.params]);
    counts.summarySettings = await run(`DELETE FROM summary_settings WHERE slack_user_id = ?${t.sql}`, [u, ...t.params]);
    const d = deliveryScope(db, u, teamId, options.extraRecipients ?? []);
    counts.deliveries = await run(`DELETE FROM deliveries WHERE ${d.sql}`, d.params);

    // What they did for others stays, without their name: nullable columns cleared, the others given the token.
    let kept = 0;
    kept += await run(`UPDATE identity_links SET linked_by = NULL WHERE linked_by = ?${t.sql}`, [u, ...t.params]);
    kept += await run(`UPDATE link_requests SET decided_by = NULL WHERE decided_by = ?${t.sql}`, [u, ...t.params]);
    kept += await run(`UPDATE channel_subscriptions SET set_up_by = ? WHERE set_up_by = ?${t.sql}`, [token, u, ...t.params]);
    kept += await run(`UPDATE channel_subscriptions SET filters = ${replaced(db, 'filters', true)} WHERE ${contains(db, 'filters')}${t.sql}`, [
      u,
      token,
      u,
      ...t.params,
    ]);
    kept += await run(`UPDATE group_routes SET set_up_by = ? WHERE set_up_by = ?${t.sql}`, [token, u, ...t.params]);
    const c = cursorScope(db, 'name', teamId);
    // A cursor named after them is theirs (the Home tab's location): it goes. A reassign run that names them keeps
    // people's names and Ids only to answer that run: it goes too.
    counts.remembered = await run(`DELETE FROM job_cursors WHERE (${contains(db, 'name')} OR (name LIKE 'reassign:%' AND ${contains(db, 'value')}))${c.sql}`, [
      u,
      u,
      ...c.params,
    ]);
    kept += await run(`UPDATE job_cursors SET value = ${replaced(db, 'value', false)} WHERE ${contains(db, 'value')}${c.sql}`, [u, token, u, ...c.params]);
    kept += await run(`UPDATE audit_log SET user_id = ? WHERE user_id = ?${t.sql}`, [token, u, ...t.params]);
    kept += await run(`UPDATE audit_log SET details = ${replaced(db, 'details', true)} WHERE ${contains(db, 'details')}${t.sql}`, [u, token, u, ...t.params]);
    kept += await run(`UPDATE care_connections SET connected_by = ? WHERE connected_by = ?${w.sql}`, [token, u, ...w.params]);
    kept += await run(`UPDATE workspace_settings SET updated_by = NULL WHERE updated_by = ?${w.sql}`, [u, ...w.params]);
    // A care home's settings (shifts, handover, escalation…) may name them: the token takes their place.
    const hs = team('scope');
    kept += await run(`UPDATE home_settings SET updated_by = NULL WHERE updated_by = ?${hs.sql}`, [u, ...hs.params]);
    kept += await run(`UPDATE home_settings SET value = ${replaced(db, 'value', false)} WHERE ${contains(db, 'value')}${hs.sql}`, [u, token, u, ...hs.params]);
    // An added admin is one of a comma-separated list: taken out of it.
    for (const row of await db.all(`SELECT workspace_id, admin_user_ids FROM workspace_settings WHERE ${contains(db, 'admin_user_ids')}${w.sql}`, [
      u,
      ...w.params,
    ])) {
      const rest = str(row.admin_user_ids)
        .split(',')
        .filter((id) => id !== '' && id !== u);
      kept += await run('UPDATE workspace_settings SET admin_user_ids = ? WHERE workspace_id = ?', [rest.join(','), str(row.workspace_id)]);
    }
    // The installer: no longer named (so no longer an admin by it); their own user grant, if any, is deleted.
    const i = team('COALESCE(team_id, enterprise_id)');
    kept += await run(
      `UPDATE slack_installations SET installer_user_id = ?, user_token = NULL, user_refresh_token = NULL, user_token_expires_at = NULL, user_scopes = NULL
        WHERE installer_user_id = ?${i.sql}`,
      [token, u, ...i.params],
    );
    counts.anonymised = kept;

    await db.run('INSERT INTO audit_log (team_id, user_id, verb, action_id, details, at) VALUES (?, ?, ?, NULL, ?, ?)', [
      options.audit.teamId,
      options.audit.userId,
      options.audit.verb,
      JSON.stringify(counts),
      ctx.now(),
    ]);
    return counts;
  });
}
