import { type WebClientOptions, WebClient } from '@slack/web-api';
import type { Logger } from '../logging/logger.js';
import { boltLogger } from './bolt-logger.js';

/**
 * How each part of the app talks to the Slack Web API:
 * - `interactive`: answers to people (Bolt's own client and the listeners'): a couple of quick retries;
 * - `jobs`: scheduled work: more retries (honouring Retry-After), bounded;
 * - `poster`: the deliverer's posts: never retries by itself (the deliverer retries within its claim
 *   and checks the channel's history after an unclear failure).
 * Every client has a timeout (the library's default has none).
 */
export type SlackClientUse = 'interactive' | 'jobs' | 'poster';

/** The `fetch` every Web API call goes through (metrics observe calls here); the global one by default. */
export type SlackFetch = NonNullable<WebClientOptions['fetch']>;

export function slackClientOptions(
  use: SlackClientUse,
  o: { apiUrl?: string | undefined; posterTimeoutMs?: number; fetch?: SlackFetch | undefined },
): WebClientOptions {
  const base = { ...(o.apiUrl ? { slackApiUrl: o.apiUrl } : {}), ...(o.fetch ? { fetch: o.fetch } : {}) };
  switch (use) {
    case 'interactive':
      return { ...base, retryConfig: { retries: 2, factor: 2, minTimeout: 200, maxTimeout: 2000 }, timeout: 10_000, rejectRateLimitedCalls: false };
    case 'jobs':
      return { ...base, retryConfig: { retries: 5, factor: 2, minTimeout: 500, maxTimeout: 5000 }, timeout: 10_000, rejectRateLimitedCalls: false };
    case 'poster':
      return { ...base, retryConfig: { retries: 0 }, timeout: o.posterTimeoutMs ?? 10_000, rejectRateLimitedCalls: true };
  }
}

/**
 * A WebClient for one use that logs through our logger (JSON, levelled), never
 * its debug lines, which hold whole request bodies (message text, emails).
 */
export function createSlackWebClient(
  token: string,
  use: SlackClientUse,
  o: { apiUrl?: string | undefined; logger: Logger; posterTimeoutMs?: number; fetch?: SlackFetch | undefined },
): WebClient {
  const logger = { ...boltLogger(o.logger.child({ component: 'slack-web-api' })), debug: () => undefined };
  return new WebClient(token, { ...slackClientOptions(use, o), logger });
}
