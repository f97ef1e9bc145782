/**
 * A workspace's trouble episode, as kept in the store (cursor
 * `job-trouble:<teamId>`, JSON) and shared by every instance: from the first
 * failure of one of its jobs after a success, until every kind that failed has
 * run well again. Each failing kind is backed off on its own (doubling waits);
 * the episode, and the one notice about it, belong to the workspace.
 * Pure functions: the caller reads, changes and writes the record under a lock.
 */
import { type BackoffPolicy, backoffDelay } from './backoff.js';

export interface KindTrouble {
  /** That kind's failures in a row. */
  failures: number;
  /** Runs of that kind are skipped until then (app clock, epoch ms). */
  nextAttemptAt: number;
}

export interface WorkspaceTrouble {
  /** When the episode began (its first failure). */
  since: number;
  /** Failures in the episode, of every kind. */
  failures: number;
  /** The latest failure: its kind, its short reason, and when that kind is tried again. */
  kind: string;
  error: string;
  nextAttemptAt: number;
  /** Whether the episode was told (onTrouble succeeded); told again at the next failure until it is. */
  told: boolean;
  /** The kinds failing now; the episode ends when none is left. */
  kinds: Record<string, KindTrouble>;
}

export const troubleCursor = (teamId: string): string => `job-trouble:${teamId}`;

const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** The stored record, or null for none ('' or missing) and for anything unreadable. */
export function parseTrouble(raw: string | null): WorkspaceTrouble | null {
  if (!raw) return null;
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch {
    return null;
  }
  if (!v || typeof v !== 'object') return null;
  const r = v as Partial<WorkspaceTrouble>;
  if (!finite(r.since) || !finite(r.failures) || r.failures < 1) return null;
  const kinds: Record<string, KindTrouble> = {};
  for (const [name, k] of Object.entries(r.kinds && typeof r.kinds === 'object' ? r.kinds : {})) {
    if (k && finite(k.failures) && finite(k.nextAttemptAt)) kinds[name] = { failures: k.failures, nextAttemptAt: k.nextAttemptAt };
  }
  const kind = typeof r.kind === 'string' ? r.kind : '';
  const nextAttemptAt = finite(r.nextAttemptAt) ? r.nextAttemptAt : 0;
  // A record written without per-kind detail backs off the kind it names.
  if (Object.keys(kinds).length === 0 && kind) kinds[kind] = { failures: r.failures, nextAttemptAt };
  return {
    since: r.since,
    failures: r.failures,
    kind,
    error: typeof r.error === 'string' ? r.error : '',
    nextAttemptAt,
    told: r.told === true,
    kinds,
  };
}

/** When a run of `kind` may be tried again, or null when that kind is not backed off. */
export function backedOffUntil(trouble: WorkspaceTrouble | null, kind: string): number | null {
  return trouble?.kinds[kind]?.nextAttemptAt ?? null;
}

/** The record after a failed run of `kind` at `now` (a new episode when there was none). */
export function afterFailure(trouble: WorkspaceTrouble | null, kind: string, error: string, now: number, policy: BackoffPolicy): WorkspaceTrouble {
  const failures = (trouble?.kinds[kind]?.failures ?? 0) + 1;
  const nextAttemptAt = now + backoffDelay(failures, policy);
  return {
    since: trouble?.since ?? now,
    failures: (trouble?.failures ?? 0) + 1,
    kind,
    error,
    nextAttemptAt,
    told: trouble?.told ?? false,
    kinds: { ...trouble?.kinds, [kind]: { failures, nextAttemptAt } },
  };
}

/**
 * The record after a good run of `kind`: that kind is no longer failing; when no
 * kind is, the episode is over (`state` null, `recovered` true).
 */
export function afterSuccess(trouble: WorkspaceTrouble | null, kind: string): { state: WorkspaceTrouble | null; recovered: boolean; changed: boolean } {
  if (!trouble?.kinds[kind]) return { state: trouble, recovered: false, changed: false };
  const { [kind]: _done, ...rest } = trouble.kinds;
  if (Object.keys(rest).length === 0) return { state: null, recovered: true, changed: true };
  return { state: { ...trouble, kinds: rest }, recovered: false, changed: true };
}
