/**
 * A ledger row's workspace is in its recipient: `<type>:<teamId>/<id>` (user:, channel:, email:).
 * The predicate compares the text between the first ':' and the next '/' exactly (case and all),
 * so T1 never matches T12 and no LIKE wildcard in a team id can widen it.
 */
import type { Dialect, Param } from './db.js';

const COLON_AT: Record<Dialect, string> = {
  postgres: "strpos(recipient, ':')",
  sqlite: "instr(recipient, ':')",
};

/** SQL (no leading AND) and its params: the rows whose recipient belongs to `teamId`. */
export function recipientTeamWhere(dialect: Dialect, teamId: string): { sql: string; params: Param[] } {
  const prefix = `${teamId}/`;
  const at = COLON_AT[dialect];
  // Both databases count characters in substr(), so the length is counted in code points here.
  return { sql: `(${at} > 0 AND substr(recipient, ${at} + 1, ?) = ?)`, params: [Array.from(prefix).length, prefix] };
}

/**
 * SQL (no leading AND) and its params: the rows of `column` (a cursor, lease or one-time key name) that are
 * `teamId`'s: named `<name>@<team>` (store/workspace-store.ts workspaceKey: the one rule for scoped names).
 */
export function nameTeamWhere(dialect: Dialect, column: string, teamId: string): { sql: string; params: Param[] } {
  const len = dialect === 'postgres' ? 'char_length' : 'length';
  const at = `@${teamId}`;
  return { sql: `substr(${column}, ${len}(${column}) - ? + 1) = ?`, params: [Array.from(at).length, at] };
}

/** `id = ?`, and with a team only the row if it is of that workspace (its recipient's team). */
export function idWhere(dialect: Dialect, id: number, teamId?: string): { sql: string; params: Param[] } {
  if (teamId === undefined) return { sql: 'id = ?', params: [id] };
  const team = recipientTeamWhere(dialect, teamId);
  return { sql: `id = ? AND ${team.sql}`, params: [id, ...team.params] };
}

/** The same test in code: `recipient` (`<type>:<teamId>/…`) belongs to `teamId`. */
export function recipientInTeam(recipient: string, teamId: string): boolean {
  const at = recipient.indexOf(':');
  return at >= 0 && recipient.startsWith(`${teamId}/`, at + 1);
}
