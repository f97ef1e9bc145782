/**
 * Job state in a row (migration 015, `job_state`): per workspace and job kind, that kind's failures in a row,
 * its backoff and the last slot claimed for it; the row of kind '' is the workspace's trouble episode (since
 * when, its failures of every kind, the latest failure's kind and reason, whether its notice was told).
 *
 * Every change is a conditional statement whose outcome the database decides, so instances need no lease:
 * a failure's upsert of the episode row tells exactly one caller to tell the episode (a claim held for a while:
 * released when telling failed, run out when its teller died); a success's delete of the episode row, when no
 * kind is failing any more, tells exactly one caller that it ended; a slot is claimed by one caller. A failure
 * and a success each change two rows (the episode's, then the kind's) in one transaction that takes the
 * episode row first, so two changes of one workspace never cross (its row lock on PostgreSQL; on SQLite a
 * transaction holds the file).
 *
 * Reasons are given short and without credentials or people's names and ids (jobs/workspace-trouble.ts).
 */
import type { Ctx, Db, Row } from './db.js';
import { num, numOrNull, str, strOrNull } from './db.js';
import { sharedNow } from './shared-clock.js';

/** The kind of a workspace's trouble episode row. */
const EPISODE = '';

const COLUMNS =
  'workspace_id, kind, failures, first_failed_at, last_failed_at, backed_off_until, last_kind, last_error, told_at, telling_by, telling_until, slot';

export interface JobKindState {
  kind: string;
  /** Failures in a row (0: it runs well). */
  failures: number;
  firstFailedAt: number | null;
  lastFailedAt: number | null;
  /** Runs are skipped until then (the app's clock); null when not backed off. */
  backedOffUntil: number | null;
  lastError: string | null;
  /** The last scheduled slot claimed for it (claimJobSlot); null when none. */
  slot: number | null;
}

export interface JobEpisode {
  /** Its first failure. */
  since: number;
  /** Failures in it, of every kind. */
  failures: number;
  /** The latest failure's kind and reason. */
  lastKind: string;
  lastError: string;
  /** When its notice was told; null until it is. */
  toldAt: number | null;
}

export interface JobState {
  workspaceId: string;
  /** The trouble episode going on; null when none. */
  episode: JobEpisode | null;
  /** Every kind with a row (failing or not), by name. */
  kinds: JobKindState[];
}

export interface JobFailure {
  kind: string;
  /** When it failed (the app's clock). */
  at: number;
  /** Short and safe: no credential, no task text, no name or id of a person. */
  reason: string;
  /** The wait after 1, 2, 3… failures in a row (ms): the last one for any more. At least one. */
  backoff: readonly number[];
  /** Who would tell the episode (unique per call): the claim is theirs. */
  teller: string;
  /** How long the claim to tell is kept before another failure may tell instead (the store's shared clock). */
  tellForMs: number;
}

export interface JobFailureOutcome {
  /** True for the one caller that is to tell the episode now (it began, or its notice was not told yet and no one is telling it). */
  tell: boolean;
  state: JobState;
}

export interface JobSuccessOutcome {
  /** False when the kind was not failing (nothing changed). */
  changed: boolean;
  /** The episode this success ended (no kind is failing any more), for the one caller that ended it; else null. */
  ended: JobEpisode | null;
  state: JobState;
}

const wholeMs = (ms: number): number => (Number.isFinite(ms) ? Math.max(0, Math.floor(ms)) : Number.MAX_SAFE_INTEGER);

/** The wait after the kind's failures (the old count in `job_state.failures`), as SQL over whole-number literals. */
function backoffSql(backoff: readonly number[]): string {
  if (backoff.length === 0) throw new Error('a backoff needs at least one wait');
  const waits = backoff.map(wholeMs);
  const last = waits[waits.length - 1]!;
  if (waits.length === 1) return String(last);
  return `CASE job_state.failures ${waits
    .slice(0, -1)
    .map((w, i) => `WHEN ${i} THEN ${w}`)
    .join(' ')} ELSE ${last} END`;
}

function toKind(r: Row): JobKindState {
  return {
    kind: str(r.kind),
    failures: num(r.failures),
    firstFailedAt: numOrNull(r.first_failed_at),
    lastFailedAt: numOrNull(r.last_failed_at),
    backedOffUntil: numOrNull(r.backed_off_until),
    lastError: strOrNull(r.last_error),
    slot: numOrNull(r.slot),
  };
}

