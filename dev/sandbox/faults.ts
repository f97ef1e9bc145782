/** Injected failures for /v1 requests, set through `POST /_sandbox/faults`. */
export interface FaultSettings {
  /** Share of requests answered with `errorStatus` (0 to 1). */
  errorRate: number;
  errorStatus: number;
  /** Delay added before every request is handled. */
  latencyMs: number;
  /** The next n requests are answered 429. */
  force429: number;
}

export type FaultDecision = { kind: 'none' } | { kind: 'rate-limit' } | { kind: 'error'; status: number };

export const NO_FAULTS: FaultSettings = { errorRate: 0, errorStatus: 500, latencyMs: 0, force429: 0 };

export class Faults {
  private current: FaultSettings = { ...NO_FAULTS };

  constructor(private readonly random: () => number = Math.random) {}

  get settings(): FaultSettings {
    return { ...this.current };
  }

  /** Merge new settings; `reset` first clears everything. */
  update(change: Partial<FaultSettings> & { reset?: boolean }): FaultSettings {
    const { reset, ...rest } = change;
    if (reset) this.current = { ...NO_FAULTS };
    this.current = { ...this.current, ...Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined)) };
    return this.settings;
  }

  get latencyMs(): number {
    return this.current.latencyMs;
  }

  /** Decide the fate of one request (a forced 429 is used up by it). */
  decide(): FaultDecision {
    if (this.current.force429 > 0) {
      this.current.force429--;
      return { kind: 'rate-limit' };
    }
    if (this.current.errorRate > 0 && this.random() < this.current.errorRate) return { kind: 'error', status: this.current.errorStatus };
    return { kind: 'none' };
  }
}
