import { ErrorCode, type WebClient } from '@slack/web-api';
import type { Logger } from '../../logging/logger.js';
import type { types } from '@slack/bolt';
import type { ClaimOutcome, Delivery, DeliveryKey, WorkspaceStore } from '../../store/index.js';
import type { HistoryGate } from './history-gate.js';

export const DELIVERY_EVENT_TYPE = 'care_delivery';

export interface DeliveryMetadata {
  event_type: typeof DELIVERY_EVENT_TYPE;
  event_payload: { delivery_id: string; kind: string; action_id: string };
}

/** What a delivery posts (the deliverer adds the channel and the metadata). */
export interface OutgoingMessage {
  text: string;
  blocks?: types.KnownBlock[];
  thread_ts?: string;
  unfurl_links?: boolean;
}

/**
 * Where a delivery goes: a channel id, or a way to find it (e.g. open the DM)
 * that is only called once the claim is ours, so a failure there is recorded
 * in the ledger and retried like a failed post.
 */
export type Destination = string | (() => Promise<string>);

/**
 * `deferred`: nothing was sent and the attempt is not counted; it waits for Slack
 * (its rate limit, or a history read before posting again) and the retry sweep
 * takes it up again.
 */
export type DeliveryResult = 'sent' | 'already-sent' | 'found-in-slack' | 'busy' | 'failed' | 'gave-up' | 'deferred';

export interface Deliverer {
  /**
   * Deliver once: claim in the ledger, post (with metadata naming the
   * delivery), mark sent. Before posting again after anything that may have
   * posted already (a crash, no answer, a 5xx), it looks for the metadata in
   * the channel's history, within the times that attempt could have posted,
   * as often as Slack allows this app to read it (history-gate.ts). A 429 is
   * an answer (nothing was posted): it is waited out, never looked up.
   */
  deliver(key: DeliveryKey, destination: Destination, message: OutgoingMessage | ((channel: string) => OutgoingMessage)): Promise<DeliveryResult>;
  /**
   * Settle a ledger row that needs no post of its own: sent (by the message
   * given, e.g. a DM that told the same person) or failed, with a reason an
   * admin can read (retryable: the retry sweep reads it again).
   */
  record(key: DeliveryKey, outcome: { sent: { channel: string; ts: string } } | { failed: string; retryable: boolean }): Promise<DeliveryResult>;
}

/** Slack errors that will not go away by trying again. */
const PERMANENT = new Set([
  'channel_not_found',
  'not_in_channel',
  'is_archived',
  'invalid_blocks',
  'invalid_arguments',
  'msg_too_long',
  'no_text',
  'user_not_found',
  'cannot_dm_bot',
  'account_inactive',
  'invalid_auth',
  'not_authed',
  'missing_scope',
]);

export function isPermanentSlackError(err: unknown): boolean {
  const code = (err as { data?: { error?: string } })?.data?.error;
  return typeof code === 'string' && PERMANENT.has(code);
}

/** Slack's error code (or what the client saw), never a message body: safe to log and to store. */
export function describeSlackError(err: unknown): string {
  const e = err as {
    data?: { error?: string };
    code?: string;
    statusCode?: number;
    original?: { name?: string; cause?: { code?: string } };
    message?: string;
  };
  if (e?.data?.error) return e.data.error;
  if (e?.code === ErrorCode.HTTPError) return `http_${e.statusCode}`;
  if (e?.code === ErrorCode.RequestError) return e.original?.name === 'TimeoutError' ? 'timeout' : (e.original?.cause?.code ?? 'network_error');
  return e?.code ?? e?.message ?? 'unknown error';
}

/**
 * Deliveries of one kind worth another try: failed for a passing reason, or
 * left pending by a run that died (its claim is stale), within their attempts.
 * The store chooses them (and gives up, with a reason, on those out of attempts),
 * judging staleness by its own clock: `now` is not used.
 */
export async function unfinishedDeliveries(
  store: WorkspaceStore,
  kind: string,
  options: { now?: number; staleAfterMs: number; limit?: number; maxAttempts?: number },
): Promise<Delivery[]> {
  return store.unfinishedDeliveries(kind, {
    staleAfterMs: options.staleAfterMs,
    limit: options.limit ?? 200,
    ...(options.maxAttempts !== undefined ? { maxAttempts: options.maxAttempts } : {}),
  });
}

