import type { WebClient } from '@slack/web-api';
import type { Logger } from '../logging/logger.js';
import type { ClaimOutcome, DeliveryKey, Store } from '../store/index.js';

export const DELIVERY_EVENT_TYPE = 'care_delivery';

export interface DeliveryMetadata {
  event_type: typeof DELIVERY_EVENT_TYPE;
  event_payload: { delivery_id: string; kind: string; action_id: string };
}

export type SendResult = { channel: string; ts: string };
/** Posts the message, carrying `metadata` so a later run can tell it was sent. */
export type Sender = (metadata: DeliveryMetadata) => Promise<SendResult>;

export type DeliveryResult = 'sent' | 'already-sent' | 'found-in-slack' | 'busy' | 'failed' | 'gave-up';

export interface Deliverer {
  /**
   * Deliver once: claim in the ledger, send, mark sent. `channel` is where the
   * message goes (a D… channel for DMs), used to look for an earlier attempt's
   * message when a claim is taken over after a crash or a failure.
   */
  deliver(key: DeliveryKey, channel: string, send: Sender): Promise<DeliveryResult>;
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

function describe(err: unknown): string {
  const e = err as { data?: { error?: string }; code?: string; message?: string };
  return e?.data?.error ?? e?.code ?? e?.message ?? 'unknown error';
}

export function createDeliverer(deps: { store: Store; slack: WebClient; holder: string; logger: Logger; staleAfterMs?: number; maxAttempts?: number }): Deliverer {
  const staleAfterMs = deps.staleAfterMs ?? 2 * 60_000;

  /** Was this delivery's message already posted (by a run that died before marking it)? */
  async function findInSlack(channel: string, deliveryId: number, since: number | null): Promise<string | null> {
    const oldest = since ? String(Math.floor(since / 1000) - 60) : undefined;
    let cursor: string | undefined;
    for (let page = 0; page < 10; page++) {
      const res = await deps.slack.conversations.history({ channel, include_all_metadata: true, limit: 200, ...(oldest ? { oldest } : {}), ...(cursor ? { cursor } : {}) });
      for (const m of res.messages ?? []) {
        const meta = (m as { metadata?: { event_type?: string; event_payload?: { delivery_id?: unknown } } }).metadata;
        if (meta?.event_type === DELIVERY_EVENT_TYPE && String(meta.event_payload?.delivery_id) === String(deliveryId) && m.ts) return m.ts;
      }
      cursor = res.response_metadata?.next_cursor || undefined;
      if (!cursor || !res.has_more) return null;
    }
    return null;
  }

  return {
    async deliver(key, channel, send) {
      let claim: ClaimOutcome;
      claim = await deps.store.claimDelivery(key, { holder: deps.holder, staleAfterMs, ...(deps.maxAttempts ? { maxAttempts: deps.maxAttempts } : {}) });
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
      try {
        if (claim.outcome === 'reclaimed' || claim.outcome === 'failed-retry') {
          // An earlier attempt may have posted before it could record it: look before sending again.
          const ts = await findInSlack(channel, delivery.id, delivery.createdAt);
          if (ts) {
            await deps.store.markSent(delivery.id, { channel, ts });
            return 'found-in-slack';
          }
        }
        const sent = await send({
          event_type: DELIVERY_EVENT_TYPE,
          event_payload: { delivery_id: String(delivery.id), kind: key.kind, action_id: key.actionId },
        });
        await deps.store.markSent(delivery.id, sent);
        return 'sent';
      } catch (err) {
        const retryable = !isPermanentSlackError(err);
        deps.logger.warn('delivery failed', { kind: key.kind, deliveryId: delivery.id, retryable, error: describe(err) });
        await deps.store.markFailed(delivery.id, describe(err), { retryable, holder: deps.holder }).catch(() => undefined);
        return 'failed';
      }
    },
  };
}
