/**
 * How often the changes poll asks the care system what changed, by default:
 * as often as a small, fixed share of the key's allowance pays for, and never
 * more often than every 6 s (COMPLETION_POLL_SECONDS may set down to 5 s). An idle poll is one request, so a poll every
 * `s` seconds costs `1 / s` requests a second: against `CARE_RATE_LIMIT` (the
 * requests a second this app may use of the key; a deployment that shares the
 * key sets it to its own share) that is `1 / (s × rate)` of it.
 *
 * At the default 10 requests a second: every 6 s, 0.17 requests a second, 1.7%
 * (a change reached Slack in 4.0–4.1 s at the median, 6 s at most: bench/poll-latency.ts; at 7 s the
 * median was 4.8–5.0 s, at the bound). Every 6 s, not 5: an idle workspace's polls are most of an
 * idle instance's work (bench/minute.ts), and a sixth fewer of them costs the median about half a second.
 * A deployment given 2 requests a second of a shared key polls every 17 s
 * (2.9% of its 2). A change made in the care system's web app then reaches
 * Slack within one interval (half of one on average) plus the poll's own work.
 */

/** The most of the app's allowance the idle poll may use by default. */
export const POLL_SHARE_OF_KEY = 0.03;
/** The shortest interval COMPLETION_POLL_SECONDS may set. */
export const MIN_POLL_SECONDS = 5;
/** The shortest default interval. */
export const DEFAULT_MIN_POLL_SECONDS = 6;

/** Whole seconds between idle polls that keep within POLL_SHARE_OF_KEY of `ratePerSecond`, at least DEFAULT_MIN_POLL_SECONDS. */
export function defaultPollSeconds(ratePerSecond: number): number {
  const rate = Number.isFinite(ratePerSecond) && ratePerSecond > 0 ? ratePerSecond : 10;
  // The smallest whole number of seconds s with 1 / (s × rate) ≤ share (a hair of float slack: 1 / (5 × 10) is 2%).
  return Math.max(DEFAULT_MIN_POLL_SECONDS, Math.ceil(1 / (POLL_SHARE_OF_KEY * rate) - 1e-9));
}

/** What an idle poll every `pollSeconds` costs: requests a second, and that as a share of `ratePerSecond`. */
export function idlePollCost(pollSeconds: number, ratePerSecond: number): { requestsPerSecond: number; shareOfKey: number } {
  const requestsPerSecond = 1 / pollSeconds;
  return { requestsPerSecond, shareOfKey: requestsPerSecond / ratePerSecond };
}
