/**
 * How the contract suite gets a fresh store of each kind: SQLite in a temp
 * dir, PostgreSQL in an empty migrated schema (made once, emptied between
 * tests: see schemaPool); both with a clock the test moves (as the
 * app's clock and as the shared clock of claims and leases), and cleaned up
 * when the test finishes.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, onTestFinished } from 'vitest';
import type { OpenedStore, StoreConfig } from '../../src/store/index.js';
import { openStore, SQLITE_FILE_NAME } from '../../src/store/index.js';
import { createTestSchema, queryInSchema, schemaJanitor, type TestSchema } from '../helpers/pg.js';

export interface TestClock {
  (): number;
  set(ms: number): void;
  advance(ms: number): void;
}

export function testClock(start = Date.UTC(2025, 0, 6, 9, 0, 0)): TestClock {
  let now = start;
  return Object.assign(() => now, {
    set: (ms: number) => void (now = ms),
    advance: (ms: number) => void (now += ms),
  });
}

export interface Fresh {
  store: OpenedStore;
  clock: TestClock;
  /** Another store on the same database (same clock), e.g. a second instance or after close(). */
  open(extra?: Partial<StoreConfig>): Promise<OpenedStore>;
  /** Where it lives: the dataDir or the schema config. */
  config: StoreConfig;
}

export interface Harness {
  readonly kind: 'sqlite' | 'postgres';
  fresh(extra?: Partial<StoreConfig>): Promise<Fresh>;
  /** SQL straight on the store's database, past the store (`?` placeholders): to look at or tamper with rows. */
  raw(fresh: Fresh, sql: string, params?: unknown[]): Promise<Record<string, unknown>[]>;
  /**
   * Everything the database holds, as an attacker with a copy would see it: SQLite's files
   * (database, WAL and shared memory) byte for byte; PostgreSQL's `SELECT *` of every table.
   */
  dump(fresh: Fresh): Promise<Buffer>;
}

/** Opens stores on `config` and closes them when the test finishes, then calls `done` (if any). */
async function track(config: StoreConfig, clock: TestClock, extra: Partial<StoreConfig>, done?: () => Promise<void>): Promise<Fresh> {
  const opened: OpenedStore[] = [];
  const open = async (more: Partial<StoreConfig> = {}) => {
    const store = await openStore({ ...config, clock, sharedClock: clock, ...extra, ...more });
    opened.push(store);
    return store;
  };
  onTestFinished(async () => {
    for (const s of opened) await s.close();
    await done?.();
  });
  const store = await open();
  return { store, clock, open, config };
}

export function sqliteHarness(): Harness {
  return {
    kind: 'sqlite',
    async fresh(extra = {}) {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'store-test-'));
      onTestFinished(() => fs.rmSync(dir, { recursive: true, force: true }));
      return track({ dataDir: path.join(dir, 'data') }, testClock(), extra);
    },
    async raw(fresh, sql, params = []) {
      const db = new Database(path.join(fresh.config.dataDir!, SQLITE_FILE_NAME));
      try {
        const statement = db.prepare(sql);
        if (statement.reader) return statement.all(...params) as Record<string, unknown>[];
        statement.run(...params);
        return [];
      } finally {
        db.close();
      }
    },
    async dump(fresh) {
      const dir = fresh.config.dataDir!;
      return Buffer.concat(fs.readdirSync(dir).map((name) => fs.readFileSync(path.join(dir, name))));
    },
  };
}

interface Lent {
  schema: TestSchema;
  /** Its fingerprint when the migrations had just made it (unknown until a first store has migrated it). */
  fingerprint?: string;
}

/**
 * The schemas a PostgreSQL harness lends its tests. Migrating a new schema and dropping it cost PostgreSQL some
 * hundreds of milliseconds (more on a loaded machine); emptying a migrated one costs a few. So a schema is made and
 * migrated once, and when its test has finished (its stores closed) it is emptied and lent to the next test: each
 * test still starts on an empty schema as the migrations left it, ids from 1. A schema whose make-up its test
 * changed (any DDL, even a TRUNCATE: its fingerprint moved) is dropped instead, and so is one that a fresh store
 * migrated only part of the way (`extra.migrations`) or that failed to open. All are dropped after the file:
 * the harness must be made while the file's tests are collected, as every caller does.
 */
function schemaPool(url: string) {
  const janitor = schemaJanitor(url);
  const idle: Lent[] = [];
  const made = new Set<TestSchema>();
  afterAll(async () => {
    for (const schema of made) await schema.drop();
    await janitor.close();
  });
  const drop = async (lent: Lent) => {
    made.delete(lent.schema);
    await lent.schema.drop();
  };
  return {
    async lend(): Promise<Lent> {
      const reused = idle.pop();
      if (reused) return reused;
      const schema = await createTestSchema(url);
      made.add(schema);
      return { schema };
    },
    /** After the store on it has migrated a new schema: what it looks like, to compare when it comes back. */
    async migrated(lent: Lent): Promise<void> {
      lent.fingerprint ??= await janitor.fingerprint(lent.schema.name);
    },
    async giveBack(lent: Lent): Promise<void> {
      try {
        if (lent.fingerprint === undefined || (await janitor.fingerprint(lent.schema.name)) !== lent.fingerprint) return await drop(lent);
        await janitor.empty(lent.schema.name);
      } catch (error) {
        await drop(lent);
        throw error;
      }
      idle.push(lent);
    },
  };
}

export function postgresHarness(url: string): Harness {
  const schemas = schemaPool(url);
  const raw = async (fresh: Fresh, sql: string, params: unknown[] = []) => {
    let n = 0;
    return (
      await queryInSchema(
        url,
        fresh.config.schema!,
        sql.replace(/\?/g, () => `$${++n}`),
        params,
      )
    ).rows as Record<string, unknown>[];
  };
  return {
    kind: 'postgres',
    async fresh(extra = {}) {
      const config = (name: string): StoreConfig => ({ databaseUrl: url, schema: name, poolSize: 4 });
      if (extra.migrations) {
        // Migrated only so far: a schema of its own, never lent again.
        const schema = await createTestSchema(url);
        return track(config(schema.name), testClock(), extra, () => schema.drop());
      }
      const lent = await schemas.lend();
      const fresh = await track(config(lent.schema.name), testClock(), extra, () => schemas.giveBack(lent));
      await schemas.migrated(lent);
      return fresh;
    },
    raw,
    async dump(fresh) {
      const tables = await raw(fresh, 'SELECT table_name FROM information_schema.tables WHERE table_schema = ? ORDER BY table_name', [fresh.config.schema]);
      const parts: string[] = [];
      for (const { table_name } of tables) parts.push(JSON.stringify(await raw(fresh, `SELECT * FROM "${String(table_name)}"`)));
      return Buffer.from(parts.join('\n'), 'utf8');
    },
  };
}
