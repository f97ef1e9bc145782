/**
 * Issue 28, uninstall: the app uninstalled from a workspace keeps nothing of it but anonymous audit rows, in
 * every table of the real database (listed from the database itself), and another workspace's rows are as
 * they were. Many workspaces (SQLite and, with TEST_DATABASE_URL, PostgreSQL) and a deployment of one.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SQLITE_FILE_NAME } from '../../src/store/index.js';
import { everyRow, postgresRaw, type RawQuery, sqliteRaw } from '../helpers/db-scan.js';
import { createTestSchema, TEST_DATABASE_URL, type TestSchema } from '../helpers/pg.js';
import { poll } from './fixtures/jobs-support.js';
import { urlWithSchema } from './fixtures/spawn-instance.js';
import { command, type Harness, startHarness } from './harness.js';
import { careCommand, installBoth, type MultiHarness, startMultiHarness } from './multi-harness.js';

const CARE = 'T0CARE';
const SUN = 'T0SUN';
/** What names Sunrise Care or its people anywhere in a row. */
const OF_SUN = ['T0SUN', 'U0ERIN', 'U0FRANK', 'C0SUNCARE', 'B0SUNBOT'];
const SUN_PEOPLE = ['U0ERIN', 'U0FRANK'];
const SLACK_USER_ID = /\bU0[A-Z0-9]{3,}\b/;
/** Tables that are the database's own, not any workspace's. */
const NOT_A_WORKSPACES = new Set(['schema_migrations', 'sqlite_sequence']);

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.reverse()) await c();
  cleanups.length = 0;
});

interface Db {
  kind: 'sqlite' | 'postgres';
  raw: RawQuery;
  schema?: string;
}

const tables = (db: Db) => everyRow(db.kind, db.raw, db.schema);
const text = (row: Record<string, unknown>) => JSON.stringify(row, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v));
const naming = (row: Record<string, unknown>, values: string[]) => values.some((v) => text(row).includes(v));

async function database(kind: 'sqlite' | 'postgres'): Promise<{ db: Db; options: { dataDir?: string; databaseUrl?: string } }> {
  if (kind === 'postgres') {
    const schema: TestSchema = await createTestSchema(TEST_DATABASE_URL!, 'uninstall');
    cleanups.push(() => schema.drop());
    return {
      db: { kind, schema: schema.name, raw: postgresRaw(TEST_DATABASE_URL!, schema.name) },
      options: { databaseUrl: urlWithSchema(TEST_DATABASE_URL!, schema.name) },
    };
  }
  const dataDir = await mkdtemp(join(tmpdir(), 'care-uninstall-'));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  return { db: { kind, raw: sqliteRaw(join(dataDir, SQLITE_FILE_NAME)) }, options: { dataDir } };
}

/** Each workspace's people leave something of theirs: links or requests, summaries, admins, a digest, the poll's cursors. */
async function bothInUse(h: MultiHarness): Promise<void> {
  await installBoth(h);
  for (const [team, admin, other] of [
    [CARE, 'amelia', 'sophie'],
    [SUN, 'erin', 'frank'],
  ] as const) {
    const otherId = h.fake.workspace(team).user(other)!.id;
    const adminId = h.fake.workspace(team).user(admin)!.id;
    await careCommand(h, team, other, 'link');
    await h.app.store.upsertLink({ teamId: team, slackUserId: adminId, careUserId: `care-${admin}`, method: 'admin', linkedBy: adminId });
    expect(await careCommand(h, team, admin, `admins add <@${otherId}>`)).toMatch(/admin/i);
    await careCommand(h, team, admin, 'summary 07:30');
    await careCommand(h, team, admin, 'digest here 08:30');
  }
  expect((await h.app.jobs.tick('changes-poll')).ran).toBe(2);
}

