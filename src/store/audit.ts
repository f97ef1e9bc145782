/** The audit log of every change made through Slack. */
import type { Ctx, Param, Row } from './db.js';
import { json, num, str, strOrNull } from './db.js';
import type { AuditEntry, AuditInput, AuditQuery } from './types.js';

const COLUMNS = 'id, team_id, user_id, verb, action_id, details, at';

function toEntry(row: Row): AuditEntry {
  const details = json(row.details);
  return {
    id: num(row.id),
    teamId: str(row.team_id),
    userId: str(row.user_id),
    verb: str(row.verb),
    actionId: strOrNull(row.action_id),
    details: details && typeof details === 'object' && !Array.isArray(details) ? (details as Record<string, unknown>) : {},
    at: num(row.at),
  };
}

/** Keep secrets and task text out of `details` unless they must be audited. */
export async function appendAudit(ctx: Ctx, input: AuditInput): Promise<AuditEntry> {
  const row = await ctx.db.get(`INSERT INTO audit_log (team_id, user_id, verb, action_id, details, at) VALUES (?, ?, ?, ?, ?, ?) RETURNING ${COLUMNS}`, [
    input.teamId,
    input.userId,
    input.verb,
    input.actionId ?? null,
    JSON.stringify(input.details ?? {}),
    input.at ?? ctx.now(),
  ]);
  return toEntry(row!);
}

/** Newest first. */
export async function listAudit(ctx: Ctx, query: AuditQuery = {}): Promise<AuditEntry[]> {
  const parts: string[] = [];
  const params: Param[] = [];
  if (query.actionId !== undefined) {
    parts.push('action_id = ?');
    params.push(query.actionId);
  }
  if (query.teamId !== undefined) {
    parts.push('team_id = ?');
    params.push(query.teamId);
  }
  if (query.verb !== undefined) {
    parts.push('verb = ?');
    params.push(query.verb);
  }
  if (query.actionIds !== undefined) {
    if (query.actionIds.length === 0) return [];
    parts.push(`action_id IN (${query.actionIds.map(() => '?').join(', ')})`);
    params.push(...query.actionIds);
  }
  const limit = Math.max(1, Math.min(query.limit ?? 50, 1000));
  const rows = await ctx.db.all(`SELECT ${COLUMNS} FROM audit_log ${parts.length ? `WHERE ${parts.join(' AND ')}` : ''} ORDER BY id DESC LIMIT ?`, [
    ...params,
    limit,
  ]);
  return rows.map(toEntry);
}
