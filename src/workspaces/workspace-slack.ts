/**
 * A workspace's Slack clients and its exactly-once poster, built one way for
 * every use (a workspace's composition; the install flow's DMs before one
 * exists): every Web API call counted and paced under Slack's limits, and the
 * channel history read only as often as Slack allows this app.
 */
import type { WebClient } from '@slack/web-api';
import { type Deliverer, type UncertainDelivery, createDeliverer } from '../services/notices/delivery.js';
import { createHistoryAccess, type HistoryAccess } from '../services/notices/history-access.js';
import { createHistoryGate } from '../services/notices/history-gate.js';
import { historyPace } from '../slack/web-api/rate-plan.js';
import { lazyWebClient } from '../slack/web-api/lazy-web-client.js';
import { createSlackWebClient } from '../slack/web-api/web-clients.js';
import type { Logger } from '../logging/logger.js';
import type { AppMetrics } from '../metrics/index.js';
import type { SlackPacer } from '../slack/web-api/slack-pacer.js';
import type { BotTokenSource } from '../slack/token-rotation/bot-token.js';
import type { WorkspaceStore } from '../store/index.js';

/** What a workspace's Slack clients are built from, shared by every workspace of the process. */
export interface SlackShared {
  logger: Logger;
  metrics: AppMetrics;
  /** Another Web API (the local Slack fake). */
  slackApiUrl?: string | undefined;
  /** Paces every Slack Web API call of the process under Slack's limits (slack/web-api/slack-pacer.ts). */
  slackPacer: SlackPacer;
  /** This instance's name in leases and delivery claims. */
  holder: string;
  staleAfterMs: number;
  /** The app's clock (Slack's message times follow it). */
  now: () => Date;
}

export interface WorkspaceSlack {
  /** Answers to people (listeners). */
  slack: WebClient;
  /** Scheduled work: bounded retries honouring Retry-After. */
  jobSlack: WebClient;
  /** Never retries by itself (its callers honour Retry-After within their claims): the deliverer's, retention's edits. */
  poster: WebClient;
  deliverer: Deliverer;
  /** Whether the workspace granted the history scopes (the bot token's scopes, asked once). */
  history: HistoryAccess;
}

/**
 * `botTokens`: with token rotation, where every call of these clients gets its token (the one it was built
 * with is then only a starting point); without, `token` is used as it is.
 */
export function workspaceSlack(
  shared: SlackShared,
  store: WorkspaceStore,
  token: string,
  /** Unused since the history gate's lease is the workspace store's own; kept so callers need not change. */
  _teamId: () => Promise<string>,
  botTokens?: BotTokenSource | undefined,
  /** A delivery marked uncertain (its answer lost, no history scopes to look): tell the admins. */
  onUncertain?: (delivery: UncertainDelivery) => Promise<void>,
): WorkspaceSlack {
  const { logger, metrics, staleAfterMs } = shared;
  const options = { apiUrl: shared.slackApiUrl, logger, fetch: metrics.slack.fetch, pacer: shared.slackPacer, botTokens };
  // Each made on its first use: an idle workspace held here may never use one (slack/lazy-web-client.ts).
  const slack = lazyWebClient(() => createSlackWebClient(token, 'interactive', options));
  const jobSlack = lazyWebClient(() => createSlackWebClient(token, 'jobs', options));
  // The deliverer's posts: no retries of the client's own. It waits for Slack's answer up to a third of a
  // claim's staleness (a slow answer is still an answer: no doubt, no look in the history), so a post
  // started within the claim's first half ends before anyone may take the claim over.
  const poster = lazyWebClient(() => createSlackWebClient(token, 'poster', { ...options, posterTimeoutMs: Math.max(1_000, Math.floor(staleAfterMs / 3)) }));
  // Reading a channel's history (only to look for a post left in doubt) as often as Slack allows this app.
  const { pace, pageLimit } = historyPace(shared.slackPacer.distribution);
  // Declined history scopes (optional since March 2026): the app then never reads history.
  const access = createHistoryAccess({ grantedScopes: async () => (await jobSlack.auth.test()).response_metadata?.scopes });
  const history = createHistoryGate({
    access,
    store,
    holder: shared.holder,
    everyMs: shared.slackPacer.distribution === 'distributed' ? pace.intervalMs : 0,
    pageLimit,
  });
  const deliverer = metrics.observeDeliverer(
    createDeliverer({
      store,
      slack: jobSlack,
      poster,
      history,
      holder: shared.holder,
      logger: logger.child({ component: 'delivery' }),
      staleAfterMs,
      now: () => shared.now().getTime(),
      ...(onUncertain ? { onUncertain } : {}),
    }),
  );
  return { slack, jobSlack, poster, deliverer, history: access };
}
