/**
 * Each person's own morning summary: a DM at a local time of day (in the
 * person's Slack time zone, read when it is sent), on weekdays or every day.
 * Turning it off keeps the row (enabled = false), so turning it back on
 * remembers the time. set_at: when it was last changed (a summary whose time
 * had already passed when it was set starts the next day).
 */
import type { Migration } from './migration.js';

const sqlite = `
CREATE TABLE summary_settings (
  team_id        TEXT    NOT NULL,
  slack_user_id  TEXT    NOT NULL,
  summary_time   TEXT    NOT NULL,
  summary_days   TEXT    NOT NULL CHECK (summary_days IN ('weekdays', 'daily')),
  enabled        INTEGER NOT NULL CHECK (enabled IN (0, 1)),
  set_at         INTEGER NOT NULL,
  PRIMARY KEY (team_id, slack_user_id)
) STRICT;
CREATE INDEX summary_settings_enabled ON summary_settings (enabled, team_id, slack_user_id);
`;

const postgres = `
CREATE TABLE summary_settings (
  team_id        TEXT    NOT NULL,
  slack_user_id  TEXT    NOT NULL,
  summary_time   TEXT    NOT NULL,
  summary_days   TEXT    NOT NULL CHECK (summary_days IN ('weekdays', 'daily')),
  enabled        BOOLEAN NOT NULL,
  set_at         BIGINT  NOT NULL,
  PRIMARY KEY (team_id, slack_user_id)
);
CREATE INDEX summary_settings_enabled ON summary_settings (enabled, team_id, slack_user_id);
`;

export const migration003: Migration = { version: 3, name: 'summary-settings', sqlite, postgres };
