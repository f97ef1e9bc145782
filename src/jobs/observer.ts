/**
 * What the scheduler and the jobs tell an observer (for metrics). Job names
 * only (a bounded set): never what a job read or posted.
 */
export interface JobsObserver {
  /** This instance took (true) or let go of (false) a job's lease. */
  lease?(job: string, held: boolean): void;
  /** A leased run ended: how long it took, and whether it failed. */
  ran?(job: string, ms: number, ok: boolean): void;
  /**
   * A changes poll read everything up to now: `lagMs` is the app's time minus
   * the newest `modified` the poll knows of (it grows while nothing changes).
   */
  polled?(lagMs: number): void;
}
