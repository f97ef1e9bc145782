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
 *
 * An Id inside a stored value (a digest's filters, an audit row's details, a
 * cursor, a care home's setting, the admin list) is matched whole, never as a
 * substring (whole-id.ts): erasing `U0S` leaves `U0SOPHIE` as it was. SQL only
 * finds the rows that may name it; each is checked and rewritten here.
 */
import type { Ctx, Db, Param, Row } from './db.js';
import { num, str } from './db.js';
import { StoreError } from './errors.js';
import { nameTeamWhere, recipientTeamWhere } from './recipient-team.js';
import { eraseReassignRecords } from './reassign-records.js';
import { namesWhole, replaceWhole } from './whole-id.js';

/** Every row that names the person, by table, as stored (no sealed token or secret is ever included). */
export type PersonRecords = Record<string, Row[]>;

export interface ErasedCounts {
  links: number;
  linkRequests: number;
  summarySettings: number;
  deliveries: number;
  /** Their own remembered choices (the Home tab's location) and reassign runs that name them. */
  remembered: number;
  /** The notes they wrote on actions (issue 33): theirs, and task text, so deleted. */
  notes?: number;
  /** Rows kept with the person's Id replaced by the anonymous token. */
  anonymised: number;
  /** They were a Care Actions admin and no longer are (only with `admins.remove`): why they were one, and that change's audit row. */
  adminRemoved?: { was: AdminStanding; auditId: number; token: string };
}

/** Why the store names someone an admin of a workspace: its first installer (many workspaces), or added with `/care admins add`. */
export type AdminStanding = 'installer' | 'added';

/** How an erasure treats a person the store names as an admin. */
export interface EraseAdmins {
  /** The first installer counts as an admin (a deployment of many; in one of one, admins are configured). */
  installerIsAdmin: boolean;
  /** false: the erasure of an admin is refused (StoreError 'person-is-admin', nothing changed); true: they lose it, audited. */
  remove: boolean;
  /** The audit verb of that change (`admin.removed`), written in the same transaction, naming the token, never the person. */
  verb: string;
}

export interface EraseOptions {
  /** Only this workspace's rows (many workspaces); absent: every row (a deployment of one). */
  teamId?: string | undefined;
  /** The ledger recipients that are theirs besides `user:<team>/<id>` (the hashed email of completion notices). */
  extraRecipients?: readonly string[];
  /** The erasure's own audit row: written in the same transaction, naming the admin, never the person. */
  audit: { teamId: string; userId: string; verb: string };
  /** Admins are not erased by the way: refused, or removed and audited (services/evidence/person-data.ts decides which). */
  admins: EraseAdmins;
}

const contains = (db: Db, column: string) => (db.kind === 'postgres' ? `strpos(${column}::text, ?) > 0` : `instr(${column}, ?) > 0`);
/** A column read as text (JSONB on PostgreSQL). */
const asText = (db: Db, column: string) => (db.kind === 'postgres' ? `${column}::text` : column);
/** A value written back to a column: JSONB on PostgreSQL takes text cast to it. */
const written = (db: Db, jsonb: boolean) => (db.kind === 'postgres' && jsonb ? '?::jsonb' : '?');
/** A stored value as text, whatever the driver made of it (PostgreSQL's JSONB comes back parsed). */
const text = (value: unknown): string => (value === null || value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value));
/** Whether a comma-separated list (the added admins) holds this Id as one of its items. */
const listed = (value: unknown, id: string) => text(value).split(',').includes(id);

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
  const whole = (rows: Row[], named: (r: Row) => boolean) => rows.filter(named);
  return {
    identity_links: await all(`SELECT * FROM identity_links WHERE (slack_user_id = ? OR linked_by = ?)${t.sql} ORDER BY linked_at`, [u, u, ...t.params]),
    link_requests: await all(`SELECT * FROM link_requests WHERE (slack_user_id = ? OR decided_by = ?)${t.sql} ORDER BY id`, [u, u, ...t.params]),
    summary_settings: await all(`SELECT * FROM summary_settings WHERE slack_user_id = ?${t.sql}`, [u, ...t.params]),
    channel_subscriptions: whole(
      await all(`SELECT * FROM channel_subscriptions WHERE (set_up_by = ? OR ${contains(db, 'filters')})${t.sql} ORDER BY set_up_at`, [u, u, ...t.params]),
      (r) => r.set_up_by === u || namesWhole(text(r.filters), u),
    ),
    group_routes: await all(`SELECT * FROM group_routes WHERE set_up_by = ?${t.sql} ORDER BY set_up_at`, [u, ...t.params]),
    // What was sent to them and when: the ledger keeps no message text.
    deliveries: await all(
      `SELECT id, kind, action_id, occurrence, recipient, state, attempts, created_at, updated_at, sent_at FROM deliveries WHERE ${d.sql} ORDER BY id`,
      d.params,
    ),
    audit_log: whole(
      await all(`SELECT * FROM audit_log WHERE (user_id = ? OR ${contains(db, 'details')})${t.sql} ORDER BY id`, [u, u, ...t.params]),
      (r) => r.user_id === u || namesWhole(text(r.details), u),
    ),
    job_cursors: whole(
      await all(`SELECT name, value, updated_at FROM job_cursors WHERE (${contains(db, 'value')} OR ${contains(db, 'name')})${c.sql}`, [u, u, ...c.params]),
      (r) => namesWhole(text(r.value), u) || namesWhole(text(r.name), u),
    ),
    workspace_settings: whole(
      await all(`SELECT * FROM workspace_settings WHERE (${contains(db, 'admin_user_ids')} OR updated_by = ?)${w.sql}`, [u, u, ...w.params]),
      (r) => r.updated_by === u || listed(r.admin_user_ids, u),
    ),
    care_connections: await all(`SELECT workspace_id, base_url, account_id, connected_by, connected_at FROM care_connections WHERE connected_by = ?${w.sql}`, [
      u,
      ...w.params,
    ]),
    home_settings: whole(
      await all(`SELECT * FROM home_settings WHERE (${contains(db, 'value')} OR updated_by = ?)${team('scope').sql} ORDER BY name`, [
        u,
        u,
        ...team('scope').params,
      ]),
      (r) => r.updated_by === u || namesWhole(text(r.value), u),
    ),
    // Notes they wrote on actions, and any other note naming them by their Slack Id (a mention typed in a command).
    action_notes: whole(
      await all(`SELECT * FROM action_notes WHERE (slack_user_id = ? OR ${contains(db, 'body')})${w.sql} ORDER BY id`, [u, u, ...w.params]),
      (r) => r.slack_user_id === u || namesWhole(text(r.body), u),
    ),
    // Their answers to urgent episodes (with the notes they wrote), and those naming them as the one doing it.
    episode_answers: await all(`SELECT * FROM episode_answers WHERE (slack_user_id = ? OR doer_slack_user_id = ?)${w.sql} ORDER BY id`, [u, u, ...w.params]),
    action_marks: await all(`SELECT * FROM action_marks WHERE set_by = ?${w.sql}`, [u, ...w.params]),
    slack_installations: await all(
      `SELECT installation_key, team_id, enterprise_id, installer_user_id, user_scopes, installed_at, updated_at FROM slack_installations
        WHERE installer_user_id = ?${team('team_id').sql}`,
      [u, ...team('team_id').params],
    ),
  };
}

