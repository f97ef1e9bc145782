/**
 * Many workspaces on one deployment: Slack installations (as Bolt's OAuth
 * InstallationStore needs them, Enterprise Grid org installs included), each
 * workspace's care connection and its settings. Columns marked "sealed" hold
 * AES-256-GCM text from src/crypto/secret-box.ts (`v1.<key id>...`), never a
 * token or secret in clear. A workspace Id is a Slack team Id, or an
 * enterprise Id for an org-wide install. Lists are comma-separated (scopes and
 * Slack user Ids hold no commas).
 */
import type { Migration } from './migration.js';

const sqlite = `
CREATE TABLE slack_installations (
  installation_key       TEXT    PRIMARY KEY,
  enterprise_id          TEXT,
  enterprise_name        TEXT,
  enterprise_url         TEXT,
  team_id                TEXT,
  team_name              TEXT,
  is_enterprise_install  INTEGER NOT NULL CHECK (is_enterprise_install IN (0, 1)),
  app_id                 TEXT,
  auth_version           TEXT    NOT NULL CHECK (auth_version IN ('v1', 'v2')),
  bot_token              TEXT,
  bot_refresh_token      TEXT,
  bot_token_expires_at   INTEGER,
  bot_id                 TEXT,
  bot_user_id            TEXT,
  bot_scopes             TEXT,
  installer_user_id      TEXT    NOT NULL,
  user_token             TEXT,
  user_refresh_token     TEXT,
  user_token_expires_at  INTEGER,
  user_scopes            TEXT,
  incoming_webhook       TEXT,
  metadata               TEXT,
  installed_at           INTEGER NOT NULL,
  updated_at             INTEGER NOT NULL,
  CHECK ((is_enterprise_install = 1 AND enterprise_id IS NOT NULL) OR (is_enterprise_install = 0 AND team_id IS NOT NULL))
) STRICT;
CREATE INDEX slack_installations_team ON slack_installations (team_id);
CREATE INDEX slack_installations_enterprise ON slack_installations (enterprise_id);

CREATE TABLE care_connections (
  workspace_id  TEXT    PRIMARY KEY,
  base_url      TEXT    NOT NULL,
  account_id    TEXT    NOT NULL,
  api_key       TEXT    NOT NULL,
  api_secret    TEXT    NOT NULL,
  connected_by  TEXT    NOT NULL,
  connected_at  INTEGER NOT NULL
) STRICT;

CREATE TABLE workspace_settings (
  workspace_id    TEXT    PRIMARY KEY,
  time_zone       TEXT,
  care_web_url    TEXT,
  admin_user_ids  TEXT    NOT NULL DEFAULT '',
  updated_by      TEXT,
  updated_at      INTEGER NOT NULL
) STRICT;
`;

const postgres = `
CREATE TABLE slack_installations (
  installation_key       TEXT    PRIMARY KEY,
  enterprise_id          TEXT,
  enterprise_name        TEXT,
  enterprise_url         TEXT,
  team_id                TEXT,
  team_name              TEXT,
  is_enterprise_install  BOOLEAN NOT NULL,
  app_id                 TEXT,
  auth_version           TEXT    NOT NULL CHECK (auth_version IN ('v1', 'v2')),
  bot_token              TEXT,
  bot_refresh_token      TEXT,
  bot_token_expires_at   BIGINT,
  bot_id                 TEXT,
  bot_user_id            TEXT,
  bot_scopes             TEXT,
  installer_user_id      TEXT    NOT NULL,
  user_token             TEXT,
  user_refresh_token     TEXT,
  user_token_expires_at  BIGINT,
  user_scopes            TEXT,
  incoming_webhook       TEXT,
  metadata               TEXT,
  installed_at           BIGINT  NOT NULL,
  updated_at             BIGINT  NOT NULL,
  CHECK ((is_enterprise_install AND enterprise_id IS NOT NULL) OR (NOT is_enterprise_install AND team_id IS NOT NULL))
);
CREATE INDEX slack_installations_team ON slack_installations (team_id);
CREATE INDEX slack_installations_enterprise ON slack_installations (enterprise_id);

CREATE TABLE care_connections (
  workspace_id  TEXT    PRIMARY KEY,
  base_url      TEXT    NOT NULL,
  account_id    TEXT    NOT NULL,
  api_key       TEXT    NOT NULL,
  api_secret    TEXT    NOT NULL,
  connected_by  TEXT    NOT NULL,
  connected_at  BIGINT  NOT NULL
);

CREATE TABLE workspace_settings (
  workspace_id    TEXT    PRIMARY KEY,
  time_zone       TEXT,
  care_web_url    TEXT,
  admin_user_ids  TEXT    NOT NULL DEFAULT '',
  updated_by      TEXT,
  updated_at      BIGINT  NOT NULL
);
`;

export const migration004: Migration = { version: 4, name: 'installations', sqlite, postgres };
