/**
 * Retention of the app's own posts (issue 28).
 *
 * `workspace_settings.retention_days`: how many days after an action is completed the app edits its own
 * posts and DMs about it down to a neutral line. Null: the deployment's default (RETENTION_DAYS, 30);
 * -1: kept forever (`/care settings retention off`); 0: as soon as the action is completed.
 *
 * `action_completions`: when each action was completed, as the changes poll saw it (the care action's
 * `completed`, ms) and its number (for the neutral line), per workspace (`workspace_id`: the team, '' in a deployment of one workspace), and
 * when its messages were all redacted (null until then). A reopened action's row goes (unless redacted);
 * completed again, its time is the new one and its later messages are redacted in their turn.
 */
import type { Migration } from './migration.js';

const sqlite = `
ALTER TABLE workspace_settings ADD COLUMN retention_days INTEGER;

CREATE TABLE action_completions (
  workspace_id  TEXT    NOT NULL,
  action_id     TEXT    NOT NULL,
  action_no     TEXT    NOT NULL DEFAULT '',
  completed_at  INTEGER NOT NULL,
  redacted_at   INTEGER,
  PRIMARY KEY (workspace_id, action_id)
) STRICT;
CREATE INDEX action_completions_due ON action_completions (workspace_id, completed_at) WHERE redacted_at IS NULL;
`;

const postgres = `
ALTER TABLE workspace_settings ADD COLUMN retention_days INTEGER;

CREATE TABLE action_completions (
  workspace_id  TEXT    NOT NULL,
  action_id     TEXT    NOT NULL,
  action_no     TEXT    NOT NULL DEFAULT '',
  completed_at  BIGINT  NOT NULL,
  redacted_at   BIGINT,
  PRIMARY KEY (workspace_id, action_id)
);
CREATE INDEX action_completions_due ON action_completions (workspace_id, completed_at) WHERE redacted_at IS NULL;
`;

export const migration010: Migration = { version: 10, name: 'retention', sqlite, postgres };
