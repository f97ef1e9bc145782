import { setTimeout as delay } from 'node:timers/promises';

/**
 * Time as the client sees it: `now()` in epoch milliseconds and `sleep(ms)`.
 * Used for signing timestamps, the rate limiter and retry back-off; tests pass
 * a virtual clock. (Socket timeouts use real time: they guard real I/O.)
 */
export interface CareClock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const systemClock: CareClock = {
  now: () => Date.now(),
  sleep: (ms) => (ms > 0 ? delay(ms) : Promise.resolve()),
};
