/**
 * Job state in a row (issue 34): `job_state` holds, per workspace and job kind, that kind's failures in a row and
 * its backoff (and the last slot claimed for it); the row of kind '' is the workspace's trouble episode: since
 * when, its failures of every kind, the latest failure's kind and short reason, and whether (and by whom, for
 * how long) its notice is being told or was told. Each change is a conditional statement on these rows
 * (store/job-state.ts), in place of the JSON record kept in the cursor `job-trouble:<team>` under a lease.
 *
 * The records of running deployments move into rows and their cursors (and any lease on them) are deleted, so an
 * episode in course keeps its backoff and is not told twice. As the app read them: a record without a whole
 * number `since` and `failures` ≥ 1 is none; one without per-kind detail backs off the kind it names; `told_at`
 * of a told episode is its `since` (when it was told was not kept). Reasons are kept as they were (already cut
 * and without credentials).
 *
 * The last slot each kind ran for a workspace (cursor `job-slot:<kind>:<team>`) is copied into its kind's row, so
 * claimJobSlot goes on from it; the cursors stay, for the scheduler that reads them still.
 *
 * Version 15.
 */
import type { Migration } from './migration.js';

const PREFIX = 'job-trouble:';
const FROM = PREFIX.length + 1;
const SLOT = 'job-slot:';

const sqlite = `
CREATE TABLE job_state (
  workspace_id     TEXT    NOT NULL,
  kind             TEXT    NOT NULL,
  failures         INTEGER NOT NULL DEFAULT 0,
  first_failed_at  INTEGER,
  last_failed_at   INTEGER,
  backed_off_until INTEGER,
  last_kind        TEXT,
  last_error       TEXT,
  told_at          INTEGER,
  telling_by       TEXT,
  telling_until    INTEGER,
  slot             INTEGER,
  updated_at       INTEGER NOT NULL,
  PRIMARY KEY (workspace_id, kind)
) STRICT;

CREATE TEMP TABLE job_trouble_records AS
  SELECT substr(name, ${FROM}) AS workspace_id, value AS v, updated_at
  FROM job_cursors
  WHERE substr(name, 1, ${PREFIX.length}) = '${PREFIX}' AND json_valid(value) AND json_type(value) = 'object'
    AND json_type(value, '$.since') IN ('integer', 'real') AND json_type(value, '$.failures') IN ('integer', 'real')
    AND json_extract(value, '$.failures') >= 1;

INSERT INTO job_state (workspace_id, kind, failures, first_failed_at, last_failed_at, backed_off_until, last_kind, last_error, told_at, updated_at)
  SELECT workspace_id, '', CAST(json_extract(v, '$.failures') AS INTEGER), CAST(json_extract(v, '$.since') AS INTEGER), NULL, NULL,
    CASE WHEN json_type(v, '$.kind') = 'text' THEN json_extract(v, '$.kind') ELSE '' END,
    CASE WHEN json_type(v, '$.error') = 'text' THEN json_extract(v, '$.error') ELSE '' END,
    CASE WHEN json_type(v, '$.told') = 'true' THEN CAST(json_extract(v, '$.since') AS INTEGER) END,
    updated_at
  FROM job_trouble_records;

INSERT OR IGNORE INTO job_state (workspace_id, kind, failures, backed_off_until, updated_at)
  SELECT r.workspace_id, k.key, CAST(json_extract(k.value, '$.failures') AS INTEGER), CAST(json_extract(k.value, '$.nextAttemptAt') AS INTEGER), r.updated_at
  FROM job_trouble_records r, json_each(r.v, '$.kinds') k
  WHERE json_type(r.v, '$.kinds') = 'object' AND k.key <> '' AND k.type = 'object'
    AND json_type(k.value, '$.failures') IN ('integer', 'real') AND json_type(k.value, '$.nextAttemptAt') IN ('integer', 'real');

INSERT INTO job_state (workspace_id, kind, failures, backed_off_until, updated_at)
  SELECT workspace_id, json_extract(v, '$.kind'), CAST(json_extract(v, '$.failures') AS INTEGER),
    CASE WHEN json_type(v, '$.nextAttemptAt') IN ('integer', 'real') THEN CAST(json_extract(v, '$.nextAttemptAt') AS INTEGER) ELSE 0 END,
    updated_at
  FROM job_trouble_records r
  WHERE json_type(v, '$.kind') = 'text' AND json_extract(v, '$.kind') <> ''
    AND NOT EXISTS (SELECT 1 FROM job_state s WHERE s.workspace_id = r.workspace_id AND s.kind <> '');

UPDATE job_state SET first_failed_at = (SELECT e.first_failed_at FROM job_state e WHERE e.workspace_id = job_state.workspace_id AND e.kind = '')
  WHERE kind <> '';

DROP TABLE job_trouble_records;

INSERT INTO job_state (workspace_id, kind, slot, updated_at)
  SELECT substr(rest, instr(rest, ':') + 1), substr(rest, 1, instr(rest, ':') - 1), CAST(value AS INTEGER), updated_at
  FROM (SELECT substr(name, ${SLOT.length + 1}) AS rest, value, updated_at FROM job_cursors WHERE substr(name, 1, ${SLOT.length}) = '${SLOT}')
  WHERE instr(rest, ':') > 1 AND instr(rest, ':') < length(rest) AND value <> '' AND length(value) <= 18 AND value NOT GLOB '*[^0-9]*'
  ON CONFLICT (workspace_id, kind) DO UPDATE SET slot = excluded.slot;
DELETE FROM job_cursors WHERE substr(name, 1, ${PREFIX.length}) = '${PREFIX}';
DELETE FROM job_leases WHERE substr(name, 1, ${PREFIX.length}) = '${PREFIX}';
`;