/** Pure: why these rows (personRecords) name the person an admin, or null. */
export function adminStandingIn(records: PersonRecords, slackUserId: string, installerIsAdmin: boolean): AdminStanding | null {
  if (installerIsAdmin && (records.slack_installations ?? []).some((r) => r.installer_user_id === slackUserId)) return 'installer';
  if ((records.workspace_settings ?? []).some((r) => listed(r.admin_user_ids, slackUserId))) return 'added';
  return null;
}

/** Why the store names the person an admin of the scope now (read inside the erasure's transaction), or null. */
async function adminStanding(db: Db, slackUserId: string, teamId: string | undefined, installerIsAdmin: boolean): Promise<AdminStanding | null> {
  const i = teamScope('team_id', teamId);
  const w = teamScope('workspace_id', teamId);
  const installer =
    installerIsAdmin && (await db.get(`SELECT 1 AS one FROM slack_installations WHERE installer_user_id = ?${i.sql}`, [slackUserId, ...i.params]));
  if (installer) return 'installer';
  const rows = await db.all(`SELECT admin_user_ids FROM workspace_settings WHERE ${contains(db, 'admin_user_ids')}${w.sql}`, [slackUserId, ...w.params]);
  return rows.some((r) => listed(r.admin_user_ids, slackUserId)) ? 'added' : null;
}

