/**
 * The shared book of workspaces in trouble: records each failed and good run in the workspace's job state
 * (store/job-state.ts: one conditional statement a row, decided by the database, so instances need no lease
 * and wait for nothing), and tells the episode's start and end. The store says which one caller tells: the
 * one whose failure began the episode (or found it untold, and nobody telling it), and the one whose success
 * ended a told episode.
 */
import { randomUUID } from 'node:crypto';
import type { Logger } from '../logging/logger.js';
import type { Store } from '../store/index.js';
import type { BackoffPolicy } from './backoff.js';
import { troubleReason } from './trouble-reason.js';
import { backoffWaits, keptReason, troubleOf, type WorkspaceTrouble } from './workspace-trouble.js';

export interface TroubleNotice {
  since: number;
  failures: number;
  error: string;
  kind: string;
}

export interface TroubleBookOptions {
  store: Pick<Store, 'recordJobFailure' | 'recordJobSuccess' | 'markJobTroubleTold' | 'releaseJobTroubleTell' | 'readJobState' | 'readJobStates'>;
  /** This instance's name: the start of each claim to tell. */
  holder: string;
  logger: Logger;
  /** How long a claim to tell an episode lasts before another failure may tell it instead (its teller died). */
  leaseMs: number;
  now: () => number;
  backoff: BackoffPolicy;
  onTrouble?(teamId: string, trouble: TroubleNotice): Promise<void>;
  onRecovered?(teamId: string, trouble: { since: number; failures: number }): Promise<void>;
}

export interface TroubleBook {
  /** The workspace's episode, or null when it is not in trouble. */
  read(teamId: string): Promise<WorkspaceTrouble | null>;
  /** Those of these workspaces in trouble, in one query (per 500): a workspace left out is not. */
  readMany(teamIds: readonly string[]): Promise<Map<string, WorkspaceTrouble>>;
  /** Count a failed run of `kind` (backing it off) and tell the episode if it was not told yet; null if it could not be recorded. */
  failed(teamId: string, kind: string, reason: string): Promise<WorkspaceTrouble | null>;
  /** A good run of `kind`: no longer failing; the episode ends (and is told) when no kind is. */
  succeeded(teamId: string, kind: string): Promise<void>;
}

export function createTroubleBook(o: TroubleBookOptions): TroubleBook {
  const { store, logger } = o;
  const waits = backoffWaits(o.backoff);

  /** The episode's notice, by the one caller the store chose; told again at the next failure when it could not be. */
  async function tell(teamId: string, trouble: WorkspaceTrouble, notice: TroubleNotice, teller: string): Promise<WorkspaceTrouble> {
    if (o.onTrouble) {
      try {
        await o.onTrouble(teamId, notice);
      } catch (err) {
        logger.warn('could not tell that a workspace is in trouble; telling at its next failure', { teamId, kind: notice.kind, error: troubleReason(err) });
        await store.releaseJobTroubleTell(teamId, teller).catch((error: unknown) => {
          logger.warn('could not give back the claim to tell a workspace’s trouble; it runs out', { teamId, error: troubleReason(error) });
        });
        return trouble;
      }
    }
    // Nobody to tell: told all the same (its recovery is then told, as before).
    const told = await store.markJobTroubleTold(teamId, teller, o.now()).catch((error: unknown) => {
      logger.warn('could not note that a workspace’s trouble was told', { teamId, error: troubleReason(error) });
      return false;
    });
    return told ? { ...trouble, told: true } : trouble;
  }

  return {
    async read(teamId) {
      return troubleOf(await store.readJobState(teamId));
    },

    async readMany(teamIds) {
      const out = new Map<string, WorkspaceTrouble>();
      for (const [teamId, state] of await store.readJobStates(teamIds)) {
        const trouble = troubleOf(state);
        if (trouble) out.set(teamId, trouble);
      }
      return out;
    },

    async failed(teamId, kind, reason) {
      const teller = `${o.holder}/${randomUUID()}`;
      let outcome: Awaited<ReturnType<typeof store.recordJobFailure>>;
      try {
        outcome = await store.recordJobFailure(teamId, { kind, at: o.now(), reason: keptReason(reason), backoff: waits, teller, tellForMs: o.leaseMs });
      } catch (err) {
        logger.warn('could not record a workspace job failure; it is not backed off', { teamId, kind, error: troubleReason(err) });
        return null;
      }
      const trouble = troubleOf(outcome.state);
      if (!trouble) return null;
      if (!outcome.tell) return trouble;
      return tell(teamId, trouble, { since: trouble.since, failures: trouble.failures, error: reason, kind }, teller);
    },

    async succeeded(teamId, kind) {
      let outcome: Awaited<ReturnType<typeof store.recordJobSuccess>>;
      try {
        outcome = await store.recordJobSuccess(teamId, kind, o.now());
      } catch (err) {
        logger.warn('could not record that a workspace job ran well', { teamId, kind, error: troubleReason(err) });
        return;
      }
      const ended = outcome.ended;
      if (!ended) return;
      logger.info('a workspace’s jobs run well again', { teamId, kind, failures: ended.failures });
      if (ended.toldAt === null || !o.onRecovered) return; // its trouble was never told: nothing to take back
      try {
        await o.onRecovered(teamId, { since: ended.since, failures: ended.failures });
      } catch (err) {
        logger.warn('could not tell that a workspace recovered', { teamId, kind, error: troubleReason(err) });
      }
    },
  };
}
