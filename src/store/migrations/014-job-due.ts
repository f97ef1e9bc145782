/**
 * Work found by what is due (issue 36): `job_due` holds, per workspace and scheduled job kind, when that
 * kind next has work there (epoch ms). The scheduler asks one query per tick over all workspaces for the
 * ones not due yet and runs only the others (a workspace with no row is due: a new one, or one whose row a
 * change let go). A run notes `run_by` (its token) as it starts and writes the next due time as it ends, only
 * if its row is still the one it noted: a change made meanwhile leaves the workspace due.
 *
 * The triggers let go of a workspace's row when something its due time was worked out from changes, by any
 * path and on any instance: a digest channel's schedule (digests), a person's summary setting (summaries), a
 * care home setting such as the shifts, handover channels or escalation ladder (digests, summaries,
 * handovers, escalations), an urgent alert sent (escalations), an action's completion noted (retention).
 * The delivery ledger's recipient names its team (`channel:<team>/…`, `user:<team>/…`).
 *
 * `deliveries_unfinished`: the rows a retry sweep could work (pending, or failed for a passing reason), so the
 * poll asks once whether a workspace has any before its sweeps (store/delivery-retries.ts).
 *
 * Version 14.
 */
import type { Migration } from './migration.js';

const sqliteTeam = (r: string) => `substr(${r}, instr(${r}, ':') + 1, instr(${r}, '/') - instr(${r}, ':') - 1)`;

const sqliteForget = (name: string, event: string, table: string, team: string, kinds: string[], when = '') => `
CREATE TRIGGER ${name} AFTER ${event} ON ${table}${when ? ` WHEN ${when}` : ''} BEGIN
  DELETE FROM job_due WHERE team_id = ${team} AND kind IN (${kinds.map((k) => `'${k}'`).join(', ')});
END;`;

const HOME_KINDS = ['digests', 'summaries', 'handovers', 'escalations'];

const sqlite = `
CREATE TABLE job_due (
  kind     TEXT    NOT NULL,
  team_id  TEXT    NOT NULL,
  due_at   INTEGER NOT NULL,
  run_by   TEXT,
  PRIMARY KEY (kind, team_id)
) STRICT;
CREATE INDEX job_due_at ON job_due (kind, due_at);
CREATE INDEX deliveries_unfinished ON deliveries (recipient) WHERE state = 'pending' OR (state = 'failed' AND retryable = 1);
${sqliteForget('job_due_subscription_added', 'INSERT', 'channel_subscriptions', 'NEW.team_id', ['digests'])}
${sqliteForget('job_due_subscription_changed', 'UPDATE OF digest_time, digest_days, time_zone, set_up_at', 'channel_subscriptions', 'NEW.team_id', ['digests'])}
${sqliteForget('job_due_subscription_removed', 'DELETE', 'channel_subscriptions', 'OLD.team_id', ['digests'])}
${sqliteForget('job_due_summary_added', 'INSERT', 'summary_settings', 'NEW.team_id', ['summaries'])}
${sqliteForget('job_due_summary_changed', 'UPDATE OF summary_time, summary_days, enabled, set_at', 'summary_settings', 'NEW.team_id', ['summaries'])}
${sqliteForget('job_due_home_added', 'INSERT', 'home_settings', 'NEW.scope', HOME_KINDS)}
${sqliteForget('job_due_home_changed', 'UPDATE', 'home_settings', 'NEW.scope', HOME_KINDS)}
${sqliteForget('job_due_home_removed', 'DELETE', 'home_settings', 'OLD.scope', HOME_KINDS)}
${sqliteForget('job_due_urgent_sent', 'UPDATE OF state', 'deliveries', sqliteTeam('NEW.recipient'), ['escalations'], "NEW.kind = 'urgent' AND NEW.state = 'sent' AND OLD.state <> 'sent'")}
${sqliteForget('job_due_urgent_inserted', 'INSERT', 'deliveries', sqliteTeam('NEW.recipient'), ['escalations'], "NEW.kind = 'urgent' AND NEW.state = 'sent'")}
${sqliteForget('job_due_completion_added', 'INSERT', 'action_completions', 'NEW.workspace_id', ['retention'])}
${sqliteForget('job_due_completion_changed', 'UPDATE OF completed_at', 'action_completions', 'NEW.workspace_id', ['retention'])}
`;

const pgTrigger = (name: string, event: string, table: string, args: string, when = '') =>
  `CREATE TRIGGER ${name} AFTER ${event} ON ${table} FOR EACH ROW${when ? ` WHEN (${when})` : ''} EXECUTE FUNCTION ${args};`;

const postgres = `
CREATE TABLE job_due (
  kind     TEXT   NOT NULL,
  team_id  TEXT   NOT NULL,
  due_at   BIGINT NOT NULL,
  run_by   TEXT,
  PRIMARY KEY (kind, team_id)
);
CREATE INDEX job_due_at ON job_due (kind, due_at);
CREATE INDEX deliveries_unfinished ON deliveries (recipient) WHERE state = 'pending' OR (state = 'failed' AND retryable);
CREATE FUNCTION job_due_forget() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  team TEXT;
BEGIN
  IF TG_OP = 'DELETE' THEN team := to_jsonb(OLD) ->> TG_ARGV[0]; ELSE team := to_jsonb(NEW) ->> TG_ARGV[0]; END IF;
  IF TG_ARGV[0] = 'recipient' THEN team := split_part(split_part(team, '/', 1), ':', 2); END IF;
  DELETE FROM job_due WHERE team_id = team AND kind = ANY (string_to_array(TG_ARGV[1], ','));
  RETURN NULL;
END
$$;
${pgTrigger('job_due_subscription', 'INSERT OR DELETE OR UPDATE OF digest_time, digest_days, time_zone, set_up_at', 'channel_subscriptions', "job_due_forget('team_id', 'digests')")}
${pgTrigger('job_due_summary', 'INSERT OR UPDATE OF summary_time, summary_days, enabled, set_at', 'summary_settings', "job_due_forget('team_id', 'summaries')")}
${pgTrigger('job_due_home', 'INSERT OR UPDATE OR DELETE', 'home_settings', `job_due_forget('scope', '${HOME_KINDS.join(',')}')`)}
${pgTrigger('job_due_urgent_sent', 'UPDATE OF state', 'deliveries', "job_due_forget('recipient', 'escalations')", "NEW.kind = 'urgent' AND NEW.state = 'sent' AND OLD.state <> 'sent'")}
${pgTrigger('job_due_urgent_inserted', 'INSERT', 'deliveries', "job_due_forget('recipient', 'escalations')", "NEW.kind = 'urgent' AND NEW.state = 'sent'")}
${pgTrigger('job_due_completion', 'INSERT OR UPDATE OF completed_at', 'action_completions', "job_due_forget('workspace_id', 'retention')")}
`;

export const migration014: Migration = { version: 14, name: 'job-due', sqlite, postgres };
