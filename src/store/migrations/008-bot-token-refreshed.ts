/**
 * Token rotation: when an installation's bot token was last refreshed (the
 * app's clock, ms), null while it is the one the install gave. With
 * `bot_token_expires_at` it tells how long a token lives (from this, or from
 * `updated_at` for an install's token), and so how early to refresh the next.
 * A refresh changes the token columns and this one only: `updated_at` stays the
 * time of the last install (what a workspace is composed from).
 */
import type { Migration } from './migration.js';

const sqlite = `ALTER TABLE slack_installations ADD COLUMN bot_token_refreshed_at INTEGER;`;

const postgres = `ALTER TABLE slack_installations ADD COLUMN bot_token_refreshed_at BIGINT;`;

export const migration008: Migration = { version: 8, name: 'bot-token-refreshed', sqlite, postgres };