function multiScenario(kind: 'sqlite' | 'postgres') {
  it('leaves no row of the workspace in any table but anonymous audit rows; the other workspace’s rows are untouched and it goes on', async () => {
    const { db, options } = await database(kind);
    const h = await startMultiHarness(options);
    cleanups.push(() => h.close());
    await bothInUse(h);
    const before = await tables(db);
    // Sunrise's rows are in most tables before (so the check below means something).
    const holding = Object.entries(before).filter(([, rows]) => rows.some((r) => naming(r, OF_SUN)));
    expect(holding.map(([t]) => t)).toEqual(
      expect.arrayContaining([
        'audit_log',
        'care_connections',
        'channel_subscriptions',
        'job_cursors',
        'link_requests',
        'slack_installations',
        'summary_settings',
        'workspace_settings',
      ]),
    );

    const answers = await h.team(SUN).uninstall(SUN);
    expect(answers.every((a) => a.acked)).toBe(true);
    await h.fake.waitFor(async () => (await h.app.store.getInstallation({ isEnterpriseInstall: false, teamId: SUN })) === null, { message: 'the uninstall' });
    await h.fake.waitFor(async () => (await h.app.registry.connected()).length === 1, { message: 'the workspace dropped' });

    const after = await tables(db);
    for (const [table, rows] of Object.entries(after)) {
      const sunny = rows.filter((r) => naming(r, OF_SUN));
      if (table === 'audit_log') {
        // Kept, anonymous: Sunrise's team Id, what was done and when; nobody's Slack Id.
        expect(sunny.length).toBeGreaterThanOrEqual(4);
        for (const r of sunny) {
          expect(r.team_id).toBe(SUN);
          expect(text(r)).not.toMatch(SLACK_USER_ID);
          // Its channels stay named (they are the workspace's, not a person's); its people do not.
          expect(naming(r, SUN_PEOPLE)).toBe(false);
        }
        expect(sunny.map((r) => r.verb)).toContain('workspace.uninstalled');
      } else expect(sunny, `${table} still holds Sunrise's rows`).toEqual([]);
      // Care Home's rows are as they were.
      const ofCare = (rs: Record<string, unknown>[]) =>
        rs
          .filter((r) => text(r).includes(CARE))
          .map(text)
          .sort();
      expect(ofCare(rows), table).toEqual(ofCare(before[table] ?? []));
    }
    expect(await careCommand(h, CARE, 'amelia', 'summary')).toMatch(/07:30/);
    expect((await h.app.jobs.tick('changes-poll')).ran).toBe(1);
  });
}

describe('a workspace uninstalled from a deployment of many, SQLite', () => multiScenario('sqlite'));
describe.skipIf(!TEST_DATABASE_URL)('a workspace uninstalled from a deployment of many, PostgreSQL', () => multiScenario('postgres'));

describe('the app uninstalled from the workspace of a deployment of one', () => {
  it('empties every table of the database but the audit, whose rows name nobody; the operator is told in the log', async () => {
    const { db, options } = await database('sqlite');
    const h: Harness = await startHarness({ sandbox: { seed: 'empty' }, ...options });
    cleanups.push(() => h.close());
    expect((await command(h, 'sophie', '/care link')).text).toContain('Linked');
    await command(h, 'sophie', '/care summary 07:30');
    await command(h, 'amelia', '/care digest here 08:30');
    await command(h, 'visitor', '/care link');
    await poll(h);
    const before = await tables(db);
    expect(Object.entries(before).filter(([t, rows]) => t !== 'audit_log' && !NOT_A_WORKSPACES.has(t) && rows.length > 0).length).toBeGreaterThanOrEqual(5);

    const answers = await h.driver.uninstall();
    expect(answers.every((a) => a.acked)).toBe(true);
    await h.fake.waitFor(async () => (await h.app.store.listAudit({ verb: 'workspace.uninstalled' })).length > 0, { message: 'the uninstall' });

    const after = await tables(db);
    for (const [table, rows] of Object.entries(after)) {
      if (NOT_A_WORKSPACES.has(table)) continue;
      if (table === 'audit_log') {
        expect(rows.length).toBeGreaterThanOrEqual(4);
        for (const r of rows) expect(text(r)).not.toMatch(SLACK_USER_ID);
      } else if (table !== 'seen_events') expect(rows, table).toEqual([]);
    }
    // seen_events: only what the uninstall's own events left (Slack event Ids, nobody's data), expiring within the hour.
    for (const r of after.seen_events ?? []) expect(Object.keys(r).sort()).toEqual(['admitted_at', 'claim', 'event_id', 'expires_at', 'state']);
    expect(h.logs.some((l) => l.includes('the app was uninstalled from its workspace'))).toBe(true);
  });
});
