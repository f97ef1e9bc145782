/**
 * The first schema. Same tables, columns and constraints on both databases:
 * times are epoch milliseconds (INTEGER / BIGINT), flags are 0/1 (SQLite) or
 * BOOLEAN, JSON is TEXT (SQLite) or JSONB. Append-only: never edit a released
 * migration, add 002-... instead.
 */
import type { Migration } from './migration.js';

const sqlite = `
CREATE TABLE identity_links (
  team_id       TEXT    NOT NULL,
  slack_user_id TEXT    NOT NULL,
  care_user_id  TEXT    NOT NULL,
  method        TEXT    NOT NULL CHECK (method IN ('email', 'admin', 'request')),
  linked_by     TEXT,
  linked_at     INTEGER NOT NULL,
  PRIMARY KEY (team_id, slack_user_id)
) STRICT;
CREATE INDEX identity_links_care_user ON identity_links (care_user_id);

CREATE TABLE link_requests (
  id            INTEGER PRIMARY KEY AUTOINCREMENT,
  team_id       TEXT    NOT NULL,
  slack_user_id TEXT    NOT NULL,
  care_user_id  TEXT,
  note          TEXT,
  state         TEXT    NOT NULL CHECK (state IN ('pending', 'approved', 'rejected')),
  requested_at  INTEGER NOT NULL,
  decided_by    TEXT,
  decided_at    INTEGER
) STRICT;
CREATE UNIQUE INDEX link_requests_one_pending ON link_requests (team_id, slack_user_id) WHERE state = 'pending';
CREATE INDEX link_requests_state ON link_requests (state, id);

CREATE TABLE channel_subscriptions (
  team_id          TEXT    NOT NULL,
  channel_id       TEXT    NOT NULL,
  digest_time      TEXT    NOT NULL,
  digest_days      TEXT    NOT NULL CHECK (digest_days IN ('weekdays', 'daily')),
  time_zone        TEXT    NOT NULL,
  filters          TEXT    NOT NULL DEFAULT '{}',
  show_task_text   INTEGER NOT NULL CHECK (show_task_text IN (0, 1)),
  post_when_empty  INTEGER NOT NULL CHECK (post_when_empty IN (0, 1)),
  urgent_alerts    INTEGER NOT NULL CHECK (urgent_alerts IN (0, 1)),
  channel_private  INTEGER NOT NULL CHECK (channel_private IN (0, 1)),
  set_up_by        TEXT    NOT NULL,
  set_up_at        INTEGER NOT NULL,
  PRIMARY KEY (team_id, channel_id)
) STRICT;

CREATE TABLE group_routes (
  team_id     TEXT    NOT NULL,
  group_id    TEXT    NOT NULL,
  group_name  TEXT    NOT NULL,
  channel_id  TEXT    NOT NULL,
  set_up_by   TEXT    NOT NULL,
  set_up_at   INTEGER NOT NULL,
  PRIMARY KEY (team_id, group_id)
) STRICT;
CREATE INDEX group_routes_group ON group_routes (group_id);

CREATE TABLE deliveries (
  id            INTEGER PRIMARY KEY AUTOINCREMENT,
  kind          TEXT    NOT NULL,
  action_id     TEXT    NOT NULL,
  occurrence    TEXT    NOT NULL,
  recipient     TEXT    NOT NULL,
  state         TEXT    NOT NULL CHECK (state IN ('pending', 'sent', 'failed')),
  attempts      INTEGER NOT NULL,
  claimed_by    TEXT,
  claimed_at    INTEGER,
  last_error    TEXT,
  retryable     INTEGER NOT NULL DEFAULT 0 CHECK (retryable IN (0, 1)),
  slack_channel TEXT,
  slack_ts      TEXT,
  created_at    INTEGER NOT NULL,
  updated_at    INTEGER NOT NULL,
  sent_at       INTEGER,
  UNIQUE (kind, action_id, occurrence, recipient)
) STRICT;
CREATE INDEX deliveries_state ON deliveries (state, claimed_at);
CREATE INDEX deliveries_action ON deliveries (action_id);

CREATE TABLE job_cursors (
  name        TEXT    PRIMARY KEY,
  value       TEXT    NOT NULL,
  updated_at  INTEGER NOT NULL
) STRICT;

CREATE TABLE job_leases (
  name         TEXT    PRIMARY KEY,
  holder       TEXT    NOT NULL,
  acquired_at  INTEGER NOT NULL,
  expires_at   INTEGER NOT NULL
) STRICT;

CREATE TABLE audit_log (
  id         INTEGER PRIMARY KEY AUTOINCREMENT,
  team_id    TEXT    NOT NULL,
  user_id    TEXT    NOT NULL,
  verb       TEXT    NOT NULL,
  action_id  TEXT,
  details    TEXT    NOT NULL DEFAULT '{}',
  at         INTEGER NOT NULL
) STRICT;
CREATE INDEX audit_log_action ON audit_log (action_id, id);
`;

