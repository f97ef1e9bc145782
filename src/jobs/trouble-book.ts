/**
 * The shared book of workspaces in trouble: reads and changes each
 * workspace's record (workspace-trouble.ts) in the store, one change at a time
 * across every instance (a lease on the record's name, and a queue per
 * workspace within this instance), and tells the episode's start and end.
 */
import type { Logger } from '../logging/logger.js';
import type { Store } from '../store/index.js';
import type { BackoffPolicy } from './backoff.js';
import { type Held, withLease } from './leased-run.js';
import { troubleReason } from './trouble-reason.js';
import { afterFailure, afterSuccess, parseTrouble, troubleCursor, type WorkspaceTrouble } from './workspace-trouble.js';

export interface TroubleNotice {
  since: number;
  failures: number;
  error: string;
  kind: string;
}

export interface TroubleBookOptions {
  store: Pick<Store, 'getCursor' | 'setCursor' | 'acquireLease' | 'renewLease' | 'releaseLease'>;
  holder: string;
  logger: Logger;
  /** Length of the hold on a record while it changes (renewed while a notice is being told). */
  leaseMs: number;
  /** How long to wait for another instance's hold on the same record before giving up (default: leaseMs). */
  lockWaitMs?: number;
  now: () => number;
  backoff: BackoffPolicy;
  onTrouble?(teamId: string, trouble: TroubleNotice): Promise<void>;
  onRecovered?(teamId: string, trouble: { since: number; failures: number }): Promise<void>;
}

export interface TroubleBook {
  /** The workspace's record, or null when it is not in trouble. */
  read(teamId: string): Promise<WorkspaceTrouble | null>;
  /** Count a failed run of `kind` (backing it off) and tell the episode if it was not told yet; null if it could not be recorded. */
  failed(teamId: string, kind: string, reason: string): Promise<WorkspaceTrouble | null>;
  /** A good run of `kind`: no longer failing; the episode ends (and is told) when no kind is. */
  succeeded(teamId: string, kind: string): Promise<void>;
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function createTroubleBook(o: TroubleBookOptions): TroubleBook {
  const { store, logger } = o;
  const lockWaitMs = o.lockWaitMs ?? o.leaseMs;
  const never = new AbortController().signal; // a change begun is finished, even while stopping
  const queues = new Map<string, Promise<unknown>>();

  /** One change at a time per workspace within this instance (the lease alone would let our own holder in twice). */
  function queued<T>(teamId: string, change: () => Promise<T>): Promise<T> {
    const next = (queues.get(teamId) ?? Promise.resolve()).then(change, change);
    const tail = next.catch(() => undefined);
    queues.set(teamId, tail);
    void tail.then(() => {
      if (queues.get(teamId) === tail) queues.delete(teamId);
    });
    return next;
  }

  /** Run `change` holding the record's lease, waiting (briefly, up to lockWaitMs) while another instance holds it. */
  function locked<T>(teamId: string, change: () => Promise<T>): Promise<Held<T>> {
    const holding = { store, holder: o.holder, logger, leaseMs: o.leaseMs, stopping: never, fields: { lease: 'job-trouble', teamId } };
    return queued(teamId, async () => {
      const deadline = Date.now() + lockWaitMs;
      for (let attempt = 0; ; attempt++) {
        const got = await withLease(troubleCursor(teamId), holding, change);
        if (got.held || got.error !== undefined || Date.now() >= deadline) return got;
        await pause(Math.min(20 * 2 ** attempt, 250) * (0.5 + Math.random()));
      }
    });
  }

  const write = (teamId: string, t: WorkspaceTrouble | null) => store.setCursor(troubleCursor(teamId), t ? JSON.stringify(t) : '');

  return {
    async read(teamId) {
      return parseTrouble(await store.getCursor(troubleCursor(teamId)));
    },

    async failed(teamId, kind, reason) {
      const got = await locked(teamId, async () => {
        const state = afterFailure(parseTrouble(await store.getCursor(troubleCursor(teamId))), kind, reason, o.now(), o.backoff);
        if (!o.onTrouble) state.told = true; // nobody to tell
        await write(teamId, state); // recorded (not told) first: a crash while telling tells again next failure
        if (state.told || !o.onTrouble) return state;
        try {
          await o.onTrouble(teamId, { since: state.since, failures: state.failures, error: state.error, kind });
        } catch (err) {
          logger.warn('could not tell that a workspace is in trouble; telling at its next failure', { teamId, kind, error: troubleReason(err) });
          return state;
        }
        state.told = true;
        await write(teamId, state);
        return state;
      }).catch((error: unknown) => ({ held: false as const, error }));
      if (got.held) return got.value;
      logger.warn('could not record a workspace job failure; it is not backed off', {
        teamId,
        kind,
        ...(got.error !== undefined ? { error: troubleReason(got.error) } : { reason: 'record held elsewhere' }),
      });
      return null;
    },

    async succeeded(teamId, kind) {
      const got = await locked(teamId, async () => {
        const before = parseTrouble(await store.getCursor(troubleCursor(teamId)));
        const { state, recovered, changed } = afterSuccess(before, kind);
        if (!changed || !before) return;
        await write(teamId, state);
        if (!recovered) return;
        logger.info('a workspace’s jobs run well again', { teamId, kind, failures: before.failures });
        if (!before.told || !o.onRecovered) return; // its trouble was never told: nothing to take back
        try {
          await o.onRecovered(teamId, { since: before.since, failures: before.failures });
        } catch (err) {
          logger.warn('could not tell that a workspace recovered', { teamId, kind, error: troubleReason(err) });
        }
      }).catch((error: unknown) => ({ held: false as const, error }));
      if (!got.held) {
        logger.warn('could not record that a workspace job ran well', {
          teamId,
          kind,
          ...(got.error !== undefined ? { error: troubleReason(got.error) } : { reason: 'record held elsewhere' }),
        });
      }
    },
  };
}
