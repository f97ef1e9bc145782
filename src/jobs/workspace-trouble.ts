/**
 * A workspace's trouble episode, as the scheduler sees it: from the first failure of one of its jobs after a
 * success, until every kind that failed has run well again. Each failing kind is backed off on its own
 * (doubling waits); the episode, and the one notice about it, belong to the workspace. The rows it is read
 * from, and the statements that change them, are the store's (store/job-state.ts, `job_state`).
 * Pure functions.
 */
import type { JobState } from '../store/index.js';
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

/** The workspace's episode from its job state, or null when it is not in trouble. */
export function troubleOf(state: JobState): WorkspaceTrouble | null {
  const kinds: Record<string, KindTrouble> = {};
  for (const k of state.kinds) if (k.failures > 0) kinds[k.kind] = { failures: k.failures, nextAttemptAt: k.backedOffUntil ?? 0 };
  const e = state.episode;
  if (!e) {
    // Kinds failing without an episode row: backed off all the same, never told.
    const failing = state.kinds.filter((k) => k.failures > 0).sort((a, b) => (a.lastFailedAt ?? 0) - (b.lastFailedAt ?? 0));
    const last = failing[failing.length - 1];
    if (!last) return null;
    const since = Math.min(...failing.map((k) => k.firstFailedAt ?? k.lastFailedAt ?? 0));
    const failures = failing.reduce((n, k) => n + k.failures, 0);
    return { since, failures, kind: last.kind, error: last.lastError ?? '', nextAttemptAt: last.backedOffUntil ?? 0, told: false, kinds };
  }
  return {
    since: e.since,
    failures: e.failures,
    kind: e.lastKind,
    error: e.lastError,
    nextAttemptAt: kinds[e.lastKind]?.nextAttemptAt ?? 0,
    told: e.toldAt !== null,
    kinds,
  };
}

/** When a run of `kind` may be tried again, or null when that kind is not backed off. */
export function backedOffUntil(trouble: WorkspaceTrouble | null, kind: string): number | null {
  return trouble?.kinds[kind]?.nextAttemptAt ?? null;
}

/** The waits after 1, 2, 3… failures in a row, up to the first that reaches the policy's max (the last is for any more). */
export function backoffWaits(policy: BackoffPolicy, longest = 64): number[] {
  const waits: number[] = [];
  for (let n = 1; n <= longest; n++) {
    const wait = backoffDelay(n, policy);
    waits.push(wait);
    if (wait >= policy.maxMs || (n > 1 && wait === waits[n - 2])) break;
  }
  return waits;
}

/** A Slack user or bot Id (U…, W…, B…), alone or in a mention. */
const SLACK_ID = /\b[UWB](?=[A-Z0-9]*\d)[A-Z0-9]{6,}\b/g;
const EMAIL = /[^\s@<>()"',;:]+@[^\s@<>()"',;:]+\.[A-Za-z]{2,}/g;

/** A failure's reason as the store keeps it: without Slack Ids or email addresses (who it was about is not kept). */
export function keptReason(reason: string): string {
  return reason.replace(EMAIL, '[email]').replace(SLACK_ID, '[id]');
}
