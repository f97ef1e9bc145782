/**
 * Virtual time for tests: `sleep` registers a timer; when the event loop is
 * otherwise idle (setImmediate), time jumps to the earliest timer and fires it.
 * Concurrent sleepers therefore wake in order, and a 1.5 s wait costs nothing.
 */
export interface VirtualClock {
  now(): number;
  sleep(ms: number): Promise<void>;
  /** Every sleep requested so far, in ms (for assertions on back-off). */
  readonly sleeps: number[];
}

export function createVirtualClock(start = 1_700_000_000_000): VirtualClock {
  let current = start;
  let seq = 0;
  const timers: { at: number; seq: number; wake: () => void }[] = [];
  const sleeps: number[] = [];
  let scheduled = false;

  const fireNext = (): void => {
    scheduled = false;
    timers.sort((a, b) => a.at - b.at || a.seq - b.seq);
    const next = timers.shift();
    if (!next) return;
    current = Math.max(current, next.at);
    next.wake();
    if (timers.length > 0) schedule();
  };
  const schedule = (): void => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(fireNext);
  };

  return {
    now: () => current,
    sleeps,
    sleep(ms) {
      sleeps.push(ms);
      return new Promise<void>((wake) => {
        timers.push({ at: current + Math.max(0, ms), seq: seq++, wake });
        schedule();
      });
    },
  };
}
