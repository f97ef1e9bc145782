/** Time source of the fake (trigger and response_url expiry, rate limits, message ts). */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

export interface ManualClock extends Clock {
  advance(ms: number): void;
  set(ms: number): void;
}

/** A clock that only moves when told to (for expiry tests without sleeping). */
export function manualClock(startMs: number = Date.UTC(2026, 10, 20, 9, 0, 0)): ManualClock {
  let current = startMs;
  return {
    now: () => current,
    advance: (ms) => {
      current += ms;
    },
    set: (ms) => {
      current = ms;
    },
  };
}
