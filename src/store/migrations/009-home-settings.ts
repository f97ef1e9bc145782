/**
 * A care home's own settings, kept by its admins in Slack in both deployments
 * (one workspace: scope ''; many: the team id): its shifts, handover channels,
 * escalation ladder, seniors on shift... Each is a named JSON value; the
 * services that own a setting read and check it (services/home-settings.ts).
 */
import type { Migration } from './migration.js';

const sqlite = `
CREATE TABLE home_settings (
  scope       TEXT    NOT NULL,
  name        TEXT    NOT NULL,
  value       TEXT    NOT NULL,
  updated_by  TEXT,
  updated_at  INTEGER NOT NULL,
  PRIMARY KEY (scope, name)
) STRICT;
`;

const postgres = `
CREATE TABLE home_settings (
  scope       TEXT   NOT NULL,
  name        TEXT   NOT NULL,
  value       TEXT   NOT NULL,
  updated_by  TEXT,
  updated_at  BIGINT NOT NULL,
  PRIMARY KEY (scope, name)
);
`;

export const migration009: Migration = { version: 9, name: 'home-settings', sqlite, postgres };
