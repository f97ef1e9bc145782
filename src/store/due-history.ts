/**
 * Each action's due times as the app saw them (append-only, issue 32): the first, then each reschedule.
 * Keyed by workspace (its Slack team), action Id and a sequence number; a row is never changed.
 */
import type { Ctx } from './db.js';
import { num, str } from './db.js';

/** What saw a due time: the first look, the changes poll, or a change made through Slack (a create, snooze, edit). */
export type DueSeenVia = 'first-look' | 'poll' | 'slack';

export interface DueSighting {
  /** The action's due time (ms). */
  dueAt: number;
  /** The care action's `modified` in the version that showed it (ms): an older version read late adds nothing. */
  modifiedAt: number;
  via: DueSeenVia;
}

export interface DueHistory {
  actionId: string;
  /** The first due time the app saw (ms). */
  firstDueAt: number;
  /** The latest due time it saw (ms). */
  lastDueAt: number;
  /** How many times the due time changed after the first. */
  reschedules: number;
}

/**
 * Note an action's due time as seen in one version of it. The first sighting is its first due time; later,
 * a due time unlike the last one noted, in a version newer than the one that showed it, is a reschedule.
 * Returns true when a row was added. Instances racing on the same change add one row (the key).
 */
export async function noteDue(ctx: Ctx, workspaceId: string, actionId: string, seen: DueSighting): Promise<boolean> {
  const last = await ctx.db.get('SELECT seq, due_at, modified_at FROM action_due_times WHERE workspace_id = ? AND action_id = ? ORDER BY seq DESC LIMIT 1', [
    workspaceId,
    actionId,
  ]);
  if (last && (num(last.due_at) === seen.dueAt || seen.modifiedAt <= num(last.modified_at))) return false;
  const seq = last ? num(last.seq) + 1 : 0;
  const added = await ctx.db.run(
    `INSERT INTO action_due_times (workspace_id, action_id, seq, due_at, modified_at, seen_at, via) VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (workspace_id, action_id, seq) DO NOTHING`,
    [workspaceId, actionId, seq, seen.dueAt, seen.modifiedAt, ctx.now(), seen.via],
  );
  return added > 0;
}

const CHUNK = 500;

/** The due history of each of these actions the app has seen (absent: never seen). */
export async function dueHistories(ctx: Ctx, workspaceId: string, actionIds: readonly string[]): Promise<Map<string, DueHistory>> {
  const out = new Map<string, DueHistory>();
  const ids = [...new Set(actionIds)];
  for (let i = 0; i < ids.length; i += CHUNK) {
    const part = ids.slice(i, i + CHUNK);
    const rows = await ctx.db.all(
      `SELECT action_id, seq, due_at FROM action_due_times WHERE workspace_id = ? AND action_id IN (${part.map(() => '?').join(', ')})
       ORDER BY action_id, seq`,
      [workspaceId, ...part],
    );
    for (const r of rows) {
      const id = str(r.action_id);
      const due = num(r.due_at);
      const seen = out.get(id);
      if (!seen) out.set(id, { actionId: id, firstDueAt: due, lastDueAt: due, reschedules: 0 });
      else out.set(id, { ...seen, lastDueAt: due, reschedules: seen.reschedules + 1 });
    }
  }
  return out;
}

/** The actions whose first due time is in [start, end) (ms), at most `limit`, by that time. */
export async function firstDueBetween(ctx: Ctx, workspaceId: string, start: number, end: number, limit: number): Promise<string[]> {
  const rows = await ctx.db.all(
    'SELECT action_id FROM action_due_times WHERE workspace_id = ? AND seq = 0 AND due_at >= ? AND due_at < ? ORDER BY due_at, action_id LIMIT ?',
    [workspaceId, start, end, Math.max(1, limit)],
  );
  return rows.map((r) => str(r.action_id));
}
