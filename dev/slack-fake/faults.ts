/** An injected failure: an API error (HTTP 200 unless `status` says otherwise), or a bare 5xx. */
export interface FaultFailure {
  /** Slack error code, e.g. "internal_error", "ratelimited", "channel_not_found". */
  error?: string;
  /** HTTP status; 429 adds Retry-After, 5xx answers without a Slack body. */
  status?: number;
  retryAfterSec?: number;
  /** Answer this much later. With no error and no status: a slow answer that succeeds. */
  delayMs?: number;
  /** Only calls whose arguments have these values (e.g. one email address). */
  args?: Record<string, string>;
}

interface NextFailure extends FaultFailure {
  method: string;
  remaining: number;
}

const matches = (n: NextFailure, method: string, args: Record<string, unknown>) =>
  n.method === method && n.remaining > 0 && Object.entries(n.args ?? {}).every(([k, v]) => String(args[k] ?? '').toLowerCase() === v.toLowerCase());

/** JSON view of the injected faults (for the playground). */
export interface FaultConfig {
  serverErrorShare: number;
  serverErrorStatus: number;
  serverErrorMethods: string[] | null;
  latencyMs: number;
  latencyMethods: string[] | null;
  /** The share of those calls slowed (1: every one). */
  latencyShare: number;
  next: NextFailure[];
}

export interface FaultDecision {
  delayMs: number;
  failure?: FaultFailure;
}

/** Faults a test can inject into the fake Web API (and response_url posts, method "response_url"). */
export class Faults {
  private state: FaultConfig = emptyConfig();

  constructor(private readonly random: () => number = Math.random) {}

  /** The next `count` calls of `method` fail (default: `internal_error`). */
  failNext(method: string, count = 1, failure: string | FaultFailure = 'internal_error'): void {
    const f = typeof failure === 'string' ? { error: failure } : failure;
    this.state.next.push({ method, remaining: count, ...f });
  }

  /** A share (0..1) of calls answers with a bare 5xx (default 500), optionally only for some methods. */
  serverErrors(share: number, options: { status?: number; methods?: string[] } = {}): void {
    this.state.serverErrorShare = share;
    this.state.serverErrorStatus = options.status ?? 500;
    this.state.serverErrorMethods = options.methods ?? null;
  }

  /** Adds latency to every call (or only to some methods; or only to a random share of them). */
  latency(ms: number, options: { methods?: string[]; share?: number } = {}): void {
    this.state.latencyMs = ms;
    this.state.latencyMethods = options.methods ?? null;
    this.state.latencyShare = options.share ?? 1;
  }

  clear(): void {
    this.state = emptyConfig();
  }

  get config(): FaultConfig {
    return structuredClone(this.state);
  }

  /** What happens to this call (consumes a "next N" failure when one matches). */
  decide(method: string, args: Record<string, unknown> = {}): FaultDecision {
    const s = this.state;
    const slowed = s.latencyMs > 0 && (!s.latencyMethods || s.latencyMethods.includes(method)) && (s.latencyShare >= 1 || this.random() < s.latencyShare);
    const delayMs = slowed ? s.latencyMs : 0;
    const next = s.next.find((n) => matches(n, method, args));
    if (next) {
      next.remaining -= 1;
      if (next.remaining === 0) s.next.splice(s.next.indexOf(next), 1);
      const { method: _m, remaining: _r, delayMs: slow, args: _a, ...failure } = next;
      const delay = Math.max(delayMs, slow ?? 0);
      return failure.error === undefined && failure.status === undefined ? { delayMs: delay } : { delayMs: delay, failure };
    }
    const eligible = !s.serverErrorMethods || s.serverErrorMethods.includes(method);
    if (eligible && s.serverErrorShare > 0 && this.random() < s.serverErrorShare) {
      return { delayMs, failure: { status: s.serverErrorStatus } };
    }
    return { delayMs };
  }
}

function emptyConfig(): FaultConfig {
  return { serverErrorShare: 0, serverErrorStatus: 500, serverErrorMethods: null, latencyMs: 0, latencyMethods: null, latencyShare: 1, next: [] };
}
