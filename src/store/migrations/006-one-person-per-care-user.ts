/**
 * One care user has at most one Slack person per workspace: a unique index on
 * (team, care user). Links made before this rule may already give a care user
 * two (or more) Slack people; the migration must not fail on them, nor pick
 * one to delete (an admin decides who is who). So every such link but the
 * earliest is marked `legacy_duplicate` and left out of the index: it stays,
 * `/care links` flags it, and unlinking it is the way out. New links, and a
 * link made again (which clears the mark), obey the index.
 */
import type { Migration } from './migration.js';

const sqlite = `
ALTER TABLE identity_links ADD COLUMN legacy_duplicate INTEGER NOT NULL DEFAULT 0 CHECK (legacy_duplicate IN (0, 1));
UPDATE identity_links SET legacy_duplicate = 1
 WHERE EXISTS (
   SELECT 1 FROM identity_links AS o
    WHERE o.team_id = identity_links.team_id AND o.care_user_id = identity_links.care_user_id
      AND (o.linked_at < identity_links.linked_at OR (o.linked_at = identity_links.linked_at AND o.slack_user_id < identity_links.slack_user_id))
 );
CREATE UNIQUE INDEX identity_links_one_per_care_user ON identity_links (team_id, care_user_id) WHERE legacy_duplicate = 0;
`;

const postgres = `
ALTER TABLE identity_links ADD COLUMN legacy_duplicate BOOLEAN NOT NULL DEFAULT FALSE;
UPDATE identity_links AS l SET legacy_duplicate = TRUE
 WHERE EXISTS (
   SELECT 1 FROM identity_links AS o
    WHERE o.team_id = l.team_id AND o.care_user_id = l.care_user_id
      AND (o.linked_at < l.linked_at OR (o.linked_at = l.linked_at AND o.slack_user_id < l.slack_user_id))
 );
CREATE UNIQUE INDEX identity_links_one_per_care_user ON identity_links (team_id, care_user_id) WHERE NOT legacy_duplicate;
`;

export const migration006: Migration = { version: 6, name: 'one-person-per-care-user', sqlite, postgres };