const postgres = `
CREATE TABLE job_state (
  workspace_id     TEXT    NOT NULL,
  kind             TEXT    NOT NULL,
  failures         INTEGER NOT NULL DEFAULT 0,
  first_failed_at  BIGINT,
  last_failed_at   BIGINT,
  backed_off_until BIGINT,
  last_kind        TEXT,
  last_error       TEXT,
  told_at          BIGINT,
  telling_by       TEXT,
  telling_until    BIGINT,
  slot             BIGINT,
  updated_at       BIGINT  NOT NULL,
  PRIMARY KEY (workspace_id, kind)
);

DO $$
DECLARE
  c RECORD;
  v JSONB;
  k RECORD;
  team TEXT;
  since BIGINT;
  kinds INTEGER;
BEGIN
  FOR c IN SELECT name, value, updated_at FROM job_cursors WHERE substr(name, 1, ${PREFIX.length}) = '${PREFIX}' LOOP
    BEGIN
      v := c.value::jsonb;
    EXCEPTION WHEN others THEN
      CONTINUE; -- not JSON: no record
    END;
    IF jsonb_typeof(v) <> 'object' OR jsonb_typeof(v -> 'since') IS DISTINCT FROM 'number' OR jsonb_typeof(v -> 'failures') IS DISTINCT FROM 'number'
       OR (v ->> 'failures')::numeric < 1 THEN
      CONTINUE;
    END IF;
    team := substr(c.name, ${FROM});
    since := trunc((v ->> 'since')::numeric)::bigint;
    INSERT INTO job_state (workspace_id, kind, failures, first_failed_at, last_kind, last_error, told_at, updated_at)
    VALUES (
      team, '', trunc((v ->> 'failures')::numeric)::integer, since,
      CASE WHEN jsonb_typeof(v -> 'kind') = 'string' THEN v ->> 'kind' ELSE '' END,
      CASE WHEN jsonb_typeof(v -> 'error') = 'string' THEN v ->> 'error' ELSE '' END,
      CASE WHEN v -> 'told' = 'true'::jsonb THEN since END,
      c.updated_at
    );
    kinds := 0;
    IF jsonb_typeof(v -> 'kinds') = 'object' THEN
      FOR k IN SELECT key, value FROM jsonb_each(v -> 'kinds') LOOP
        IF k.key <> '' AND jsonb_typeof(k.value) = 'object' AND jsonb_typeof(k.value -> 'failures') = 'number'
           AND jsonb_typeof(k.value -> 'nextAttemptAt') = 'number' THEN
          INSERT INTO job_state (workspace_id, kind, failures, first_failed_at, backed_off_until, updated_at)
          VALUES (team, k.key, trunc((k.value ->> 'failures')::numeric)::integer, since, trunc((k.value ->> 'nextAttemptAt')::numeric)::bigint, c.updated_at);
          kinds := kinds + 1;
        END IF;
      END LOOP;
    END IF;
    IF kinds = 0 AND jsonb_typeof(v -> 'kind') = 'string' AND v ->> 'kind' <> '' THEN
      INSERT INTO job_state (workspace_id, kind, failures, first_failed_at, backed_off_until, updated_at)
      VALUES (
        team, v ->> 'kind', trunc((v ->> 'failures')::numeric)::integer, since,
        CASE WHEN jsonb_typeof(v -> 'nextAttemptAt') = 'number' THEN trunc((v ->> 'nextAttemptAt')::numeric)::bigint ELSE 0 END,
        c.updated_at
      );
    END IF;
  END LOOP;
END
$$;
INSERT INTO job_state (workspace_id, kind, slot, updated_at)
  SELECT substr(rest, strpos(rest, ':') + 1), substr(rest, 1, strpos(rest, ':') - 1), value::bigint, updated_at
  FROM (SELECT substr(name, ${SLOT.length + 1}) AS rest, value, updated_at FROM job_cursors WHERE substr(name, 1, ${SLOT.length}) = '${SLOT}') c
  WHERE strpos(rest, ':') > 1 AND strpos(rest, ':') < char_length(rest) AND value ~ '^[0-9]{1,18}$'
  ON CONFLICT (workspace_id, kind) DO UPDATE SET slot = excluded.slot;
DELETE FROM job_cursors WHERE substr(name, 1, ${PREFIX.length}) = '${PREFIX}';
DELETE FROM job_leases WHERE substr(name, 1, ${PREFIX.length}) = '${PREFIX}';
`;

export const migration015: Migration = { version: 15, name: 'job-state', sqlite, postgres };
