/**
 * Start-up migrations on both databases: fresh, re-open, appended, broken,
 * too new; plus the clear errors for an unusable DATABASE_URL / DATA_DIR.
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it, onTestFinished } from 'vitest';
import { memoryLogger } from '../../src/logging/logger.js';
import type { Migration, StoreConfig } from '../../src/store/index.js';
import { isStoreError, MIGRATIONS, openStore, StoreError } from '../../src/store/index.js';
import { SQLITE_FILE_NAME } from '../../src/store/sqlite-db.js';
import { createTestSchema, PG_SKIPPED, queryInSchema, TEST_DATABASE_URL } from '../helpers/pg.js';

const LATEST = MIGRATIONS.length;
const ALL_VERSIONS = MIGRATIONS.map((m) => m.version);

interface Target {
  config: StoreConfig;
  /** Run raw SQL against the database behind the store's back. */
  sql(text: string, params?: (string | number)[]): Promise<Record<string, unknown>[]>;
}

function sqliteTarget(): Target {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'store-migrate-'));
  onTestFinished(() => fs.rmSync(dir, { recursive: true, force: true }));
  return {
    config: { dataDir: dir },
    sql: async (text, params = []) => {
      const db = new Database(path.join(dir, SQLITE_FILE_NAME));
      try {
        const stmt = db.prepare(text);
        return stmt.reader ? (stmt.all(...params) as Record<string, unknown>[]) : stmt.run(...params) && [];
      } finally {
        db.close();
      }
    },
  };
}

async function postgresTarget(url: string): Promise<Target> {
  const schema = await createTestSchema(url, 'migrate');
  onTestFinished(() => schema.drop());
  return {
    config: { databaseUrl: url, schema: schema.name, poolSize: 2 },
    sql: async (text, params = []) => {
      let n = 0;
      return (
        await queryInSchema(
          url,
          schema.name,
          text.replace(/\?/g, () => `$${++n}`),
          params,
        )
      ).rows as Record<string, unknown>[];
    },
  };
}

const extra = (version: number, name: string, statements: string): Migration => ({ version, name, sqlite: statements, postgres: statements });

async function openAndClose(config: StoreConfig) {
  const store = await openStore(config);
  await store.close();
  return store.migration;
}

function migratorSuite(makeTarget: () => Promise<Target> | Target): void {
  it('migrates a fresh database to the latest version and records each step', async () => {
    const t = await makeTarget();
    const logger = memoryLogger('info');
    expect(await openAndClose({ ...t.config, logger })).toEqual({ from: 0, to: LATEST, applied: ALL_VERSIONS });
    const rows = await t.sql('SELECT version, name FROM schema_migrations ORDER BY version');
    expect(rows.map((r) => [Number(r.version), r.name])).toEqual(MIGRATIONS.map((m) => [m.version, m.name]));
    expect(logger.lines.join('\n')).toContain('store migrated');
  });

  it('re-opening a migrated database changes nothing', async () => {
    const t = await makeTarget();
    await openAndClose(t.config);
    const logger = memoryLogger('info');
    expect(await openAndClose({ ...t.config, logger })).toEqual({ from: LATEST, to: LATEST, applied: [] });
    expect(logger.lines).toEqual([]);
  });

  it('applies only a newly appended migration', async () => {
    const t = await makeTarget();
    await openAndClose(t.config);
    const next = extra(LATEST + 1, 'cursor-notes', 'ALTER TABLE job_cursors ADD COLUMN note TEXT');
    expect(await openAndClose({ ...t.config, migrations: [...MIGRATIONS, next] })).toEqual({ from: LATEST, to: LATEST + 1, applied: [LATEST + 1] });
    expect(await t.sql('SELECT note FROM job_cursors')).toEqual([]);
  });

  it('a failing migration keeps nothing of itself and says which one failed', async () => {
    const t = await makeTarget();
    await openAndClose(t.config);
    const broken = extra(LATEST + 1, 'broken', 'CREATE TABLE half_done (a TEXT); SELECT * FROM no_such_table');
    const error = await openAndClose({ ...t.config, migrations: [...MIGRATIONS, broken] }).catch((e: unknown) => e);
    expect(isStoreError(error, 'migration-failed')).toBe(true);
    expect((error as Error).message).toMatch(new RegExp(`${String(LATEST + 1).padStart(3, '0')}-broken failed`));
    const fixed = extra(LATEST + 1, 'fixed', 'CREATE TABLE half_done (a TEXT)');
    expect(await openAndClose({ ...t.config, migrations: [...MIGRATIONS, fixed] })).toMatchObject({ from: LATEST, applied: [LATEST + 1] });
  });

  it('refuses a database migrated by a newer build, saying what to do', async () => {
    const t = await makeTarget();
    await openAndClose(t.config);
    await t.sql('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)', [LATEST + 7, 'from-the-future', 1]);
    const error = await openAndClose(t.config).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreError);
    expect((error as StoreError).code).toBe('schema-too-new');
    expect((error as Error).message).toContain(`schema version ${LATEST + 7}`);
    expect((error as Error).message).toContain(`up to ${LATEST}`);
    expect((error as Error).message).toMatch(/run that release \(or a newer one\)/);
  });
}

