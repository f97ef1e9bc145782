/**
 * Holding a store lease for the length of one piece of work: take it, renew it
 * at a third of its length, abort the work when it is lost or the scheduler
 * stops, and give it back. Used by the scheduler (workspace-scheduler.ts).
 */
import type { LogFields, Logger } from '../logging/logger.js';
import type { Store } from '../store/index.js';

export interface LeaseHolding {
  store: Pick<Store, 'acquireLease' | 'renewLease' | 'releaseLease'>;
  holder: string;
  logger: Logger;
  /** Lease length; renewed at a third of it (at least every second). */
  leaseMs: number;
  /** When aborted, the work is aborted too, and work not begun yet is not begun. */
  stopping: AbortSignal;
  /** What the log lines about the lease name (e.g. `{ job }`). */
  fields: LogFields;
  /** Told once when the lease is taken (true) and once when it is let go or lost (false). */
  observe?: (held: boolean) => void;
  /**
   * Keep the lease after the work instead of giving it back: it is taken for this long (ms), so this holder's
   * next run finds it its own and another holder's does not: the work (and the memory it needs) stays on one
   * instance until that one stops (it gives its kept leases back) or dies (they run out).
   */
  keepMs?: number | undefined;
  /** Already held (a lease kept since this holder's last run, and renewed since): run without taking it again. */
  held?: boolean | undefined;
}

/** `held: false` when another holder has the lease, the scheduler is stopping, or (with `error`) the store could not be asked. */
export type Held<T> = { held: false; error?: unknown } | { held: true; value: T };

/**
 * Run `work` while holding the lease `name`. The work's signal aborts when the
 * scheduler stops or the lease is lost; errors the work throws are rethrown
 * after the lease is given back.
 */
export async function withLease<T>(name: string, o: LeaseHolding, work: (signal: AbortSignal) => Promise<T>): Promise<Held<T>> {
  const { store, holder, leaseMs, logger } = o;
  let leased = o.held === true;
  try {
    if (!leased) leased = await store.acquireLease(name, holder, o.keepMs ?? leaseMs);
  } catch (error) {
    return { held: false, error };
  }
  if (!leased) return { held: false };
  let letGo = false;
  const reportLetGo = () => {
    if (letGo) return;
    letGo = true;
    o.observe?.(false);
  };
  o.observe?.(true);
  if (o.stopping.aborted) {
    reportLetGo();
    await store.releaseLease(name, holder).catch(() => undefined);
    return { held: false };
  }
  const abort = new AbortController();
  const onStop = () => abort.abort();
  o.stopping.addEventListener('abort', onStop);
  // A renewal that fails (the database is away) is logged; once a whole lease has passed
  // since the last confirmed renewal, another holder may have the lease: stop.
  let confirmedAt = Date.now();
  const lost = (why: string) => {
    if (abort.signal.aborted) return;
    logger.warn(`${why}; stopping the run`, o.fields);
    reportLetGo();
    abort.abort();
  };
  const renew = setInterval(
    () => {
      store.renewLease(name, holder, o.keepMs ?? leaseMs).then(
        (ok) => {
          if (ok) confirmedAt = Date.now();
          else lost('lost a job lease');
        },
        (err) => {
          logger.warn('could not renew a job lease', { ...o.fields, error: err });
          if (Date.now() - confirmedAt >= leaseMs) lost('the job lease may have run out');
        },
      );
    },
    Math.max(1000, leaseMs / 3),
  );
  renew.unref();
  try {
    return { held: true, value: await work(abort.signal) };
  } finally {
    clearInterval(renew);
    o.stopping.removeEventListener('abort', onStop);
    if (!o.keepMs || abort.signal.aborted) await store.releaseLease(name, holder).catch(() => undefined);
    reportLetGo();
  }
}

/** Run `work` with a signal that aborts when the scheduler stops (work of this instance alone, no lease). */
export async function withStopSignal<T>(stopping: AbortSignal, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const abort = new AbortController();
  const onStop = () => abort.abort();
  if (stopping.aborted) abort.abort();
  else stopping.addEventListener('abort', onStop);
  try {
    return await work(abort.signal);
  } finally {
    stopping.removeEventListener('abort', onStop);
  }
}
