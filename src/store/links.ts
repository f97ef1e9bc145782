/** Identity links: Slack user (team + user) <-> care user. */
import type { Ctx, Row } from './db.js';
import { num, str, strOrNull } from './db.js';
import { StoreError } from './errors.js';
import type { IdentityLink, LinkInput, LinkMethod } from './types.js';

const COLUMNS = 'team_id, slack_user_id, care_user_id, method, linked_by, linked_at';

export function toLink(row: Row): IdentityLink {
  return {
    teamId: str(row.team_id),
    slackUserId: str(row.slack_user_id),
    careUserId: str(row.care_user_id),
    method: str(row.method) as LinkMethod,
    linkedBy: strOrNull(row.linked_by),
    linkedAt: num(row.linked_at),
  };
}

/** A unique index refused the row: SQLite's and PostgreSQL's words for it. */
const isUniqueViolation = (err: unknown) => {
  const code = (err as { code?: unknown } | null)?.code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === '23505';
};

/**
 * Create or replace the link of one Slack user (a Slack user has at most one care user). A care
 * user has at most one Slack person per workspace (migration 005): a link to a care user someone
 * else of the workspace has is refused with StoreError('care-user-taken'), and nothing changes.
 * Linking again clears an older link's `legacy_duplicate` mark, so it then obeys that rule too.
 */
export async function upsertLink(ctx: Ctx, input: LinkInput): Promise<IdentityLink> {
  try {
    const row = await ctx.db.get(
      `INSERT INTO identity_links (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (team_id, slack_user_id) DO UPDATE SET
         care_user_id = excluded.care_user_id, method = excluded.method,
         linked_by = excluded.linked_by, linked_at = excluded.linked_at,
         legacy_duplicate = excluded.legacy_duplicate
       RETURNING ${COLUMNS}`,
      [input.teamId, input.slackUserId, input.careUserId, input.method, input.linkedBy ?? null, input.linkedAt ?? ctx.now()],
    );
    return toLink(row!);
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    throw new StoreError('care-user-taken', `Care user ${input.careUserId} is already linked to another Slack user of workspace ${input.teamId}.`, {
      cause: err,
    });
  }
}

export async function getLinkBySlackUser(ctx: Ctx, teamId: string, slackUserId: string): Promise<IdentityLink | null> {
  const row = await ctx.db.get(`SELECT ${COLUMNS} FROM identity_links WHERE team_id = ? AND slack_user_id = ?`, [teamId, slackUserId]);
  return row ? toLink(row) : null;
}

/** Every Slack user linked to a care user (one per workspace, usually); with teamId, only that workspace's. */
export async function getLinksByCareUser(ctx: Ctx, careUserId: string, teamId?: string): Promise<IdentityLink[]> {
  const rows =
    teamId === undefined
      ? await ctx.db.all(`SELECT ${COLUMNS} FROM identity_links WHERE care_user_id = ? ORDER BY team_id, slack_user_id`, [careUserId])
      : await ctx.db.all(`SELECT ${COLUMNS} FROM identity_links WHERE care_user_id = ? AND team_id = ? ORDER BY slack_user_id`, [careUserId, teamId]);
  return rows.map(toLink);
}

export async function listLinks(ctx: Ctx, teamId?: string): Promise<IdentityLink[]> {
  const rows =
    teamId === undefined
      ? await ctx.db.all(`SELECT ${COLUMNS} FROM identity_links ORDER BY team_id, slack_user_id`)
      : await ctx.db.all(`SELECT ${COLUMNS} FROM identity_links WHERE team_id = ? ORDER BY slack_user_id`, [teamId]);
  return rows.map(toLink);
}

/** Resolves to true when a link was removed. */
export async function deleteLink(ctx: Ctx, teamId: string, slackUserId: string): Promise<boolean> {
  return (await ctx.db.run('DELETE FROM identity_links WHERE team_id = ? AND slack_user_id = ?', [teamId, slackUserId])) > 0;
}