describe('migrator on SQLite', () => {
  migratorSuite(sqliteTarget);

  it('creates DATA_DIR (and parents) and a WAL-mode database file on first start', async () => {
    const base = fs.mkdtempSync(path.join(os.tmpdir(), 'store-datadir-'));
    onTestFinished(() => fs.rmSync(base, { recursive: true, force: true }));
    const dataDir = path.join(base, 'nested', 'data');
    await openAndClose({ dataDir });
    const db = new Database(path.join(dataDir, SQLITE_FILE_NAME), { readonly: true });
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    db.close();
  });

  it('says which path is unusable when DATA_DIR is not a directory', async () => {
    const base = fs.mkdtempSync(path.join(os.tmpdir(), 'store-datadir-'));
    onTestFinished(() => fs.rmSync(base, { recursive: true, force: true }));
    const notADir = path.join(base, 'a-file');
    fs.writeFileSync(notADir, 'x');
    const error = await openStore({ dataDir: notADir }).catch((e: unknown) => e);
    expect(isStoreError(error, 'unreachable')).toBe(true);
    expect((error as Error).message).toContain(notADir);
    expect((error as Error).message).toContain('DATA_DIR');
  });

  it('refuses a DATABASE_URL that is neither PostgreSQL nor unset', async () => {
    const error = await openStore({ databaseUrl: 'mysql://root:pw@127.0.0.1/db' }).catch((e: unknown) => e);
    expect(isStoreError(error, 'bad-config')).toBe(true);
    expect((error as Error).message).toContain('postgres://');
    expect((error as Error).message).not.toContain('pw');
  });
});

describe('an unreachable PostgreSQL (no server needed)', () => {
  it('a refused connection fails at once, naming host and port but never the password', async () => {
    const error = await openStore({ databaseUrl: 'postgres://app:s3cret-pw@127.0.0.1:1/care' }).catch((e: unknown) => e);
    expect(isStoreError(error, 'unreachable')).toBe(true);
    const message = (error as Error).message;
    expect(message).toContain('127.0.0.1:1');
    expect(message).toContain('DATABASE_URL');
    expect(message).not.toContain('s3cret-pw');
  });

  it('a server that never answers fails after the connect timeout instead of hanging', async () => {
    const sockets = new Set<net.Socket>();
    const silent = net.createServer((socket) => void sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    onTestFinished(() => {
      for (const s of sockets) s.destroy();
      return new Promise<void>((resolve) => silent.close(() => resolve()));
    });
    const { port } = silent.address() as net.AddressInfo;
    const error = await openStore({ databaseUrl: `postgresql://app:pw-9@127.0.0.1:${port}/care`, connectTimeoutMs: 200 }).catch((e: unknown) => e);
    expect(isStoreError(error, 'unreachable')).toBe(true);
    expect((error as Error).message).toContain(`127.0.0.1:${port}`);
    expect((error as Error).message).not.toContain('pw-9');
  });
});

if (!TEST_DATABASE_URL) {
  console.warn(PG_SKIPPED);
  it.skip(PG_SKIPPED, () => {});
}

describe.skipIf(!TEST_DATABASE_URL)('migrator on PostgreSQL', () => {
  const url = TEST_DATABASE_URL ?? '';
  migratorSuite(() => postgresTarget(url));

  it('two instances starting together on a fresh database migrate it once', async () => {
    const t = await postgresTarget(url);
    const results = await Promise.all([openAndClose(t.config), openAndClose(t.config), openAndClose(t.config)]);
    expect(results.map((r) => r.applied.length).sort()).toEqual([0, 0, LATEST]);
    expect(await t.sql('SELECT COUNT(*)::int AS n FROM schema_migrations')).toEqual([{ n: LATEST }]);
  });

  it('an unknown database is reported as unreachable with what to check', async () => {
    const bad = new URL(url);
    bad.pathname = '/no_such_database_here';
    const error = await openStore({ databaseUrl: bad.toString() }).catch((e: unknown) => e);
    expect(isStoreError(error, 'unreachable')).toBe(true);
    expect((error as Error).message).toContain('no_such_database_here');
  });

  it('refuses a schema name that is not a plain identifier', async () => {
    const error = await openStore({ databaseUrl: url, schema: 'x"; DROP TABLE y; --' }).catch((e: unknown) => e);
    expect(isStoreError(error, 'bad-config')).toBe(true);
  });
});
