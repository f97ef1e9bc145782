import type { EventEmitter } from 'node:events';

export interface WaitOptions {
  /** Default 10,000 ms: a bound on waiting (it resolves as soon as the condition holds), wide enough for a loaded machine. */
  timeoutMs?: number;
  /** Re-check at least this often (besides on every state change); default 25 ms. */
  intervalMs?: number;
  /** Shown in the timeout error. */
  message?: string;
}

/**
 * Resolves with the first truthy value of `condition`, checked now, on every
 * change of the fake's state and every `intervalMs`; rejects after `timeoutMs`.
 */
export function waitFor<T>(events: EventEmitter, condition: () => T | Promise<T>, options: WaitOptions = {}): Promise<NonNullable<T>> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  return new Promise((resolve, reject) => {
    let done = false;
    let lastError: unknown;
    const finish = (fn: () => void) => {
      if (done) return;
      done = true;
      clearInterval(interval);
      clearTimeout(timer);
      events.off('change', check);
      fn();
    };
    const check = () => {
      if (done) return;
      Promise.resolve()
        .then(condition)
        .then(
          (value) => {
            if (value) finish(() => resolve(value as NonNullable<T>));
          },
          (e: unknown) => {
            lastError = e;
          },
        );
    };
    const interval = setInterval(check, options.intervalMs ?? 25);
    const timer = setTimeout(() => {
      const why = lastError instanceof Error ? ` (last error: ${lastError.message})` : '';
      finish(() => reject(new Error(`waitFor timed out after ${timeoutMs} ms${options.message ? `: ${options.message}` : ''}${why}`)));
    }, timeoutMs);
    events.on('change', check);
    check();
  });
}
