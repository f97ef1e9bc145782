/**
 * The Slack team a deployment of one workspace serves (migration 016, `single_workspace`: one row). Written
 * once, the first time the deployment starts and learns its team (Slack's auth.test, or SLACK_TEAM_ID); every
 * later start reads it, so its jobs run under that team's id without asking Slack first.
 *
 * Binding adopts what the deployment kept before its workspace had one id: rows under `''` (home settings,
 * completions, due history, notes, answers, two-staff marks), under `'single'` (job state, due times, the
 * scheduler's leases) and under bare names (cursors such as the poll's position, the history gate's lease,
 * one-time Undo keys) move under the team (`<name>@<team>`, store/workspace-store.ts), in the transaction
 * that writes the row, so they are adopted once. A row already under the team's own key stays; the old one is
 * then left where nothing reads it.
 */
import type { Ctx, Db } from './db.js';
import { num, str } from './db.js';
import { StoreError } from './errors.js';

export interface SingleWorkspace {
  teamId: string;
  /** When it was bound (the app's clock). */
  boundAt: number;
}

export interface SingleWorkspaceBound extends SingleWorkspace {
  /** Rows adopted under the team, by table (empty when it was bound before). */
  adopted: Record<string, number>;
}

/** The ids a deployment of one workspace used for it before it had one. */
const OLD = ['', 'single'] as const;
/** Cursors of the deployment itself, never a workspace's (deleted by migration 015; never renamed if one is left). */
const DEPLOYMENT_CURSORS = ['job-trouble:'];
/** One-time keys a workspace's store wrote under bare names (services/actions/undo-change.ts, services/reassign/reassign-undo.ts). */
const WORKSPACE_KEYS = ['undo:', 'reassign-undo:'];

export async function singleWorkspace(ctx: Ctx): Promise<SingleWorkspace | null> {
  const row = await ctx.db.get('SELECT team_id, bound_at FROM single_workspace WHERE id = 1');
  return row ? { teamId: str(row.team_id), boundAt: num(row.bound_at) } : null;
}

/**
 * Bind the deployment to `teamId` (adopting its old keys) unless it is bound already; refused when the database
 * is bound to another team (StoreError 'bad-config'). Two instances starting at once: one binds, the other reads.
 */
export async function bindSingleWorkspace(ctx: Ctx, teamId: string): Promise<SingleWorkspaceBound> {
  if (!/^[A-Z0-9]+$/.test(teamId)) throw new StoreError('invalid-input', `"${teamId}" is not a Slack team id (T… in capitals and digits).`);
  return ctx.db.transaction(async (db) => {
    const inserted = await db.get('INSERT INTO single_workspace (id, team_id, bound_at) VALUES (1, ?, ?) ON CONFLICT (id) DO NOTHING RETURNING bound_at', [
      teamId,
      ctx.now(),
    ]);
    if (inserted) return { teamId, boundAt: num(inserted.bound_at), adopted: await adopt(db, teamId) };
    const bound = (await singleWorkspace({ ...ctx, db }))!;
    if (bound.teamId !== teamId)
      throw new StoreError(
        'bad-config',
        `This database is Slack workspace ${bound.teamId}'s, but the bot token (or SLACK_TEAM_ID) is workspace ${teamId}'s: use that workspace's token, or another database.`,
      );
    return { ...bound, adopted: {} };
  });
}

/** `column IN ('', 'single')`, moved to `teamId` where the row's other key columns are free under it. */
async function move(db: Db, table: string, column: string, keys: readonly string[], teamId: string): Promise<number> {
  const free = keys.length ? ` AND NOT EXISTS (SELECT 1 FROM ${table} o WHERE o.${column} = ?${keys.map((k) => ` AND o.${k} = ${table}.${k}`).join('')})` : '';
  return db.run(`UPDATE ${table} SET ${column} = ? WHERE ${column} IN (?, ?)${free}`, [teamId, ...OLD, ...(keys.length ? [teamId] : [])]);
}

/** Bare names (no '@') of `column` moved to `<name>@<team>` where that name is free; `where`: which bare names. */
async function rename(db: Db, table: string, column: string, teamId: string, where: { sql: string; params: string[] }): Promise<number> {
  const at = `@${teamId}`;
  const renamed = `${column} || ?`;
  return db.run(
    `UPDATE ${table} SET ${column} = ${renamed}
      WHERE ${column} NOT LIKE '%@%' AND ${where.sql}
        AND NOT EXISTS (SELECT 1 FROM ${table} o WHERE o.${column} = ${table}.${column} || ?)`,
    [at, ...where.params, at],
  );
}

/** `<name>@single` (the registry of one's old id) becomes `<name>@<team>` where that name is free. */
async function fromSingle(db: Db, table: 'job_cursors' | 'job_leases', teamId: string): Promise<number> {
  const len = db.kind === 'postgres' ? 'char_length' : 'length';
  const base = (t: string) => `substr(${t}.name, 1, ${len}(${t}.name) - ${'@single'.length})`;
  return db.run(
    `UPDATE ${table} SET name = ${base(table)} || ?
      WHERE name LIKE ? AND NOT EXISTS (SELECT 1 FROM ${table} o WHERE o.name = ${base(table)} || ?)`,
    [`@${teamId}`, '%@single', `@${teamId}`],
  );
}

const startsWithAny = (column: string, prefixes: readonly string[]) => ({
  sql: `(${prefixes.map((p) => `substr(${column}, 1, ${p.length}) = ?`).join(' OR ')})`,
  params: [...prefixes],
});

async function adopt(db: Db, teamId: string): Promise<Record<string, number>> {
  const adopted: Record<string, number> = {};
  adopted.home_settings = await move(db, 'home_settings', 'scope', ['name'], teamId);
  adopted.action_completions = await move(db, 'action_completions', 'workspace_id', ['action_id'], teamId);
  adopted.action_due_times = await move(db, 'action_due_times', 'workspace_id', ['action_id', 'seq'], teamId);
  adopted.action_notes = await move(db, 'action_notes', 'workspace_id', [], teamId);
  adopted.episode_answers = await move(db, 'episode_answers', 'workspace_id', [], teamId);
  adopted.action_marks = await move(db, 'action_marks', 'workspace_id', ['action_id'], teamId);
  adopted.job_state = await move(db, 'job_state', 'workspace_id', ['kind'], teamId);
  adopted.job_due = await move(db, 'job_due', 'team_id', ['kind'], teamId);

  const deployment = startsWithAny('name', DEPLOYMENT_CURSORS);
  adopted.job_cursors = await rename(db, 'job_cursors', 'name', teamId, { sql: `NOT ${deployment.sql}`, params: deployment.params });
  // Names kept under 'single' (the scheduler's leases, `<kind>@single` since migration 016) and the history gate's lease (a bare name).
  adopted.job_cursors += await fromSingle(db, 'job_cursors', teamId);
  adopted.job_leases =
    (await fromSingle(db, 'job_leases', teamId)) + (await rename(db, 'job_leases', 'name', teamId, { sql: 'name = ?', params: ['slack-history'] }));
  adopted.seen_requests = await rename(db, 'seen_requests', 'request_key', teamId, startsWithAny('request_key', WORKSPACE_KEYS));
  return adopted;
}
