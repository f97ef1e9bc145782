/**
 * Signed requests already seen (Slack's v0 signatures, hashed), so a replayed
 * request is refused by every instance while its signature is still valid.
 * Rows expire after the signature window and are pruned.
 */
import type { Migration } from './migration.js';

const sqlite = `
CREATE TABLE seen_requests (
  request_key TEXT    PRIMARY KEY,
  expires_at  INTEGER NOT NULL
) STRICT;
CREATE INDEX seen_requests_expiry ON seen_requests (expires_at);
`;

const postgres = `
CREATE TABLE seen_requests (
  request_key TEXT   PRIMARY KEY,
  expires_at  BIGINT NOT NULL
);
CREATE INDEX seen_requests_expiry ON seen_requests (expires_at);
`;

export const migration002: Migration = { version: 2, name: 'seen-requests', sqlite, postgres };
