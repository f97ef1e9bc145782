/**
 * PostgreSQL through a pg Pool. `?` placeholders become $1..$n; BIGINT comes
 * back as a JS number (epoch ms and ids stay well inside 2^53); JSONB comes
 * back parsed. Connection failures become StoreError('unreachable') naming
 * host and port, never the password.
 */
import pg from 'pg';
import type { Logger } from '../logging/logger.js';
import type { Db, Param, Row } from './db.js';
import { StoreError } from './errors.js';

const INT8_OID = 20;
const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

export interface PgOptions {
  url: string;
  /** Tables live in this schema (created by the migrator if missing). Defaults to the server's search_path. */
  schema?: string;
  poolSize?: number;
  /** How long opening one connection may take. Default 5 s. */
  connectTimeoutMs?: number;
  /** How long a query may wait for a free pooled connection when all are busy. Default 30 s. */
  poolWaitTimeoutMs?: number;
  logger: Logger;
}

/** Where we are connecting, for messages: no password. */
export function describeTarget(url: string): string {
  try {
    const u = new URL(url);
    const host = u.hostname || u.searchParams.get('host') || 'localhost';
    const port = u.port || '5432';
    const database = decodeURIComponent(u.pathname.replace(/^\//, '')) || '(default)';
    const user = u.username ? ` as user "${decodeURIComponent(u.username)}"` : '';
    return `${host}:${port} (database "${database}"${user})`;
  } catch {
    return '(an unparseable DATABASE_URL)';
  }
}

const CONNECT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'ETIMEDOUT', 'ECONNRESET', 'EHOSTUNREACH', 'EAI_AGAIN', 'EPIPE']);

export function isConnectionError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (CONNECT_CODES.has(code)) return true;
    if (code.startsWith('08') || code === '28P01' || code === '28000' || code === '3D000' || code === '57P03') return true;
  }
  return /timeout exceeded when trying to connect|Connection terminated/i.test(error.message);
}

export function unreachable(url: string, cause: unknown): StoreError {
  const reason = cause instanceof Error ? cause.message || (cause as { code?: string }).code || cause.name : String(cause);
  return new StoreError(
    'unreachable',
    `Cannot reach PostgreSQL at ${describeTarget(url)}: ${reason}. ` +
      'Check that the server is running and that DATABASE_URL names the right host, port, database and user.',
    { cause },
  );
}

export function quoteSchema(schema: string): string {
  if (!SCHEMA_NAME.test(schema)) {
    throw new StoreError('bad-config', `The PostgreSQL schema name "${schema}" is not allowed: use lower-case letters, digits and _ only.`);
  }
  return `"${schema}"`;
}

export function openPgDb(options: PgOptions): Db & { readonly schema: string | undefined } {
  const { url, schema, logger } = options;
  if (schema !== undefined) quoteSchema(schema);
  const connectTimeoutMs = options.connectTimeoutMs ?? 5000;
  // The pool's connectionTimeoutMillis also limits waiting in its queue, so a
  // burst of queries must not look like an unreachable server: connections
  // get their own (shorter) timeout, the queue a longer one.
  class TimedClient extends pg.Client {
    constructor(config?: string | pg.ClientConfig) {
      super({ ...(typeof config === 'string' ? { connectionString: config } : config), connectionTimeoutMillis: connectTimeoutMs });
    }
  }
  const pool = new pg.Pool({
    Client: TimedClient,
    connectionString: url,
    max: options.poolSize ?? 10,
    connectionTimeoutMillis: Math.max(options.poolWaitTimeoutMs ?? 30_000, connectTimeoutMs),
    idleTimeoutMillis: 30_000,
    ...(schema !== undefined ? { options: `-c search_path=${schema}` } : {}),
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === INT8_OID ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
    },
  });
  // An idle client losing its connection must not crash the process.
  pool.on('error', (error) => logger.warn('postgres pool connection error', { error, target: describeTarget(url) }));
  return new PgDb(pool, url, schema);
}

