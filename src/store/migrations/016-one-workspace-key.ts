/**
 * One key per workspace (issue 34). `single_workspace` remembers the Slack team a deployment of one workspace
 * serves (its one row, written the first time it starts and learns its team: store/single-workspace.ts), so a
 * later start runs its jobs under that team's id without asking Slack first.
 *
 * Scoped names follow one rule from here on: `<name>@<team>` (team ids hold no '@'). The scheduler's leases
 * were named `<kind>:<team>` and the bot-token renewal's `slack-token-refresh:team:<team>`; the ones held now
 * are renamed, so the holder keeps them (its next renewal by holder finds them) and no two instances take
 * one lease under two names. The renewal leases of org-wide installs go (those installs are refused). The slot
 * cursors migration 015 copied into job_state (`job-slot:<kind>:<team>`) are renamed by the same rule.
 *
 * An instance of an older release still running beside a new one goes on naming its leases the old way until
 * it stops, so a workspace's job may run on one of each meanwhile (the delivery ledger still sends each message
 * once): stop the old instances as the new ones start.
 *
 * The rows a deployment of one workspace kept under `''`, `'single'` and bare names are adopted under its team
 * when it starts (store/single-workspace.ts): the team is not known here.
 *
 * Version 16.
 */
import type { Migration } from './migration.js';

/** The scheduler's job kinds (jobs/index.ts) as named before: `<kind>:<team>`. */
const KINDS = ['changes-poll', 'read-cache-sync', 'digests', 'summaries', 'handovers', 'escalations', 'retention'];
const TOKEN = 'slack-token-refresh:';
const SLOT = 'job-slot:';

/** `<prefix><rest>` becomes `<to><rest>`, unless that name is taken; the rest of the old names go. */
const rename = (len: string, prefix: string, to: string) => `
UPDATE job_leases SET name = '${to}' || substr(name, ${prefix.length + 1})
  WHERE substr(name, 1, ${prefix.length}) = '${prefix}' AND ${len}(name) > ${prefix.length}
    AND NOT EXISTS (SELECT 1 FROM job_leases l WHERE l.name = '${to}' || substr(job_leases.name, ${prefix.length + 1}));
DELETE FROM job_leases WHERE substr(name, 1, ${prefix.length}) = '${prefix}';`;

const renames = (len: string) =>
  [
    ...KINDS.map((kind) => rename(len, `${kind}:`, `${kind}@`)),
    rename(len, `${TOKEN}team:`, 'slack-token-refresh@'),
    `DELETE FROM job_leases WHERE substr(name, 1, ${TOKEN.length}) = '${TOKEN}';`,
  ].join('\n');

/** The slot cursors migration 015 left (`job-slot:<kind>:<team>`; the slot is in job_state now): `job-slot:<kind>@<team>`. */
const slots = (pos: string) => `
UPDATE job_cursors SET name = '${SLOT}' || substr(substr(name, ${SLOT.length + 1}), 1, ${pos}(substr(name, ${SLOT.length + 1}), ':') - 1) || '@'
    || substr(substr(name, ${SLOT.length + 1}), ${pos}(substr(name, ${SLOT.length + 1}), ':') + 1)
  WHERE substr(name, 1, ${SLOT.length}) = '${SLOT}' AND ${pos}(substr(name, ${SLOT.length + 1}), ':') > 1 AND ${pos}(name, '@') = 0;`;

const sqlite = `
CREATE TABLE single_workspace (
  id        INTEGER PRIMARY KEY CHECK (id = 1),
  team_id   TEXT    NOT NULL,
  bound_at  INTEGER NOT NULL
) STRICT;
${renames('length')}
${slots('instr')}
`;

const postgres = `
CREATE TABLE single_workspace (
  id        INTEGER PRIMARY KEY CHECK (id = 1),
  team_id   TEXT    NOT NULL,
  bound_at  BIGINT  NOT NULL
);
${renames('char_length')}
${slots('strpos')}
`;

export const migration016: Migration = { version: 16, name: 'one-workspace-key', sqlite, postgres };