/**
 * No answer from Slack (our timeout, a dropped connection, a gateway timeout, anything
 * unknown): the post may still be in Slack's hands, and its message may appear later.
 */
function mayStillLand(err: unknown): boolean {
  const e = err as { code?: string; statusCode?: number };
  if (e?.code === ErrorCode.PlatformError || e?.code === ErrorCode.RateLimitedError) return false;
  if (e?.code === ErrorCode.HTTPError) return e.statusCode === 504;
  return true;
}

/** Slack answered with a 5xx: it is done with the request, but may have posted before failing. */
function mayHavePosted(err: unknown): boolean {
  return (err as { code?: string })?.code === ErrorCode.HTTPError;
}

function waitBeforeRetry(err: unknown, attempt: number): number {
  const e = err as { code?: string; retryAfter?: number; data?: { error?: string } };
  if (e?.code === ErrorCode.RateLimitedError) return Math.max(1, e.retryAfter ?? 1) * 1000;
  if (e?.data?.error === 'ratelimited') return 1000;
  return Math.min(5000, 250 * 2 ** (attempt - 1));
}

const isRateLimited = (err: unknown) =>
  (err as { code?: string })?.code === ErrorCode.RateLimitedError || (err as { data?: { error?: string } })?.data?.error === 'ratelimited';

/** Seconds either side of an attempt's times that Slack's clock and ours may differ by. */
const CLOCK_MARGIN_S = 120;
/** A holder that died left no time of its post: look from well before the delivery's first claim (the database's clock). */
const CRASH_MARGIN_S = 15 * 60;

