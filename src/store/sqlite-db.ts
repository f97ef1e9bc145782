/**
 * SQLite through better-sqlite3: one connection, WAL, synchronous=NORMAL,
 * prepared statements cached by SQL text. The driver is synchronous; this
 * wraps it in promises and keeps a transaction's statements together (other
 * callers wait while a transaction is open).
 *
 * One store per database file per process: two stores on one file in the same
 * process would block each other's transactions (the driver waits
 * synchronously on the file lock). Separate processes are fine.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Db, Param, Row } from './db.js';
import { StoreError } from './errors.js';

export const SQLITE_FILE_NAME = 'care-slack.sqlite';

type Statement = Database.Statement<unknown[], unknown>;

export function openSqliteDb(dataDir: string): Db {
  const dir = path.resolve(dataDir);
  const file = path.join(dir, SQLITE_FILE_NAME);
  let raw: Database.Database;
  try {
    ensureDir(dir);
    raw = new Database(file);
    raw.pragma('journal_mode = WAL');
    raw.pragma('synchronous = NORMAL');
    raw.pragma('foreign_keys = ON');
    raw.pragma('busy_timeout = 5000');
  } catch (cause) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    throw new StoreError('unreachable', `Cannot open the SQLite database at ${file} (${reason}). Check that DATA_DIR points at a writable directory.`, {
      cause,
    });
  }
  return new SqliteDb(raw);
}

/**
 * mkdir -p, one level at a time (fs.mkdirSync's recursive mode can spin
 * forever on some paths, e.g. under /proc, instead of failing).
 */
function ensureDir(dir: string): void {
  try {
    if (fs.statSync(dir).isDirectory()) return;
    throw Object.assign(new Error(`${dir} exists and is not a directory`), { code: 'ENOTDIR' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const parent = path.dirname(dir);
  if (parent !== dir) ensureDir(parent);
  try {
    fs.mkdirSync(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
}

const bind = (params: readonly Param[]): unknown[] => params.map((p) => (p === true ? 1 : p === false ? 0 : p));

class SqliteDb implements Db {
  readonly kind = 'sqlite' as const;
  private readonly statements = new Map<string, Statement>();
  /** Resolves when the open transaction ends; null when none is open. */
  private gate: Promise<void> | null = null;
  private closed = false;
  private readonly direct: Db;

  constructor(private readonly raw: Database.Database) {
    // The view a transaction body gets: same connection, no waiting on the gate.
    this.direct = {
      kind: 'sqlite',
      all: async <R extends Row>(sql: string, params: readonly Param[] = []) => this.allNow<R>(sql, params),
      get: async <R extends Row>(sql: string, params: readonly Param[] = []) => this.allNow<R>(sql, params)[0],
      run: async (sql: string, params: readonly Param[] = []) => this.runNow(sql, params),
      transaction: async <T>(fn: (tx: Db) => Promise<T>) => fn(this.direct),
      exec: async (sql: string) => void this.raw.exec(sql),
      close: async () => this.close(),
    };
  }

  private statement(sql: string): Statement {
    if (this.closed) throw new StoreError('closed', 'The store is closed; open a new one with openStore().');
    let stmt = this.statements.get(sql);
    if (!stmt) {
      stmt = this.raw.prepare(sql);
      this.statements.set(sql, stmt);
    }
    return stmt;
  }

  private allNow<R>(sql: string, params: readonly Param[]): R[] {
    const stmt = this.statement(sql);
    if (stmt.reader) return stmt.all(...bind(params)) as R[];
    stmt.run(...bind(params));
    return [];
  }

  private runNow(sql: string, params: readonly Param[]): number {
    const stmt = this.statement(sql);
    if (stmt.reader) {
      stmt.all(...bind(params));
      return 0;
    }
    return stmt.run(...bind(params)).changes;
  }

  async all<R extends Row = Row>(sql: string, params: readonly Param[] = []): Promise<R[]> {
    while (this.gate) await this.gate; // the check and the statement run in one turn
    return this.allNow<R>(sql, params);
  }

  async get<R extends Row = Row>(sql: string, params: readonly Param[] = []): Promise<R | undefined> {
    return (await this.all<R>(sql, params))[0];
  }

  async run(sql: string, params: readonly Param[] = []): Promise<number> {
    while (this.gate) await this.gate; // the check and the statement run in one turn
    return this.runNow(sql, params);
  }

  async exec(sql: string): Promise<void> {
    while (this.gate) await this.gate; // the check and the statement run in one turn
    if (this.closed) throw new StoreError('closed', 'The store is closed; open a new one with openStore().');
    this.raw.exec(sql);
  }

  async transaction<T>(fn: (tx: Db) => Promise<T>): Promise<T> {
    while (this.gate) await this.gate;
    if (this.closed) throw new StoreError('closed', 'The store is closed; open a new one with openStore().');
    // No await between the loop above and taking the gate.
    let release!: () => void;
    this.gate = new Promise<void>((resolve) => (release = resolve));
    try {
      this.raw.exec('BEGIN IMMEDIATE');
      try {
        const result = await fn(this.direct);
        this.raw.exec('COMMIT');
        return result;
      } catch (error) {
        if (this.raw.inTransaction) this.raw.exec('ROLLBACK');
        throw error;
      }
    } finally {
      this.gate = null;
      release();
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    while (this.gate) await this.gate;
    this.closed = true;
    this.statements.clear();
    this.raw.close();
  }
}
