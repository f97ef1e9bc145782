/**
 * Notes on actions (issue 33): written once, never changed (evidence). Keyed by workspace (its Slack team) and
 * action Id; read in the order they were written. Deleted only by retention (with the action's messages),
 * by their writer's erasure, and with the workspace.
 */
import type { Ctx } from './db.js';
import { num, str, strOrNull } from './db.js';

export interface ActionNoteInput {
  actionId: string;
  /** What the note went with: `complete`, `take` (others may add their own: `on-it`, `cant`…). */
  verb: string;
  /** Who wrote it. */
  slackUserId: string;
  /** Their care user, when linked. */
  careUserId: string | null;
  /** The words, as checked by the service (services/actions/action-notes.ts caps them). */
  text: string;
}

export interface ActionNote extends ActionNoteInput {
  id: number;
  /** The app's clock when it was written (ms). */
  createdAt: number;
}

const COLUMNS = 'id, action_id, verb, slack_user_id, care_user_id, body, created_at';

const toNote = (r: Record<string, unknown>): ActionNote => ({
  id: num(r.id),
  actionId: str(r.action_id),
  verb: str(r.verb),
  slackUserId: str(r.slack_user_id),
  careUserId: strOrNull(r.care_user_id),
  text: str(r.body),
  createdAt: num(r.created_at),
});

/** Keep one note; returns it as stored. */
export async function addNote(ctx: Ctx, workspaceId: string, note: ActionNoteInput): Promise<ActionNote> {
  const row = await ctx.db.get(
    `INSERT INTO action_notes (workspace_id, action_id, verb, slack_user_id, care_user_id, body, created_at) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING ${COLUMNS}`,
    [workspaceId, note.actionId, note.verb, note.slackUserId, note.careUserId, note.text, ctx.now()],
  );
  return toNote(row!);
}

const CHUNK = 500;

/** The notes of these actions, oldest first (by the order they were written). */
export async function listNotes(ctx: Ctx, workspaceId: string, actionIds: readonly string[]): Promise<ActionNote[]> {
  const ids = [...new Set(actionIds)];
  const out: ActionNote[] = [];
  for (let i = 0; i < ids.length; i += CHUNK) {
    const part = ids.slice(i, i + CHUNK);
    const rows = await ctx.db.all(
      `SELECT ${COLUMNS} FROM action_notes WHERE workspace_id = ? AND action_id IN (${part.map(() => '?').join(', ')}) ORDER BY id`,
      [workspaceId, ...part],
    );
    out.push(...rows.map(toNote));
  }
  return out.sort((a, b) => a.id - b.id);
}

/** Retention: delete an action's notes written at or before `writtenBefore` (ms); how many went. */
export async function dropNotes(ctx: Ctx, workspaceId: string, actionId: string, writtenBefore: number): Promise<number> {
  return ctx.db.run('DELETE FROM action_notes WHERE workspace_id = ? AND action_id = ? AND created_at <= ?', [workspaceId, actionId, writtenBefore]);
}
