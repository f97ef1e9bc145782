/**
 * The answers to an urgent episode (issue 33), kept by the app: "I'm on it", "I can't" and "Join" (the second
 * of two staff), and which actions need two staff.
 *
 * `episode_answers`: one row per answer, per workspace (`workspace_id`: the team, '' in a deployment of one),
 * action and urgent episode (`episode`: the care system's `modified` the episode began at, the urgent alert's
 * ledger occurrence). Who (`slack_user_id`, `care_user_id` when linked), what (`answer`: `on-it`, `cant`,
 * `join`), why (`reason`: a short code for "I can't"), an optional short `note` (it may name a resident: never
 * posted in a channel; cleared by retention and by the writer's erasure), `doer_slack_user_id` (an "I'm on it"
 * for someone else: who is doing it), `at` (the app's clock, ms) and `undone_at` (its Undo, once). A person's
 * answer of one kind is live once per episode: a second press of the same answer adds nothing (the partial
 * unique index), across instances.
 *
 * `action_marks`: an action marked in the app as needing two staff (`two_staff`), by whom and when.
 */
import type { Migration } from './migration.js';

const sqlite = `
CREATE TABLE episode_answers (
  id                  INTEGER PRIMARY KEY AUTOINCREMENT,
  workspace_id        TEXT    NOT NULL,
  action_id           TEXT    NOT NULL,
  episode             TEXT    NOT NULL,
  slack_user_id       TEXT    NOT NULL,
  care_user_id        TEXT,
  answer              TEXT    NOT NULL,
  reason              TEXT,
  note                TEXT,
  doer_slack_user_id  TEXT,
  at                  INTEGER NOT NULL,
  undone_at           INTEGER
) STRICT;
CREATE UNIQUE INDEX episode_answers_live ON episode_answers (workspace_id, action_id, episode, slack_user_id, answer) WHERE undone_at IS NULL;
CREATE INDEX episode_answers_action ON episode_answers (workspace_id, action_id, at);
CREATE TABLE action_marks (
  workspace_id  TEXT    NOT NULL,
  action_id     TEXT    NOT NULL,
  two_staff     INTEGER NOT NULL,
  set_by        TEXT,
  set_at        INTEGER NOT NULL,
  PRIMARY KEY (workspace_id, action_id)
) STRICT;
`;

const postgres = `
CREATE TABLE episode_answers (
  id                  BIGSERIAL PRIMARY KEY,
  workspace_id        TEXT    NOT NULL,
  action_id           TEXT    NOT NULL,
  episode             TEXT    NOT NULL,
  slack_user_id       TEXT    NOT NULL,
  care_user_id        TEXT,
  answer              TEXT    NOT NULL,
  reason              TEXT,
  note                TEXT,
  doer_slack_user_id  TEXT,
  at                  BIGINT  NOT NULL,
  undone_at           BIGINT
);
CREATE UNIQUE INDEX episode_answers_live ON episode_answers (workspace_id, action_id, episode, slack_user_id, answer) WHERE undone_at IS NULL;
CREATE INDEX episode_answers_action ON episode_answers (workspace_id, action_id, at);
CREATE TABLE action_marks (
  workspace_id  TEXT    NOT NULL,
  action_id     TEXT    NOT NULL,
  two_staff     BOOLEAN NOT NULL,
  set_by        TEXT,
  set_at        BIGINT  NOT NULL,
  PRIMARY KEY (workspace_id, action_id)
);
`;

export const migration013: Migration = { version: 13, name: 'episode-answers', sqlite, postgres };