/** Where in a channel's history a post may be: Unix seconds, `latest` open when unknown. */
interface Window {
  oldest: number;
  latest?: number | undefined;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface DelivererOptions {
  store: WorkspaceStore;
  /** For `conversations.history` (looking for an earlier attempt's message). */
  slack: WebClient;
  /** How often (and how much of) a channel's history this app may read (history-gate.ts). */
  history: HistoryGate;
  /**
   * Posts with this client. It must not retry by itself (`retries: 0`,
   * `rejectRateLimitedCalls: true`): the deliverer retries within its claim's
   * time, honouring Retry-After, and checks history after an unclear failure.
   */
  poster: WebClient;
  holder: string;
  logger: Logger;
  /** The app's clock (Slack's message times follow it; the ledger's claims follow the database's). Default Date.now. */
  now?: () => number;
  /** A pending claim older than this may be taken over by another instance. Default 2 min. */
  staleAfterMs?: number;
  /** Time the posting attempts of one claim may take (default half of staleAfterMs): always ends before the claim looks stale. */
  sendBudgetMs?: number;
  /** Posting attempts per claim (default 6). */
  maxSendAttempts?: number;
  /** Claims per delivery before giving up (default: the store's). */
  maxAttempts?: number;
  /**
   * A delivery was marked uncertain (its answer was lost and the workspace did not grant the history scopes
   * to look for it): tell whoever must know (the admins, once; uncertain-notices.ts). Errors are logged.
   */
  onUncertain?: (delivery: UncertainDelivery) => Promise<void>;
}

/** A delivery that may or may not have arrived: never sent again, told to the admins. */
export interface UncertainDelivery extends DeliveryKey {
  id: number;
  channel: string;
}

/** The ledger's reason for an uncertain delivery (Slack error codes never start so). */
export const UNCERTAIN_REASON = 'uncertain: Slack gave no answer and the history scopes were not granted to look whether it arrived; not sent again';

export const isUncertain = (delivery: Pick<Delivery, 'lastError'>): boolean => delivery.lastError?.startsWith('uncertain:') === true;

export function createDeliverer(deps: DelivererOptions): Deliverer {
  const staleAfterMs = deps.staleAfterMs ?? 2 * 60_000;
  const sendBudgetMs = deps.sendBudgetMs ?? staleAfterMs / 2;
  const maxSendAttempts = deps.maxSendAttempts ?? 6;
  const now = deps.now ?? Date.now;

  // Where each unfinished look left off (by delivery), so the next one reads on instead of from the start.
  const readOn = new Map<number, string>();

  /**
   * Was this delivery's message already posted (by an attempt that died or got no answer before marking
   * it)? Reads the channel's history within `window`, page by page, as far as the history gate allows
   * now: 'later' when it must wait for the next read.
   */
  async function findInSlack(channel: string, delivery: Delivery, window: Window): Promise<string | null | 'later'> {
    const oldest = String(window.oldest);
    const latest = window.latest !== undefined ? String(window.latest) : undefined;
    let cursor = readOn.get(delivery.id);
    for (;;) {
      if (!(await deps.history.tryRead())) return 'later';
      const res = await deps.slack.conversations.history({
        channel,
        include_all_metadata: true,
        limit: deps.history.pageLimit,
        oldest,
        ...(latest ? { latest, inclusive: true } : {}),
        ...(cursor ? { cursor } : {}),
      });
      for (const m of res.messages ?? []) {
        const meta = (m as { metadata?: { event_type?: string; event_payload?: { delivery_id?: unknown } } }).metadata;
        if (meta?.event_type === DELIVERY_EVENT_TYPE && String(meta.event_payload?.delivery_id) === String(delivery.id) && m.ts) {
          readOn.delete(delivery.id);
          return m.ts;
        }
      }
      cursor = res.response_metadata?.next_cursor || undefined;
      if (!cursor || !res.has_more) {
        readOn.delete(delivery.id);
        return null;
      }
      readOn.set(delivery.id, cursor);
    }
  }

  return {
    async record(key, outcome) {
      const claim = await deps.store.claimDelivery(key, { holder: deps.holder, staleAfterMs, ...(deps.maxAttempts ? { maxAttempts: deps.maxAttempts } : {}) });
      if (claim.outcome === 'sent') return 'already-sent';
      if (claim.outcome === 'busy') return 'busy';
      if (claim.outcome === 'failed') return 'gave-up';
      if ('sent' in outcome) {
        await deps.store.markSent(claim.delivery.id, outcome.sent);
        return 'sent';
      }
      await deps.store.markFailed(claim.delivery.id, outcome.failed, { retryable: outcome.retryable, holder: deps.holder });
      return 'failed';
    },

    async deliver(key, destination, message) {
      const started = performance.now();
      const elapsed = () => performance.now() - started;
      const claim: ClaimOutcome = await deps.store.claimDelivery(key, {
        holder: deps.holder,
        staleAfterMs,
        ...(deps.maxAttempts ? { maxAttempts: deps.maxAttempts } : {}),
      });
      switch (claim.outcome) {
        case 'sent':
          return 'already-sent';
        case 'busy':
          return 'busy';
        case 'failed':
          return 'gave-up';
        default:
          break;
      }
      const delivery = claim.delivery;
      const metadata: DeliveryMetadata = {
        event_type: DELIVERY_EVENT_TYPE,
        event_payload: { delivery_id: String(delivery.id), kind: key.kind, action_id: key.actionId },
      };
      const fail = async (err: unknown, retryable: boolean, doubtAt?: number): Promise<DeliveryResult> => {
        deps.logger.warn('delivery failed', { kind: key.kind, deliveryId: delivery.id, retryable, error: describeSlackError(err) });
        await deps.store
          .markFailed(delivery.id, describeSlackError(err), { retryable, holder: deps.holder, ...(doubtAt !== undefined ? { inDoubtAt: doubtAt } : {}) })
          .catch(() => undefined);
        return 'failed';
      };
      // Nothing was sent (Slack's rate limit; a history read to wait for): handed back uncounted, for the retry sweep.
      const defer = async (reason: string): Promise<DeliveryResult> => {
        deps.logger.info('delivery waits for Slack', { kind: key.kind, deliveryId: delivery.id, reason });
        await deps.store.markFailed(delivery.id, reason, { retryable: true, holder: deps.holder, countAttempt: false }).catch(() => undefined);
        return 'deferred';
      };
      // Slack may still post what we sent: nobody may post again (nor look in the history) before
      // this claim goes stale, at least half the staleness after our last post began; the next
      // claimer looks in the history first.
      const inDoubt = async (err: unknown, postedAt: number): Promise<DeliveryResult> => {
        deps.logger.warn('delivery in doubt: no answer from Slack; the claim is left to go stale', {
          kind: key.kind,
          deliveryId: delivery.id,
          error: describeSlackError(err),
        });
        await deps.store
          .markInDoubt(delivery.id, `no answer from Slack (${describeSlackError(err)})`, { holder: deps.holder, at: postedAt })
          .catch(() => undefined);
        return 'failed';
      };

      // No way to look (the history scopes were declined): never post blind again. The ledger says it is
      // uncertain for good (a later Retry looks again, so is refused the same way) and the admins are told.
      const uncertain = async (channel: string): Promise<DeliveryResult> => {
        deps.logger.warn('delivery uncertain: its answer was lost and history may not be read; not sent again', {
          kind: key.kind,
          deliveryId: delivery.id,
        });
        await deps.store
          .markFailed(delivery.id, UNCERTAIN_REASON, { retryable: false, holder: deps.holder, inDoubtAt: delivery.inDoubtAt ?? doubtAt ?? delivery.createdAt })
          .catch(() => undefined);
        await deps.onUncertain?.({ ...key, id: delivery.id, channel }).catch((err: unknown) => {
          deps.logger.warn('could not tell the admins of an uncertain delivery', { kind: key.kind, deliveryId: delivery.id, error: describeSlackError(err) });
        });
        return 'gave-up';
      };

      let channel: string;
      let body: OutgoingMessage;
      try {
        channel = typeof destination === 'string' ? destination : await destination();
        body = typeof message === 'function' ? message(channel) : message;
      } catch (err) {
        return fail(err, !isPermanentSlackError(err));
      }
      // An earlier attempt may have posted before it could record it (it got no answer, a 5xx, or its
      // holder died with the claim): look before posting again. A 429 or any other answer needs no look.
      // Around when the post in doubt began (it ended within a claim's staleness); a holder that died left no
      // time, so from well before the first claim.
      let look: Window | undefined =
        delivery.inDoubtAt !== null
          ? { oldest: Math.floor(delivery.inDoubtAt / 1000) - CLOCK_MARGIN_S, latest: Math.ceil((delivery.inDoubtAt + staleAfterMs) / 1000) + CLOCK_MARGIN_S }
          : claim.outcome === 'reclaimed'
            ? { oldest: Math.floor(delivery.createdAt / 1000) - CRASH_MARGIN_S }
            : undefined;
      let doubtAt: number | undefined;
      for (let attempt = 1; ; attempt++) {
        let ts: string | undefined;
        let postedAt = now();
        try {
          if (look) {
            const readable = await deps.history.readable().catch(() => null);
            if (readable === null) return defer('waiting to learn from Slack whether history may be read');
            if (!readable) return uncertain(channel);
            const found = await findInSlack(channel, delivery, look);
            if (found === 'later') return defer("waiting to look in Slack's history before posting again (Slack allows this app one read a minute)");
            if (found) {
              await deps.store.markSent(delivery.id, { channel, ts: found });
              return 'found-in-slack';
            }
            look = undefined;
          }
          // A post may only start while the claim is surely ours (it ends within the client's timeout).
          if (elapsed() >= sendBudgetMs) return defer('out of time for this claim; the next run posts it');
          postedAt = now();
          const res = await deps.poster.chat.postMessage({ channel, ...body, metadata });
          ts = res.ts;
          if (!ts) throw new Error('chat.postMessage gave no ts');
        } catch (err) {
          if (isPermanentSlackError(err)) return fail(err, false, doubtAt);
          if (mayStillLand(err)) return inDoubt(err, postedAt);
          if (mayHavePosted(err)) {
            // A 5xx: Slack is done with the request but may have posted first. The ledger says so.
            doubtAt = postedAt;
            await deps.store.markInDoubt(delivery.id, describeSlackError(err), { holder: deps.holder, at: postedAt }).catch(() => undefined);
            look = { oldest: Math.floor(postedAt / 1000) - CLOCK_MARGIN_S };
          }
          const wait = waitBeforeRetry(err, attempt);
          // Never still be trying when another instance may take the claim over.
          if (elapsed() + wait >= sendBudgetMs) return isRateLimited(err) ? defer('ratelimited') : fail(err, true, doubtAt);
          if (attempt >= maxSendAttempts && !isRateLimited(err)) return fail(err, true, doubtAt);
          await sleep(wait);
          continue;
        }
        // Posted. If recording it fails, the claim goes stale and the next claimer finds it in history.
        await deps.store.markSent(delivery.id, { channel, ts });
        return 'sent';
      }
    },
  };
}
