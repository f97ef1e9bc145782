import { HISTORY_METHODS } from './app-distribution.js';
import type { RateCall, RateRule } from './api/rate-scope.js';

/** One 429 the fake answered. */
export interface RateLimitedCall {
  method: string;
  /** null for calls that name no workspace (apps.connections.open, oauth.v2.access). */
  teamId: string | null;
  at: number;
  retryAfterSec: number;
  /** The rule that refused it, or `fault` for a 429 injected with `fake.faults`. */
  rule: RateRule | 'fault';
  /** The bucket (method/team/app, and conversation for posts). */
  bucket: string;
}

/** A call that came in before an earlier 429's Retry-After had passed for the same bucket. */
export interface RepeatedCall {
  method: string;
  teamId: string | null;
  at: number;
  /** When the earlier 429 said to come back. */
  retryAt: number;
  bucket: string;
}

/** conversations.history and .replies calls of one workspace in one minute of the fake's clock. */
export interface HistoryReadMinute {
  teamId: string;
  /** The minute's start (ms since the epoch, on the fake's clock). */
  minute: number;
  history: number;
  replies: number;
  /** How many of them were answered 429. */
  limited: number;
}

export interface RateLimitReport {
  /** Whether the tiers are on (`startSlackFake({ rateLimits })`). */
  enabled: boolean;
  /** Every 429 answered. */
  limited: number;
  byMethod: Record<string, number>;
  /** By team id (`-` for calls that name no workspace). */
  byTeam: Record<string, number>;
  /** By team id, then method. */
  byTeamMethod: Record<string, Record<string, number>>;
  /** Each 429, oldest first (the newest 10,000). */
  calls: RateLimitedCall[];
  /** Calls repeated inside an earlier 429's Retry-After (the app must never make one). */
  repeatedInsideRetryAfter: number;
  /** Those calls, oldest first (the newest 10,000). */
  repeats: RepeatedCall[];
  /** history/replies calls per workspace per minute, oldest first. */
  historyReads: HistoryReadMinute[];
}

/** The log keeps this many newest entries of each list (a long bench must not grow without end). */
const MAX_ENTRIES = 10_000;

function push<T>(list: T[], item: T): void {
  list.push(item);
  if (list.length > MAX_ENTRIES) list.splice(0, list.length - MAX_ENTRIES);
}

/** What the rate limits did: every 429, calls repeated inside Retry-After, history reads per minute. */
export class RateLimitLog {
  private limitedCalls: RateLimitedCall[] = [];
  private limitedCount = 0;
  private byTeamMethod: Record<string, Record<string, number>> = {};
  private repeats: RepeatedCall[] = [];
  private repeatCount = 0;
  private retryAt = new Map<string, number>();
  private reads = new Map<string, HistoryReadMinute>();

  /** A call came in: was it inside an earlier Retry-After of one of its buckets? Counts history reads. */
  arrived(call: RateCall, at: number): void {
    const blocked = call.keys.find((k) => (this.retryAt.get(k) ?? 0) > at);
    if (blocked !== undefined) {
      this.repeatCount += 1;
      push(this.repeats, { method: call.method, teamId: call.teamId, at, retryAt: this.retryAt.get(blocked)!, bucket: blocked });
    }
    const minute = this.readMinute(call, at);
    if (minute) minute[call.method === 'conversations.history' ? 'history' : 'replies'] += 1;
  }

  /** A call was answered 429 with Retry-After for these buckets. */
  limited(call: RateCall, at: number, retryAfterSec: number, rule: RateLimitedCall['rule'], keys: string[]): void {
    if (this.retryAt.size > MAX_ENTRIES) for (const [k, t] of this.retryAt) if (t <= at) this.retryAt.delete(k);
    for (const key of keys) this.retryAt.set(key, Math.max(this.retryAt.get(key) ?? 0, at + retryAfterSec * 1000));
    this.limitedCount += 1;
    const perMethod = (this.byTeamMethod[call.teamId ?? '-'] ??= {});
    perMethod[call.method] = (perMethod[call.method] ?? 0) + 1;
    push(this.limitedCalls, { method: call.method, teamId: call.teamId, at, retryAfterSec, rule, bucket: keys[0] ?? '' });
    const minute = this.readMinute(call, at);
    if (minute) minute.limited += 1;
  }

  report(enabled: boolean): RateLimitReport {
    const byMethod: Record<string, number> = {};
    const byTeam: Record<string, number> = {};
    for (const [team, methods] of Object.entries(this.byTeamMethod)) {
      for (const [method, n] of Object.entries(methods)) {
        byMethod[method] = (byMethod[method] ?? 0) + n;
        byTeam[team] = (byTeam[team] ?? 0) + n;
      }
    }
    return structuredClone({
      enabled,
      limited: this.limitedCount,
      byMethod,
      byTeam,
      byTeamMethod: this.byTeamMethod,
      calls: this.limitedCalls,
      repeatedInsideRetryAfter: this.repeatCount,
      repeats: this.repeats,
      historyReads: [...this.reads.values()].sort((a, b) => a.minute - b.minute || a.teamId.localeCompare(b.teamId)),
    });
  }

  private readMinute(call: RateCall, at: number): HistoryReadMinute | undefined {
    if (!HISTORY_METHODS.has(call.method) || call.teamId === null) return undefined;
    const minute = Math.floor(at / 60_000) * 60_000;
    const key = `${call.teamId}@${minute}`;
    let entry = this.reads.get(key);
    if (!entry) {
      entry = { teamId: call.teamId, minute, history: 0, replies: 0, limited: 0 };
      this.reads.set(key, entry);
      if (this.reads.size > MAX_ENTRIES) this.reads.delete(this.reads.keys().next().value!);
    }
    return entry;
  }
}