const postgres = `
CREATE TABLE identity_links (
  team_id       TEXT   NOT NULL,
  slack_user_id TEXT   NOT NULL,
  care_user_id  TEXT   NOT NULL,
  method        TEXT   NOT NULL CHECK (method IN ('email', 'admin', 'request')),
  linked_by     TEXT,
  linked_at     BIGINT NOT NULL,
  PRIMARY KEY (team_id, slack_user_id)
);
CREATE INDEX identity_links_care_user ON identity_links (care_user_id);

CREATE TABLE link_requests (
  id            BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  team_id       TEXT   NOT NULL,
  slack_user_id TEXT   NOT NULL,
  care_user_id  TEXT,
  note          TEXT,
  state         TEXT   NOT NULL CHECK (state IN ('pending', 'approved', 'rejected')),
  requested_at  BIGINT NOT NULL,
  decided_by    TEXT,
  decided_at    BIGINT
);
CREATE UNIQUE INDEX link_requests_one_pending ON link_requests (team_id, slack_user_id) WHERE state = 'pending';
CREATE INDEX link_requests_state ON link_requests (state, id);

CREATE TABLE channel_subscriptions (
  team_id          TEXT    NOT NULL,
  channel_id       TEXT    NOT NULL,
  digest_time      TEXT    NOT NULL,
  digest_days      TEXT    NOT NULL CHECK (digest_days IN ('weekdays', 'daily')),
  time_zone        TEXT    NOT NULL,
  filters          JSONB   NOT NULL DEFAULT '{}',
  show_task_text   BOOLEAN NOT NULL,
  post_when_empty  BOOLEAN NOT NULL,
  urgent_alerts    BOOLEAN NOT NULL,
  channel_private  BOOLEAN NOT NULL,
  set_up_by        TEXT    NOT NULL,
  set_up_at        BIGINT  NOT NULL,
  PRIMARY KEY (team_id, channel_id)
);

CREATE TABLE group_routes (
  team_id     TEXT   NOT NULL,
  group_id    TEXT   NOT NULL,
  group_name  TEXT   NOT NULL,
  channel_id  TEXT   NOT NULL,
  set_up_by   TEXT   NOT NULL,
  set_up_at   BIGINT NOT NULL,
  PRIMARY KEY (team_id, group_id)
);
CREATE INDEX group_routes_group ON group_routes (group_id);

CREATE TABLE deliveries (
  id            BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  kind          TEXT    NOT NULL,
  action_id     TEXT    NOT NULL,
  occurrence    TEXT    NOT NULL,
  recipient     TEXT    NOT NULL,
  state         TEXT    NOT NULL CHECK (state IN ('pending', 'sent', 'failed')),
  attempts      INTEGER NOT NULL,
  claimed_by    TEXT,
  claimed_at    BIGINT,
  last_error    TEXT,
  retryable     BOOLEAN NOT NULL DEFAULT false,
  slack_channel TEXT,
  slack_ts      TEXT,
  created_at    BIGINT  NOT NULL,
  updated_at    BIGINT  NOT NULL,
  sent_at       BIGINT,
  UNIQUE (kind, action_id, occurrence, recipient)
);
CREATE INDEX deliveries_state ON deliveries (state, claimed_at);
CREATE INDEX deliveries_action ON deliveries (action_id);

CREATE TABLE job_cursors (
  name        TEXT   PRIMARY KEY,
  value       TEXT   NOT NULL,
  updated_at  BIGINT NOT NULL
);

CREATE TABLE job_leases (
  name         TEXT   PRIMARY KEY,
  holder       TEXT   NOT NULL,
  acquired_at  BIGINT NOT NULL,
  expires_at   BIGINT NOT NULL
);

CREATE TABLE audit_log (
  id         BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  team_id    TEXT   NOT NULL,
  user_id    TEXT   NOT NULL,
  verb       TEXT   NOT NULL,
  action_id  TEXT,
  details    JSONB  NOT NULL DEFAULT '{}',
  at         BIGINT NOT NULL
);
CREATE INDEX audit_log_action ON audit_log (action_id, id);
`;

export const migration001: Migration = { version: 1, name: 'initial', sqlite, postgres };
