/**
 * PostgreSQL for tests: TEST_DATABASE_URL (CI sets it), and one freshly made
 * schema per test or file so test files can run in parallel against one database.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export const TEST_DATABASE_URL: string | undefined = process.env.TEST_DATABASE_URL?.trim() || undefined;

/** Title of the visible skipped test when PostgreSQL is not configured. */
export const PG_SKIPPED = 'PostgreSQL tests skipped: TEST_DATABASE_URL is not set';

export function randomSchemaName(prefix = 'test'): string {
  return `${prefix}_${randomBytes(6).toString('hex')}`;
}

export interface TestSchema {
  readonly url: string;
  readonly name: string;
  /** DROP SCHEMA ... CASCADE; safe to call twice. */
  drop(): Promise<void>;
}

async function withClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** The database server's clock (leases and claims run on it), in ms since the epoch. */
export async function databaseNowMs(url: string): Promise<number> {
  const res = await withClient(url, (c) => c.query('SELECT FLOOR(EXTRACT(EPOCH FROM clock_timestamp()) * 1000)::BIGINT AS now'));
  return Number(res.rows[0].now);
}

/** Create an empty schema with a random name. */
export async function createTestSchema(url: string, prefix?: string): Promise<TestSchema> {
  const name = randomSchemaName(prefix);
  await withClient(url, (c) => c.query(`CREATE SCHEMA "${name}"`));
  let dropped = false;
  return {
    url,
    name,
    drop: async () => {
      if (dropped) return;
      dropped = true;
      await withClient(url, (c) => c.query(`DROP SCHEMA IF EXISTS "${name}" CASCADE`));
    },
  };
}

/** Run one statement in a schema (for tests that tamper with the database directly). */
export async function queryInSchema(url: string, schema: string, sql: string, params: unknown[] = []): Promise<pg.QueryResult> {
  return withClient(url, async (c) => {
    await c.query(`SET search_path TO "${schema}"`);
    return c.query(sql, params);
  });
}