function toEpisode(r: Row): JobEpisode {
  return {
    since: num(r.first_failed_at),
    failures: num(r.failures),
    lastKind: strOrNull(r.last_kind) ?? '',
    lastError: strOrNull(r.last_error) ?? '',
    toldAt: numOrNull(r.told_at),
  };
}

function toStates(rows: Row[], workspaceIds: readonly string[]): Map<string, JobState> {
  const out = new Map<string, JobState>(workspaceIds.map((id) => [id, { workspaceId: id, episode: null, kinds: [] }]));
  for (const r of rows) {
    const state = out.get(str(r.workspace_id));
    if (!state) continue;
    if (str(r.kind) === EPISODE) state.episode = toEpisode(r);
    else state.kinds.push(toKind(r));
  }
  return out;
}

async function readOne(db: Db, workspaceId: string): Promise<JobState> {
  const rows = await db.all(`SELECT ${COLUMNS} FROM job_state WHERE workspace_id = ? ORDER BY kind`, [workspaceId]);
  return toStates(rows, [workspaceId]).get(workspaceId)!;
}

/** A workspace's job state: its episode (if any) and every kind with a row. */
export function readJobState(ctx: Ctx, workspaceId: string): Promise<JobState> {
  return readOne(ctx.db, workspaceId);
}

const CHUNK = 500;

/** Many workspaces' job state, one query per 500 of them: every workspace asked has an entry. */
export async function readJobStates(ctx: Ctx, workspaceIds: readonly string[]): Promise<Map<string, JobState>> {
  const ids = [...new Set(workspaceIds)];
  const rows: Row[] = [];
  for (let i = 0; i < ids.length; i += CHUNK) {
    const part = ids.slice(i, i + CHUNK);
    rows.push(
      ...(await ctx.db.all(`SELECT ${COLUMNS} FROM job_state WHERE workspace_id IN (${part.map(() => '?').join(', ')}) ORDER BY workspace_id, kind`, part)),
    );
  }
  return toStates(rows, ids);
}

/** Hold the workspace's episode row until the transaction ends (PostgreSQL; a SQLite transaction already holds the file). */
async function holdEpisode(db: Db, workspaceId: string): Promise<void> {
  if (db.kind === 'postgres') await db.all('SELECT 1 FROM job_state WHERE workspace_id = ? AND kind = ? FOR UPDATE', [workspaceId, EPISODE]);
}

/**
 * A failed run of `kind`: the episode begins (or counts one more failure) and the kind is backed off for the
 * wait after its failures in a row. `tell` is true for exactly one caller while the episode's notice is untold
 * and nobody holds the claim to tell it: that caller tells, then markJobTroubleTold (or releaseJobTroubleTell).
 */
export async function recordJobFailure(ctx: Ctx, workspaceId: string, f: JobFailure): Promise<JobFailureOutcome> {
  if (f.kind === EPISODE) throw new Error('a job kind has a name');
  const now = sharedNow(ctx);
  const until = `${now.sql} + CAST(? AS BIGINT)`;
  const claimable = `job_state.told_at IS NULL AND (job_state.telling_until IS NULL OR job_state.telling_until <= ${now.sql})`;
  return ctx.db.transaction(async (db) => {
    const episode = await db.get(
      `INSERT INTO job_state (workspace_id, kind, failures, first_failed_at, last_failed_at, last_kind, last_error, telling_by, telling_until, updated_at)
       VALUES (?, ?, 1, ?, ?, ?, ?, ?, ${until}, ?)
       ON CONFLICT (workspace_id, kind) DO UPDATE SET
         failures = job_state.failures + 1,
         last_failed_at = excluded.last_failed_at,
         last_kind = excluded.last_kind,
         last_error = excluded.last_error,
         telling_by = CASE WHEN ${claimable} THEN excluded.telling_by ELSE job_state.telling_by END,
         telling_until = CASE WHEN ${claimable} THEN excluded.telling_until ELSE job_state.telling_until END,
         updated_at = excluded.updated_at
       RETURNING telling_by, told_at`,
      [workspaceId, EPISODE, f.at, f.at, f.kind, f.reason, f.teller, now.value, wholeMs(f.tellForMs), f.at, now.value, now.value],
    );
    const first = wholeMs(f.backoff[0] ?? 0);
    await db.run(
      `INSERT INTO job_state (workspace_id, kind, failures, first_failed_at, last_failed_at, backed_off_until, last_error, updated_at)
       VALUES (?, ?, 1, ?, ?, CAST(? AS BIGINT) + ${first}, ?, ?)
       ON CONFLICT (workspace_id, kind) DO UPDATE SET
         failures = job_state.failures + 1,
         first_failed_at = CASE WHEN job_state.failures > 0 THEN job_state.first_failed_at ELSE excluded.first_failed_at END,
         last_failed_at = excluded.last_failed_at,
         backed_off_until = excluded.last_failed_at + ${backoffSql(f.backoff)},
         last_error = excluded.last_error,
         updated_at = excluded.updated_at`,
      [workspaceId, f.kind, f.at, f.at, f.at, f.reason, f.at],
    );
    const tell = episode !== undefined && strOrNull(episode.telling_by) === f.teller && numOrNull(episode.told_at) === null;
    return { tell, state: await readOne(db, workspaceId) };
  });
}

