/**
 * The answers to urgent episodes (issue 33): "I'm on it", "I can't", "Join", each with who and when, and
 * which actions the app marks as needing two staff. Keyed by workspace (its Slack team). An
 * answer is added once per person, kind and episode while it is live (the same press on two instances adds
 * one row); its Undo marks it undone, once. A note is text a person wrote: read here for History, the
 * person's DMs and the evidence export, cleared by retention (dropAnswerNotes) and by their erasure.
 */
import type { Ctx, Row } from './db.js';
import { bool, num, numOrNull, str, strOrNull } from './db.js';

export type EpisodeAnswerKind = 'on-it' | 'cant' | 'join';

export interface EpisodeAnswerInput {
  actionId: string;
  /** The urgent episode: the care system's `modified` it began at (the alert's ledger occurrence). */
  episode: string;
  slackUserId: string;
  careUserId: string | null;
  answer: EpisodeAnswerKind;
  /** "I can't": a reason code (services/urgent/answer-policy.ts). */
  reason?: string | null;
  /** A short note (never posted in a channel). */
  note?: string | null;
  /** "I'm on it" for someone else: the Slack user doing it. */
  doerSlackUserId?: string | null;
  /** The app's clock (ms). */
  at: number;
}

export interface EpisodeAnswer extends Required<EpisodeAnswerInput> {
  id: number;
  undoneAt: number | null;
}

const COLUMNS = 'id, action_id, episode, slack_user_id, care_user_id, answer, reason, note, doer_slack_user_id, at, undone_at';

function answerOf(r: Row): EpisodeAnswer {
  return {
    id: num(r.id),
    actionId: str(r.action_id),
    episode: str(r.episode),
    slackUserId: str(r.slack_user_id),
    careUserId: strOrNull(r.care_user_id),
    answer: str(r.answer) as EpisodeAnswerKind,
    reason: strOrNull(r.reason),
    note: strOrNull(r.note),
    doerSlackUserId: strOrNull(r.doer_slack_user_id),
    at: num(r.at),
    undoneAt: numOrNull(r.undone_at),
  };
}

/** Add an answer; null when this person's same answer to this episode is already live (nothing added). */
export async function addEpisodeAnswer(ctx: Ctx, workspaceId: string, a: EpisodeAnswerInput): Promise<EpisodeAnswer | null> {
  const row = await ctx.db.get(
    `INSERT INTO episode_answers (workspace_id, action_id, episode, slack_user_id, care_user_id, answer, reason, note, doer_slack_user_id, at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING ${COLUMNS}`,
    [workspaceId, a.actionId, a.episode, a.slackUserId, a.careUserId, a.answer, a.reason ?? null, a.note ?? null, a.doerSlackUserId ?? null, a.at],
  );
  return row ? answerOf(row) : null;
}

/** Every answer to an action (every episode, undone ones too), oldest first. */
export async function listEpisodeAnswers(ctx: Ctx, workspaceId: string, actionId: string): Promise<EpisodeAnswer[]> {
  const rows = await ctx.db.all(`SELECT ${COLUMNS} FROM episode_answers WHERE workspace_id = ? AND action_id = ? ORDER BY at, id`, [workspaceId, actionId]);
  return rows.map(answerOf);
}

const CHUNK = 500;

/** The answers to each of these actions (the evidence export), oldest first. */
export async function episodeAnswersOf(ctx: Ctx, workspaceId: string, actionIds: readonly string[]): Promise<Map<string, EpisodeAnswer[]>> {
  const out = new Map<string, EpisodeAnswer[]>();
  const ids = [...new Set(actionIds)];
  for (let i = 0; i < ids.length; i += CHUNK) {
    const part = ids.slice(i, i + CHUNK);
    const rows = await ctx.db.all(
      `SELECT ${COLUMNS} FROM episode_answers WHERE workspace_id = ? AND action_id IN (${part.map(() => '?').join(', ')}) ORDER BY at, id`,
      [workspaceId, ...part],
    );
    for (const r of rows) {
      const a = answerOf(r);
      out.set(a.actionId, [...(out.get(a.actionId) ?? []), a]);
    }
  }
  return out;
}

/** Mark an answer undone (its Undo): true for the one caller that did, false when it was undone already or is not there. */
export async function undoEpisodeAnswer(ctx: Ctx, workspaceId: string, id: number, at: number): Promise<boolean> {
  return (await ctx.db.run('UPDATE episode_answers SET undone_at = ? WHERE id = ? AND workspace_id = ? AND undone_at IS NULL', [at, id, workspaceId])) > 0;
}

/** Retention: the notes written about an action are cleared (who answered what, and when, stay); how many. */
export async function dropAnswerNotes(ctx: Ctx, workspaceId: string, actionId: string): Promise<number> {
  return ctx.db.run('UPDATE episode_answers SET note = NULL WHERE workspace_id = ? AND action_id = ? AND note IS NOT NULL', [workspaceId, actionId]);
}

/** Mark (or unmark) an action as needing two staff. */
export async function setTwoStaff(ctx: Ctx, workspaceId: string, actionId: string, twoStaff: boolean, setBy: string | null): Promise<void> {
  await ctx.db.run(
    `INSERT INTO action_marks (workspace_id, action_id, two_staff, set_by, set_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (workspace_id, action_id) DO UPDATE SET two_staff = excluded.two_staff, set_by = excluded.set_by, set_at = excluded.set_at`,
    [workspaceId, actionId, twoStaff, setBy, ctx.now()],
  );
}

/** Which of these actions the app marks as needing two staff (the evidence export). */
export async function twoStaffMarked(ctx: Ctx, workspaceId: string, actionIds: readonly string[]): Promise<Set<string>> {
  const out = new Set<string>();
  const ids = [...new Set(actionIds)];
  for (let i = 0; i < ids.length; i += CHUNK) {
    const part = ids.slice(i, i + CHUNK);
    const rows = await ctx.db.all(`SELECT action_id, two_staff FROM action_marks WHERE workspace_id = ? AND action_id IN (${part.map(() => '?').join(', ')})`, [
      workspaceId,
      ...part,
    ]);
    for (const r of rows) if (bool(r.two_staff)) out.add(str(r.action_id));
  }
  return out;
}

/** Whether the app marks an action as needing two staff (null: never marked either way). */
export async function twoStaffMark(ctx: Ctx, workspaceId: string, actionId: string): Promise<boolean | null> {
  const row = await ctx.db.get('SELECT two_staff FROM action_marks WHERE workspace_id = ? AND action_id = ?', [workspaceId, actionId]);
  return row ? bool(row.two_staff) : null;
}
