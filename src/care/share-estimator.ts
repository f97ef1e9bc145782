/**
 * How much of the key's allowance other programs use, learnt from the
 * rate-limit headers. Against a fixed-window server (Reset stays the same for
 * the whole window), `Limit - Remaining` counts every request of the window
 * (ours and theirs) up to ours; what is not ours is theirs. The per-window
 * maximum is smoothed (EWMA) across windows.
 *
 * Measured only when nothing of ours sent earlier is still in flight (then the
 * count is unambiguous), and only windows with two or more of our responses
 * count (servers whose Reset moves with every response give no estimate, and
 * the client simply keeps its own pace).
 */
export interface WindowObservation {
  /** The server's requests per window (X-CareHQ-RateLimit-Limit). */
  limit: number;
  remaining: number;
  /** Identifies the window. */
  resetAt: number;
  /** Our requests sent before this one and still without a response. */
  pendingBefore: number;
}

export interface ShareEstimator {
  /** A response the server counted (not a 429). */
  observe(o: WindowObservation): void;
  /** Smoothed number of other programs' requests per window. */
  foreignPerWindow(): number;
}

export function createShareEstimator(alpha = 0.4): ShareEstimator {
  let estimate = 0;
  let window: { resetAt: number; ours: number; responses: number; foreign: number } | undefined;

  const fold = (): void => {
    if (window && window.responses >= 2) estimate = (1 - alpha) * estimate + alpha * window.foreign;
  };

  return {
    observe(o) {
      if (!window || window.resetAt !== o.resetAt) {
        fold();
        window = { resetAt: o.resetAt, ours: 0, responses: 0, foreign: 0 };
      }
      window.ours += 1;
      window.responses += 1;
      if (o.pendingBefore === 0) window.foreign = Math.max(window.foreign, o.limit - o.remaining - window.ours);
    },
    foreignPerWindow: () => estimate,
  };
}