/**
 * A good run of `kind`: it is no longer failing (its row kept, for its slot); when no kind is, the episode row
 * goes, and the one caller whose statement took it learns which episode ended (and whether it was told).
 */
export async function recordJobSuccess(ctx: Ctx, workspaceId: string, kind: string, at: number): Promise<JobSuccessOutcome> {
  return ctx.db.transaction(async (db) => {
    await holdEpisode(db, workspaceId);
    const changed =
      (await db.run(
        `UPDATE job_state SET failures = 0, first_failed_at = NULL, backed_off_until = NULL, last_error = NULL, updated_at = ?
         WHERE workspace_id = ? AND kind = ? AND kind <> ? AND failures > 0`,
        [at, workspaceId, kind, EPISODE],
      )) > 0;
    const gone = changed
      ? await db.get(
          `DELETE FROM job_state WHERE workspace_id = ? AND kind = ?
             AND NOT EXISTS (SELECT 1 FROM job_state k WHERE k.workspace_id = ? AND k.kind <> ? AND k.failures > 0)
           RETURNING ${COLUMNS}`,
          [workspaceId, EPISODE, workspaceId, EPISODE],
        )
      : undefined;
    return { changed, ended: gone ? toEpisode(gone) : null, state: await readOne(db, workspaceId) };
  });
}

/** The episode's notice was told by `teller` (who held the claim): true when it was still theirs to mark. */
export async function markJobTroubleTold(ctx: Ctx, workspaceId: string, teller: string, at: number): Promise<boolean> {
  return (
    (await ctx.db.run(
      `UPDATE job_state SET told_at = ?, telling_by = NULL, telling_until = NULL, updated_at = ?
       WHERE workspace_id = ? AND kind = ? AND telling_by = ? AND told_at IS NULL`,
      [at, at, workspaceId, EPISODE, teller],
    )) > 0
  );
}

/** Telling failed: the claim is given back, so the episode is told at its next failure. */
export async function releaseJobTroubleTell(ctx: Ctx, workspaceId: string, teller: string): Promise<boolean> {
  return (
    (await ctx.db.run('UPDATE job_state SET telling_by = NULL, telling_until = NULL WHERE workspace_id = ? AND kind = ? AND telling_by = ?', [
      workspaceId,
      EPISODE,
      teller,
    ])) > 0
  );
}

/** Claim a scheduled slot of `kind` for the workspace: true for the one caller claiming it first (no later slot was claimed). */
export async function claimJobSlot(ctx: Ctx, workspaceId: string, kind: string, slot: number, at: number): Promise<boolean> {
  if (kind === EPISODE) throw new Error('a job kind has a name');
  const row = await ctx.db.get(
    `INSERT INTO job_state (workspace_id, kind, slot, updated_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (workspace_id, kind) DO UPDATE SET slot = excluded.slot, updated_at = excluded.updated_at
     WHERE job_state.slot IS NULL OR job_state.slot < excluded.slot
     RETURNING slot`,
    [workspaceId, kind, slot, at],
  );
  return row !== undefined;
}