/** `?` -> `$1`, `$2`, ... (our SQL never has a literal `?`). */
export function numberPlaceholders(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}

type Queryable = Pick<pg.Pool, 'query'> | pg.PoolClient;

class PgDb implements Db {
  readonly kind = 'postgres' as const;
  private closed = false;
  private readonly poolView: Db;
  /** SQL text with `?` -> with `$n`, per instance. */
  private readonly texts = new Map<string, string>();

  constructor(
    private readonly pool: pg.Pool,
    private readonly url: string,
    readonly schema: string | undefined,
  ) {
    this.poolView = this.view(pool, false);
  }

  private check(): void {
    if (this.closed) throw new StoreError('closed', 'The store is closed; open a new one with openStore().');
  }

  private text(sql: string): string {
    let out = this.texts.get(sql);
    if (out === undefined) {
      out = numberPlaceholders(sql);
      if (this.texts.size < 1000) this.texts.set(sql, out);
    }
    return out;
  }

  private async query<R>(q: Queryable, sql: string, params: readonly Param[]): Promise<pg.QueryResult & { rows: R[] }> {
    try {
      return (await q.query(this.text(sql), params as Param[])) as pg.QueryResult & { rows: R[] };
    } catch (error) {
      throw isConnectionError(error) ? unreachable(this.url, error) : error;
    }
  }

  private view(q: Queryable, inTx: boolean): Db {
    return {
      kind: 'postgres',
      all: async <R extends Row>(sql: string, params: readonly Param[] = []) => {
        this.check();
        return (await this.query<R>(q, sql, params)).rows;
      },
      get: async <R extends Row>(sql: string, params: readonly Param[] = []) => {
        this.check();
        return (await this.query<R>(q, sql, params)).rows[0];
      },
      run: async (sql: string, params: readonly Param[] = []) => {
        this.check();
        return (await this.query(q, sql, params)).rowCount ?? 0;
      },
      exec: async (sql: string) => {
        this.check();
        try {
          await q.query(sql);
        } catch (error) {
          throw isConnectionError(error) ? unreachable(this.url, error) : error;
        }
      },
      transaction: async <T>(fn: (tx: Db) => Promise<T>) => (inTx ? fn(this.view(q, true)) : this.transaction(fn)),
      // Nothing the app can do while running: the deployer's VACUUM FULL (docs/data-protection.md).
      clearErased: async () => !inTx,
      close: async () => this.close(),
    };
  }

  all<R extends Row = Row>(sql: string, params?: readonly Param[]): Promise<R[]> {
    return this.poolView.all<R>(sql, params);
  }
  get<R extends Row = Row>(sql: string, params?: readonly Param[]): Promise<R | undefined> {
    return this.poolView.get<R>(sql, params);
  }
  run(sql: string, params?: readonly Param[]): Promise<number> {
    return this.poolView.run(sql, params);
  }
  exec(sql: string): Promise<void> {
    return this.poolView.exec(sql);
  }
  clearErased(): Promise<boolean> {
    return this.poolView.clearErased();
  }

  private async connect(): Promise<pg.PoolClient> {
    this.check();
    try {
      return await this.pool.connect();
    } catch (error) {
      throw unreachable(this.url, error);
    }
  }

  async transaction<T>(fn: (tx: Db) => Promise<T>): Promise<T> {
    const client = await this.connect();
    let broken: Error | undefined;
    try {
      await client.query('BEGIN');
      try {
        const result = await fn(this.view(client, true));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch((e: unknown) => (broken = e instanceof Error ? e : new Error(String(e))));
        throw error;
      }
    } catch (error) {
      if (isConnectionError(error)) {
        broken ??= error as Error;
        throw error instanceof StoreError ? error : unreachable(this.url, error);
      }
      throw error;
    } finally {
      client.release(broken);
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.pool.end();
  }
}
