/**
 * Each action's due times as the app saw them (issue 32, honest evidence): append-only.
 *
 * `action_due_times`: one row per due time an action had, per workspace (`workspace_id`: the team, '' in a
 * deployment of one). `seq` 0 is the first due time the app saw (its first look, the changes poll, or the
 * action as created through Slack); 1, 2, ... each reschedule after it (a snooze or a due edit, in Slack or
 * seen in the care system by the poll). `modified_at`: the care action's `modified` (ms) in the version that
 * showed it (an older version read late records nothing); `seen_at`: the app's clock; `via`: what saw it
 * (`first-look`, `poll`, `slack`). Rows are never changed; two instances noting the same change both try
 * the same (workspace, action, seq) and one row is kept.
 */
import type { Migration } from './migration.js';

const sqlite = `
CREATE TABLE action_due_times (
  workspace_id  TEXT    NOT NULL,
  action_id     TEXT    NOT NULL,
  seq           INTEGER NOT NULL,
  due_at        INTEGER NOT NULL,
  modified_at   INTEGER NOT NULL,
  seen_at       INTEGER NOT NULL,
  via           TEXT    NOT NULL,
  PRIMARY KEY (workspace_id, action_id, seq)
) STRICT;
CREATE INDEX action_due_times_first ON action_due_times (workspace_id, due_at) WHERE seq = 0;
`;

const postgres = `
CREATE TABLE action_due_times (
  workspace_id  TEXT    NOT NULL,
  action_id     TEXT    NOT NULL,
  seq           INTEGER NOT NULL,
  due_at        BIGINT  NOT NULL,
  modified_at   BIGINT  NOT NULL,
  seen_at       BIGINT  NOT NULL,
  via           TEXT    NOT NULL,
  PRIMARY KEY (workspace_id, action_id, seq)
);
CREATE INDEX action_due_times_first ON action_due_times (workspace_id, due_at) WHERE seq = 0;
`;

export const migration011: Migration = { version: 11, name: 'due-history', sqlite, postgres };
