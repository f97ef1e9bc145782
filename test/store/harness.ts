/**
 * How the contract suite gets a fresh store of each kind: SQLite in a temp
 * dir, PostgreSQL in a random schema; both with a clock the test moves (as the
 * app's clock and as the shared clock of claims and leases), and cleaned up
 * when the test finishes.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { onTestFinished } from 'vitest';
import type { OpenedStore, StoreConfig } from '../../src/store/index.js';
import { openStore, SQLITE_FILE_NAME } from '../../src/store/index.js';
import { createTestSchema, queryInSchema } from '../helpers/pg.js';

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

async function track(config: StoreConfig, clock: TestClock, extra: Partial<StoreConfig>): Promise<Fresh> {
  const opened: OpenedStore[] = [];
  const open = async (more: Partial<StoreConfig> = {}) => {
    const store = await openStore({ ...config, clock, sharedClock: clock, ...extra, ...more });
    opened.push(store);
    return store;
  };
  onTestFinished(async () => {
    for (const s of opened) await s.close();
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

export function postgresHarness(url: string): Harness {
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
      const schema = await createTestSchema(url);
      onTestFinished(() => schema.drop());
      return track({ databaseUrl: url, schema: schema.name, poolSize: 4 }, testClock(), extra);
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