/** The next anonymous token of this scope: `erased-<n>`, n one more than the erasures already audited there. */
async function nextToken(db: Db, verb: string, teamId: string | undefined): Promise<string> {
  const t = teamScope('team_id', teamId);
  const row = await db.get(`SELECT COUNT(*) AS n FROM audit_log WHERE verb = ?${t.sql}`, [verb, ...t.params]);
  return `erased-${num(row?.n ?? 0) + 1}`;
}

/**
 * Erase the person in one transaction, then clear the database's files of the old rows (Db.clearErased: SQLite's
 * write-ahead log); resolves to what was deleted and how many rows were kept anonymised.
 */
export async function erasePerson(ctx: Ctx, slackUserId: string, options: EraseOptions): Promise<ErasedCounts> {
  const counts = await eraseRows(ctx, slackUserId, options);
  await ctx.db.clearErased();
  return counts;
}

async function eraseRows(ctx: Ctx, slackUserId: string, options: EraseOptions): Promise<ErasedCounts> {
  const { teamId } = options;
  return ctx.db.transaction(async (db) => {
    const u = slackUserId;
    // An admin is erased only by someone allowed to take that away (checked before, and again here, in the transaction).
    const standing = await adminStanding(db, u, teamId, options.admins.installerIsAdmin);
    if (standing && !options.admins.remove)
      throw new StoreError(
        'person-is-admin',
        `This person is a Care Actions admin (${standing === 'installer' ? 'the first installer' : 'added'}): nothing was erased.`,
      );
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
    counts.notes = await run(`DELETE FROM action_notes WHERE slack_user_id = ?${w.sql}`, [u, ...w.params]);

    // What they did for others stays, without their name: nullable columns cleared, the others given the token.
    let kept = 0;
    // A claim they held for others (a Take it they won: its holder is the Slack user, so losers are told who) forgets them.
    const held = teamId === undefined ? { sql: '', params: [] as Param[] } : recipientTeamWhere(db.kind, teamId);
    kept += await run(`UPDATE deliveries SET claimed_by = NULL WHERE claimed_by = ?${held.sql ? ` AND ${held.sql}` : ''}`, [u, ...held.params]);
    kept += await run(`UPDATE identity_links SET linked_by = NULL WHERE linked_by = ?${t.sql}`, [u, ...t.params]);
    kept += await run(`UPDATE link_requests SET decided_by = NULL WHERE decided_by = ?${t.sql}`, [u, ...t.params]);
    kept += await run(`UPDATE channel_subscriptions SET set_up_by = ? WHERE set_up_by = ?${t.sql}`, [token, u, ...t.params]);
    /** Rewrite each candidate row's value that names them whole (never a substring: whole-id.ts); how many rows changed. */
    async function rewrite(table: string, column: string, keys: string[], jsonb: boolean, scope: Scope): Promise<number> {
      const rows = await db.all(`SELECT ${keys.join(', ')}, ${asText(db, column)} AS stored FROM ${table} WHERE ${contains(db, column)}${scope.sql}`, [
        u,
        ...scope.params,
      ]);
      let changed = 0;
      for (const row of rows) {
        const before = text(row.stored);
        const after = replaceWhole(before, u, token);
        if (after === before) continue;
        changed += await run(`UPDATE ${table} SET ${column} = ${written(db, jsonb)} WHERE ${keys.map((k) => `${k} = ?`).join(' AND ')}`, [
          after,
          ...keys.map((k) => row[k] as Param),
        ]);
      }
      return changed;
    }

    kept += await rewrite('channel_subscriptions', 'filters', ['team_id', 'channel_id'], true, t);
    kept += await run(`UPDATE group_routes SET set_up_by = ? WHERE set_up_by = ?${t.sql}`, [token, u, ...t.params]);
    const c = cursorScope(db, 'name', teamId);
    // A cursor named after them is theirs (the Home tab's location): it goes. A reassign run that names them keeps
    // people's names and Ids only to answer that run: it goes too.
    const cursors = await db.all(`SELECT name, value FROM job_cursors WHERE (${contains(db, 'name')} OR ${contains(db, 'value')})${c.sql}`, [
      u,
      u,
      ...c.params,
    ]);
    for (const row of cursors) {
      const name = str(row.name);
      if (namesWhole(name, u) || (name.startsWith('reassign:') && namesWhole(text(row.value), u)))
        counts.remembered += await run('DELETE FROM job_cursors WHERE name = ?', [name]);
    }
    kept += await rewrite('job_cursors', 'value', ['name'], false, c);
    // A reassign run's plan or Undo naming them by their whole Id (reassign-records.ts).
    counts.remembered += await eraseReassignRecords(db, u, teamId);
    kept += await run(`UPDATE audit_log SET user_id = ? WHERE user_id = ?${t.sql}`, [token, u, ...t.params]);
    kept += await rewrite('audit_log', 'details', ['id'], true, t);
    // Someone else's note that mentions them (`<@U…>`): the note stays, the token in place of their Id.
    kept += await rewrite('action_notes', 'body', ['id'], false, w);
    // Their answers stay as evidence that someone answered, without their name or the notes they wrote.
    kept += await run(`UPDATE episode_answers SET slack_user_id = ?, care_user_id = NULL, note = NULL WHERE slack_user_id = ?${w.sql}`, [
      token,
      u,
      ...w.params,
    ]);
    kept += await run(`UPDATE episode_answers SET doer_slack_user_id = ? WHERE doer_slack_user_id = ?${w.sql}`, [token, u, ...w.params]);
    kept += await run(`UPDATE action_marks SET set_by = NULL WHERE set_by = ?${w.sql}`, [u, ...w.params]);
    kept += await run(`UPDATE care_connections SET connected_by = ? WHERE connected_by = ?${w.sql}`, [token, u, ...w.params]);
    kept += await run(`UPDATE workspace_settings SET updated_by = NULL WHERE updated_by = ?${w.sql}`, [u, ...w.params]);
    // A care home's settings (shifts, handover, escalation…) may name them: the token takes their place.
    const hs = team('scope');
    kept += await run(`UPDATE home_settings SET updated_by = NULL WHERE updated_by = ?${hs.sql}`, [u, ...hs.params]);
    kept += await rewrite('home_settings', 'value', ['scope', 'name'], false, hs);
    // An added admin is one of a comma-separated list: taken out of it.
    for (const row of await db.all(`SELECT workspace_id, admin_user_ids FROM workspace_settings WHERE ${contains(db, 'admin_user_ids')}${w.sql}`, [
      u,
      ...w.params,
    ])) {
      if (!listed(row.admin_user_ids, u)) continue;
      const rest = str(row.admin_user_ids)
        .split(',')
        .filter((id) => id !== '' && id !== u);
      kept += await run('UPDATE workspace_settings SET admin_user_ids = ? WHERE workspace_id = ?', [rest.join(','), str(row.workspace_id)]);
    }
    // The installer: no longer named (so no longer an admin by it); their own user grant, if any, is deleted.
    const i = team('team_id');
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
      JSON.stringify(standing ? { ...counts, adminRemoved: standing } : counts),
      ctx.now(),
    ]);
    if (!standing) return counts;
    // Their admin rights went with them: said in its own audit row, naming who did it and the token, never the person.
    const removed = await db.get('INSERT INTO audit_log (team_id, user_id, verb, action_id, details, at) VALUES (?, ?, ?, NULL, ?, ?) RETURNING id', [
      options.audit.teamId,
      options.audit.userId,
      options.admins.verb,
      JSON.stringify({ slackUserId: token, was: standing, through: 'forget' }),
      ctx.now(),
    ]);
    return { ...counts, adminRemoved: { was: standing, auditId: num(removed?.id), token } };
  });
}
