/**
 * SQLite through better-sqlite3: one connection, WAL, synchronous=NORMAL,
 * prepared statements cached by SQL text. The driver is synchronous; this
 * wraps it in promises and keeps a transaction's statements together (other
 * callers wait while a transaction is open).
 *
 * One store per database file per process. Separate processes are fine.
 *
 * Waiting for another connection's lock (another process writing, a backup
 * holding the file) never blocks the event loop: SQLite's own busy handler
 * would sleep inside the synchronous driver, freezing every request of the
 * process (a Slack ack included) for as long as it waits. Instead a busy
 * statement fails at once and is tried again after an asynchronous pause,
 * for up to BUSY_WAIT_MS in all, then fails as before.
 *
 * Erasure leaves no bytes behind (docs/data-protection.md): secure_delete is on, so SQLite overwrites with zeros
 * the space a deleted or rewritten row leaves (in the table's and its indexes' pages, and whole freed pages);
 * and after an erasure clearErased() copies the write-ahead log into the main file and truncates the log, whose
 * older page images still hold the erased rows.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Db, Param, Row } from './db.js';
import { StoreError } from './errors.js';
import type { Logger } from '../logging/logger.js';
import { silentLogger } from '../logging/logger.js';

export const SQLITE_FILE_NAME = 'care-slack.sqlite';
/** The longest a statement waits for another connection's lock before it fails (as busy_timeout did). */
export const BUSY_WAIT_MS = 5000;
/** The longest the driver itself may wait (synchronously, with the event loop stopped). */
const BUSY_SYNC_MS = 5;

const isBusy = (error: unknown) => typeof (error as { code?: unknown })?.code === 'string' && (error as { code: string }).code.startsWith('SQLITE_BUSY');
const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

type Statement = Database.Statement<unknown[], unknown>;

export function openSqliteDb(dataDir: string, logger: Logger = silentLogger): Db {
  const dir = path.resolve(dataDir);
  const file = path.join(dir, SQLITE_FILE_NAME);
  let raw: Database.Database;
  try {
    ensureDir(dir);
    raw = new Database(file);
    raw.pragma('journal_mode = WAL');
    raw.pragma('synchronous = NORMAL');
    raw.pragma('foreign_keys = ON');
    // Deleted and overwritten content is zeroed on the page, not left for VACUUM (erasure: see the header).
    raw.pragma('secure_delete = ON');
    // A few milliseconds at most inside the driver; longer waits are asynchronous (see busy()).
    raw.pragma(`busy_timeout = ${BUSY_SYNC_MS}`);
  } catch (cause) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    throw new StoreError('unreachable', `Cannot open the SQLite database at ${file} (${reason}). Check that DATA_DIR points at a writable directory.`, {
      cause,
    });
  }
  return new SqliteDb(raw, logger);
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

  constructor(
    private readonly raw: Database.Database,
    private readonly logger: Logger,
  ) {
    // The view a transaction body gets: same connection, no waiting on the gate.
    this.direct = {
      kind: 'sqlite',
      all: async <R extends Row>(sql: string, params: readonly Param[] = []) => this.allNow<R>(sql, params),
      get: async <R extends Row>(sql: string, params: readonly Param[] = []) => this.allNow<R>(sql, params)[0],
      run: async (sql: string, params: readonly Param[] = []) => this.runNow(sql, params),
      transaction: async <T>(fn: (tx: Db) => Promise<T>) => fn(this.direct),
      exec: async (sql: string) => void this.raw.exec(sql),
      // Not inside a transaction: the log cannot be checkpointed while this connection is writing to it.
      clearErased: async () => false,
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

  /**
   * Run `now` outside any transaction of ours (waiting for the gate, then the check and the statement in
   * one turn); while another connection holds the lock, try again after a pause, up to BUSY_WAIT_MS.
   */
  private async busy<T>(now: () => T): Promise<T> {
    const deadline = performance.now() + BUSY_WAIT_MS;
    for (let wait = 2; ; wait = Math.min(wait * 2, 50)) {
      while (this.gate) await this.gate;
      try {
        return now();
      } catch (error) {
        if (!isBusy(error) || performance.now() >= deadline) throw error;
      }
      await pause(wait);
    }
  }

  async all<R extends Row = Row>(sql: string, params: readonly Param[] = []): Promise<R[]> {
    return this.busy(() => this.allNow<R>(sql, params));
  }

  async get<R extends Row = Row>(sql: string, params: readonly Param[] = []): Promise<R | undefined> {
    return (await this.all<R>(sql, params))[0];
  }

  async run(sql: string, params: readonly Param[] = []): Promise<number> {
    return this.busy(() => this.runNow(sql, params));
  }

  async exec(sql: string): Promise<void> {
    return this.busy(() => {
      if (this.closed) throw new StoreError('closed', 'The store is closed; open a new one with openStore().');
      this.raw.exec(sql);
    });
  }

  /**
   * wal_checkpoint(TRUNCATE): every page of the log copied into the main file, then the log cut to zero bytes.
   * It cannot finish while another connection (another process) reads an older snapshot: tried again after a
   * pause, up to BUSY_WAIT_MS; then the operator is told, and the log keeps those pages until the next erasure,
   * a later checkpoint that empties it, or the last connection's close (which deletes it).
   */
  async clearErased(): Promise<boolean> {
    const deadline = performance.now() + BUSY_WAIT_MS;
    for (let wait = 2; ; wait = Math.min(wait * 2, 50)) {
      while (this.gate) await this.gate;
      if (this.closed) throw new StoreError('closed', 'The store is closed; open a new one with openStore().');
      let busy: boolean;
      try {
        const [result] = this.raw.pragma('wal_checkpoint(TRUNCATE)') as { busy: number }[];
        busy = result?.busy !== 0;
      } catch (error) {
        if (!isBusy(error)) throw error;
        busy = true;
      }
      if (!busy) return true;
      if (performance.now() >= deadline) {
        this.logger.warn(
          'the SQLite write-ahead log could not be emptied after an erasure: another connection kept reading it; erased rows stay in that file until it is (at the next erasure, or when the app stops)',
        );
        return false;
      }
      await pause(wait);
    }
  }

  /** BEGIN IMMEDIATE (the write lock), waiting asynchronously while another connection holds it. */
  private async begin(): Promise<void> {
    const deadline = performance.now() + BUSY_WAIT_MS;
    for (let wait = 2; ; wait = Math.min(wait * 2, 50)) {
      try {
        this.raw.exec('BEGIN IMMEDIATE');
        return;
      } catch (error) {
        if (!isBusy(error) || performance.now() >= deadline) throw error;
      }
      await pause(wait);
    }
  }

  async transaction<T>(fn: (tx: Db) => Promise<T>): Promise<T> {
    while (this.gate) await this.gate;
    if (this.closed) throw new StoreError('closed', 'The store is closed; open a new one with openStore().');
    // No await between the loop above and taking the gate.
    let release!: () => void;
    this.gate = new Promise<void>((resolve) => (release = resolve));
    try {
      await this.begin();
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
