/**
 * Notes on actions (issue 33): the short words a person adds when they complete or take an action in Slack
 * ("gave 2 tablets at 10:05, GP told"). The care API has no notes endpoint, so the app is the only place
 * they live: evidence, written once and never changed.
 *
 * `action_notes`: one row per note, per workspace (`workspace_id`: the team, '' in a deployment of one).
 * `verb`: what the note went with (`complete`, `take`, and later `on-it`, `cant`…); `slack_user_id` who wrote
 * it, `care_user_id` their care user when linked (null otherwise); `body` the words (at most 500 characters,
 * services/actions/action-notes.ts); `created_at` the app's clock (ms). It may name a resident: it is task text,
 * deleted by the post-retention rule with the action's messages, shown only in History and in the evidence
 * export with `--with-tasks`, exported with and erased with its writer.
 */
import type { Migration } from './migration.js';

const sqlite = `
CREATE TABLE action_notes (
  id             INTEGER PRIMARY KEY AUTOINCREMENT,
  workspace_id   TEXT    NOT NULL,
  action_id      TEXT    NOT NULL,
  verb           TEXT    NOT NULL,
  slack_user_id  TEXT    NOT NULL,
  care_user_id   TEXT,
  body           TEXT    NOT NULL,
  created_at     INTEGER NOT NULL
) STRICT;
CREATE INDEX action_notes_action ON action_notes (workspace_id, action_id, id);
CREATE INDEX action_notes_writer ON action_notes (slack_user_id);
`;

const postgres = `
CREATE TABLE action_notes (
  id             BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  workspace_id   TEXT   NOT NULL,
  action_id      TEXT   NOT NULL,
  verb           TEXT   NOT NULL,
  slack_user_id  TEXT   NOT NULL,
  care_user_id   TEXT,
  body           TEXT   NOT NULL,
  created_at     BIGINT NOT NULL
);
CREATE INDEX action_notes_action ON action_notes (workspace_id, action_id, id);
CREATE INDEX action_notes_writer ON action_notes (slack_user_id);
`;

export const migration012: Migration = { version: 12, name: 'action-notes', sqlite, postgres };
