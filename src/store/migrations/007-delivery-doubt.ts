/**
 * When a delivery's post last left in doubt (Slack gave no answer, or a 5xx after
 * the post may have gone through) began, on the app's clock: the next attempt
 * looks in the channel's history around then before posting again. Null: every
 * attempt so far ended in an answer, so there is nothing to look for.
 */
import type { Migration } from './migration.js';

const sqlite = `ALTER TABLE deliveries ADD COLUMN in_doubt_at INTEGER;`;

const postgres = `ALTER TABLE deliveries ADD COLUMN in_doubt_at BIGINT;`;

export const migration007: Migration = { version: 7, name: 'delivery-doubt', sqlite, postgres };
