/**
 * Requests to be linked, decided by an admin. One pending request per Slack
 * user; deciding is atomic and only from pending, and approving makes the link
 * in the same transaction.
 */
import type { Ctx, Row } from './db.js';
import { num, numOrNull, str, strOrNull, withDb } from './db.js';
import { StoreError } from './errors.js';
import { upsertLink } from './links.js';
import type { DecideResult, LinkDecision, LinkRequest, LinkRequestInput, LinkRequestState } from './types.js';

const COLUMNS = 'id, team_id, slack_user_id, care_user_id, note, state, requested_at, decided_by, decided_at';

function toRequest(row: Row): LinkRequest {
  return {
    id: num(row.id),
    teamId: str(row.team_id),
    slackUserId: str(row.slack_user_id),
    careUserId: strOrNull(row.care_user_id),
    note: strOrNull(row.note),
    state: str(row.state) as LinkRequestState,
    requestedAt: num(row.requested_at),
    decidedBy: strOrNull(row.decided_by),
    decidedAt: numOrNull(row.decided_at),
  };
}

/**
 * Open a request, or update the Slack user's pending one (care user and note
 * replaced, same id). `created` tells which, so callers notify admins once.
 */
export async function createLinkRequest(ctx: Ctx, input: LinkRequestInput): Promise<{ request: LinkRequest; created: boolean }> {
  const careUserId = input.careUserId ?? null;
  const note = input.note ?? null;
  for (let attempt = 0; attempt < 3; attempt++) {
    const inserted = await ctx.db.get(
      `INSERT INTO link_requests (team_id, slack_user_id, care_user_id, note, state, requested_at)
       VALUES (?, ?, ?, ?, 'pending', ?)
       ON CONFLICT (team_id, slack_user_id) WHERE state = 'pending' DO NOTHING
       RETURNING ${COLUMNS}`,
      [input.teamId, input.slackUserId, careUserId, note, ctx.now()],
    );
    if (inserted) return { request: toRequest(inserted), created: true };
    const updated = await ctx.db.get(
      `UPDATE link_requests SET care_user_id = ?, note = ?
       WHERE team_id = ? AND slack_user_id = ? AND state = 'pending' RETURNING ${COLUMNS}`,
      [careUserId, note, input.teamId, input.slackUserId],
    );
    if (updated) return { request: toRequest(updated), created: false };
    // The pending request was decided between our two statements: try again.
  }
  throw new Error('createLinkRequest: the pending request kept changing; try again');
}

export async function getLinkRequest(ctx: Ctx, id: number, teamId?: string): Promise<LinkRequest | null> {
  const row =
    teamId === undefined
      ? await ctx.db.get(`SELECT ${COLUMNS} FROM link_requests WHERE id = ?`, [id])
      : await ctx.db.get(`SELECT ${COLUMNS} FROM link_requests WHERE id = ? AND team_id = ?`, [id, teamId]);
  return row ? toRequest(row) : null;
}

/** Oldest first. */
export async function listLinkRequests(ctx: Ctx, filter: { state?: LinkRequestState; teamId?: string } = {}): Promise<LinkRequest[]> {
  const where: string[] = [];
  const params: string[] = [];
  if (filter.state !== undefined) {
    where.push('state = ?');
    params.push(filter.state);
  }
  if (filter.teamId !== undefined) {
    where.push('team_id = ?');
    params.push(filter.teamId);
  }
  const rows = await ctx.db.all(`SELECT ${COLUMNS} FROM link_requests ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY id`, params);
  return rows.map(toRequest);
}

/**
 * Approve or reject a pending request. Only one decision wins; a second one
 * gets `{ok: false, reason: 'already-decided'}`. Approving needs a care user:
 * `options.careUserId`, else the one the requester asked for.
 */
export async function decideLinkRequest(
  ctx: Ctx,
  id: number,
  decision: LinkDecision,
  decidedBy: string,
  options: { careUserId?: string; teamId?: string } = {},
): Promise<DecideResult> {
  return ctx.db.transaction(async (tx) => {
    const txCtx = withDb(ctx, tx);
    // With a team, a request of another workspace is not found (and its row is never updated below).
    const current = await getLinkRequest(txCtx, id, options.teamId);
    if (!current) return { ok: false, reason: 'not-found' } as const;
    const careUserId = decision === 'approved' ? (options.careUserId ?? current.careUserId) : current.careUserId;
    if (decision === 'approved' && !careUserId) {
      throw new StoreError('invalid-input', `Link request ${id} names no care user: pass the care user to link when approving it.`);
    }
    const now = ctx.now();
    const row = await tx.get(
      `UPDATE link_requests SET state = ?, decided_by = ?, decided_at = ?, care_user_id = ?
       WHERE id = ? AND state = 'pending' RETURNING ${COLUMNS}`,
      [decision, decidedBy, now, careUserId, id],
    );
    if (!row) {
      const latest = await getLinkRequest(txCtx, id, options.teamId);
      return latest ? ({ ok: false, reason: 'already-decided', request: latest } as const) : ({ ok: false, reason: 'not-found' } as const);
    }
    const request = toRequest(row);
    const link =
      decision === 'approved'
        ? await upsertLink(txCtx, {
            teamId: request.teamId,
            slackUserId: request.slackUserId,
            careUserId: careUserId!,
            method: 'request',
            linkedBy: decidedBy,
            linkedAt: now,
          })
        : null;
    return { ok: true, request, link } as const;
  });
}
