/** How a ledger row is read, and the one way a delivery is given up on: shared by the claim and the retry sweep. */
import type { Row } from './db.js';
import { bool, num, numOrNull, str, strOrNull } from './db.js';
import type { Delivery, DeliveryState } from './types.js';

export const COLUMNS =
  'id, kind, action_id, occurrence, recipient, state, attempts, claimed_by, claimed_at, last_error, retryable, slack_channel, slack_ts, created_at, updated_at, sent_at, in_doubt_at';

export const DEFAULT_MAX_ATTEMPTS = 5;

/**
 * SQL for the reason stored when a delivery is given up on, from the row as it was:
 * "gave up after 5 attempts; last error: ratelimited" or
 * "gave up after 5 attempts; the claim of host-1 went stale (last error: …)".
 */
export const GAVE_UP_REASON = `'gave up after ' || attempts || ' attempts; ' || CASE
  WHEN state = 'pending' THEN 'the claim of ' || COALESCE(claimed_by, 'an unknown holder') || ' went stale' || COALESCE(' (last error: ' || last_error || ')', '')
  ELSE 'last error: ' || COALESCE(last_error, 'unknown')
END`;

export function toDelivery(row: Row): Delivery {
  return {
    id: num(row.id),
    kind: str(row.kind),
    actionId: str(row.action_id),
    occurrence: str(row.occurrence),
    recipient: str(row.recipient),
    state: str(row.state) as DeliveryState,
    attempts: num(row.attempts),
    claimedBy: strOrNull(row.claimed_by),
    claimedAt: numOrNull(row.claimed_at),
    lastError: strOrNull(row.last_error),
    retryable: bool(row.retryable),
    slackChannel: strOrNull(row.slack_channel),
    slackTs: strOrNull(row.slack_ts),
    createdAt: num(row.created_at),
    updatedAt: num(row.updated_at),
    sentAt: numOrNull(row.sent_at),
    inDoubtAt: numOrNull(row.in_doubt_at),
  };
}
