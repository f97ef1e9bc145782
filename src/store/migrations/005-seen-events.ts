/**
 * Events API deliveries already admitted, by Slack's `event_id`, so an event
 * runs once however many copies arrive (Slack's retries, or a captured
 * request sent again with X-Slack-Retry-Num, which the signature does not
 * cover), on every instance. `state`: 'admitted' while the copy that got it is
 * being answered, 'acked' once the app answered it 2xx (Bolt acknowledges an
 * event before any listener runs). `claim` names the admission that owns the
 * row; times are the receiver's clock (ms). Rows expire and are pruned.
 */
import type { Migration } from './migration.js';

const sqlite = `
CREATE TABLE seen_events (
  event_id     TEXT    PRIMARY KEY,
  state        TEXT    NOT NULL CHECK (state IN ('admitted', 'acked')),
  claim        TEXT    NOT NULL,
  admitted_at  INTEGER NOT NULL,
  expires_at   INTEGER NOT NULL
) STRICT;
CREATE INDEX seen_events_expiry ON seen_events (expires_at);
`;

const postgres = `
CREATE TABLE seen_events (
  event_id     TEXT    PRIMARY KEY,
  state        TEXT    NOT NULL CHECK (state IN ('admitted', 'acked')),
  claim        TEXT    NOT NULL,
  admitted_at  BIGINT  NOT NULL,
  expires_at   BIGINT  NOT NULL
);
CREATE INDEX seen_events_expiry ON seen_events (expires_at);
`;

export const migration005: Migration = { version: 5, name: 'seen-events', sqlite, postgres };
