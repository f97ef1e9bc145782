/**
 * What the client tells an observer about each HTTP attempt (for metrics).
 * Only bounded values: the resource's name (never an Id), the HTTP method,
 * the status or the kind of failure, and timings.
 */
export interface CareAttempt {
  /** The first path segment after /v1, e.g. `actions`, `notification-groups`. */
  resource: string;
  method: 'GET' | 'PUT' | 'PATCH';
  /** The HTTP status, or what happened instead of an answer. */
  status: number | 'timeout' | 'connect-error' | 'network-error' | 'closed';
  /** This attempt repeats an earlier one of the same call. */
  retry: boolean;
  /** Time spent waiting for the rate limiter before sending. */
  waitedMs: number;
  /** Time slept before this attempt (a retry's back-off, or a 429's wait for the reset); 0 for a first attempt. */
  backoffMs: number;
  /** From sending to the whole answer (or the failure). */
  durationMs: number;
}

export type CareAttemptObserver = (attempt: CareAttempt) => void;

/** `/v1/actions/<id>/complete` -> `actions`. */
export function resourceOf(apiPath: string): string {
  return apiPath.split('/')[2] ?? '';
}
