/**
 * The demo's one clock: real time plus an offset that only moves forward
 * ("advance to the next digest"). The app, the Slack fake and the sandbox's
 * virtual clock all follow it, so dates, message times and "due today" agree.
 */
export interface DemoClock {
  now(): Date;
  nowMs(): number;
  /** Jump to `at` (later than now; an earlier instant is refused so message times never go back). */
  jumpTo(at: Date): void;
  /** How far ahead of real time the demo runs, in ms. */
  readonly offsetMs: number;
}

export function createDemoClock(realNow: () => number = Date.now, startOffsetMs = 0): DemoClock {
  let offsetMs = startOffsetMs;
  const nowMs = () => realNow() + offsetMs;
  return {
    now: () => new Date(nowMs()),
    nowMs,
    jumpTo(at) {
      const delta = at.getTime() - nowMs();
      if (delta < 0) throw new Error(`The demo clock only moves forward (asked to go back ${Math.round(-delta / 1000)} s).`);
      offsetMs += delta;
    },
    get offsetMs() {
      return offsetMs;
    },
  };
}
