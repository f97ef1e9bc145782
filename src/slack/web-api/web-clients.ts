import { type FetchFunction, type WebClientOptions, WebClient } from '@slack/web-api';
import type { Logger } from '../../logging/logger.js';
import { boltLogger } from '../receivers/bolt-logger.js';
import { pacedFetch, type PacedFetchOptions, type SlackPacer } from './slack-pacer.js';
import type { BotTokenSource } from '../token-rotation/bot-token.js';
import { rotatingFetch } from '../token-rotation/rotating-fetch.js';

/**
 * How each part of the app talks to the Slack Web API:
 * - `interactive`: answers to people (Bolt's own client and the listeners'): a couple of quick retries;
 * - `jobs`: scheduled work: more retries (honouring Retry-After), bounded;
 * - `poster`: the deliverer's posts: never retries by itself (the deliverer retries within its claim
 *   and checks the channel's history after an unclear failure).
 * Every client has a timeout (the library's default has none). With the process's pacer (slack-pacer.ts),
 * the timeout counts from when the call is sent, and each use says how long a call may wait for its slot:
 * not long where a person waits; a delivery hands its wait back to the deliverer, which owns its claim's time.
 */
export type SlackClientUse = 'interactive' | 'jobs' | 'poster';

/** The `fetch` every Web API call goes through (metrics observe calls here); the global one by default. */
export type SlackFetch = NonNullable<WebClientOptions['fetch']>;

/**
 * Token rotation: where the client's calls get their bot token (deployment/token-rotation.ts): one workspace's source, or
 * (Bolt's client, which serves every workspace) the source of whichever token a call was made with.
 */
export type BotTokens = BotTokenSource | ((token: string) => BotTokenSource | undefined);

export interface SlackClientSettings {
  apiUrl?: string | undefined;
  posterTimeoutMs?: number;
  fetch?: SlackFetch | undefined;
  pacer?: SlackPacer | undefined;
  botTokens?: BotTokens | undefined;
}

/** How long each use lets a call wait for its slot under Slack's limits, and for its answer once sent. */
function pacing(use: SlackClientUse, posterTimeoutMs: number | undefined): PacedFetchOptions {
  switch (use) {
    case 'interactive':
      return { maxWaitMs: 5_000, transferTimeoutMs: 10_000 };
    case 'jobs':
      return { maxWaitMs: 60_000, transferTimeoutMs: 10_000 };
    case 'poster':
      return { maxWaitMs: 20_000, transferTimeoutMs: posterTimeoutMs ?? 10_000 };
  }
}

export function slackClientOptions(use: SlackClientUse, o: SlackClientSettings): WebClientOptions {
  const paced = o.pacer ? pacing(use, o.posterTimeoutMs) : undefined;
  const pacedOrNot = o.pacer && paced ? pacedFetch((o.fetch ?? globalThis.fetch) as FetchFunction, o.pacer, paced) : o.fetch;
  // Token rotation outermost: the pacer sees (and a retry after `token_expired` goes through it with) the token sent.
  const tokens = o.botTokens;
  const fetch = tokens ? rotatingFetch((pacedOrNot ?? globalThis.fetch) as FetchFunction, typeof tokens === 'function' ? tokens : () => tokens) : pacedOrNot;
  const base = { ...(o.apiUrl ? { slackApiUrl: o.apiUrl } : {}), ...(fetch ? { fetch } : {}) };
  // Paced: the request's own timeout is set by the pacer once it is sent.
  const timeout = (ms: number) => (paced ? 0 : ms);
  switch (use) {
    case 'interactive':
      return { ...base, retryConfig: { retries: 2, factor: 2, minTimeout: 200, maxTimeout: 2000 }, timeout: timeout(10_000), rejectRateLimitedCalls: false };
    case 'jobs':
      return { ...base, retryConfig: { retries: 5, factor: 2, minTimeout: 500, maxTimeout: 5000 }, timeout: timeout(10_000), rejectRateLimitedCalls: false };
    case 'poster':
      return { ...base, retryConfig: { retries: 0 }, timeout: timeout(o.posterTimeoutMs ?? 10_000), rejectRateLimitedCalls: true };
  }
}

/**
 * A WebClient for one use that logs through our logger (JSON, levelled), never
 * its debug lines, which hold whole request bodies (message text, emails).
 */
export function createSlackWebClient(token: string, use: SlackClientUse, o: SlackClientSettings & { logger: Logger }): WebClient {
  const logger = { ...boltLogger(o.logger.child({ component: 'slack-web-api' })), debug: () => undefined };
  return new WebClient(token, { ...slackClientOptions(use, o), logger });
}
