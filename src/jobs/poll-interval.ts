/**
 * How often the changes poll asks the care system what changed, by default:
 * as often as a small, fixed share of the key's allowance pays for, and never
 * more often than every 5 s. An idle poll is one request, so a poll every
 * `s` seconds costs `1 / s` requests a second: against `CARE_RATE_LIMIT` (the
 * requests a second this app may use of the key; a deployment that shares the
 * key sets it to its own share) that is `1 / (s × rate)` of it.
 *
 * At the default 10 requests a second: every 5 s, 0.2 requests a second, 2%.
 * A deployment given 2 requests a second of a shared key polls every 17 s
 * (2.9% of its 2). A change made in the care system's web app then reaches
 * Slack within one interval (half of one on average) plus the poll's own work.
 */

/** The most of the app's allowance the idle poll may use by default. */
export const POLL_SHARE_OF_KEY = 0.03;
/** The shortest interval (COMPLETION_POLL_SECONDS may not go below it either). */
export const MIN_POLL_SECONDS = 5;

/** Whole seconds between idle polls that keep within POLL_SHARE_OF_KEY of `ratePerSecond`, at least MIN_POLL_SECONDS. */
export function defaultPollSeconds(ratePerSecond: number): number {
  const rate = Number.isFinite(ratePerSecond) && ratePerSecond > 0 ? ratePerSecond : 10;
  // The smallest whole number of seconds s with 1 / (s × rate) ≤ share (a hair of float slack: 1 / (5 × 10) is 2%).
  return Math.max(MIN_POLL_SECONDS, Math.ceil(1 / (POLL_SHARE_OF_KEY * rate) - 1e-9));
}

/** What an idle poll every `pollSeconds` costs: requests a second, and that as a share of `ratePerSecond`. */
export function idlePollCost(pollSeconds: number, ratePerSecond: number): { requestsPerSecond: number; shareOfKey: number } {
  const requestsPerSecond = 1 / pollSeconds;
  return { requestsPerSecond, shareOfKey: requestsPerSecond / ratePerSecond };
}
