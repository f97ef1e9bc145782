/**
 * PostgreSQL for tests: TEST_DATABASE_URL (CI sets it), and schemas with random
 * names so test files can run in parallel against one database.
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

/**
 * One connection that looks at test schemas and empties them. It stays open: a new connection to PostgreSQL
 * loads its catalog caches again, which costs more than the work itself.
 */
export interface SchemaJanitor {
  /**
   * A fingerprint of a schema's make-up: which tables, columns, defaults, indexes, constraints, triggers,
   * functions and sequences it has, each row of the catalog with the transaction that last wrote it, and the
   * migrations it records. Any DDL (an ALTER, a CREATE or DROP, a TRUNCATE) changes it; rows written or deleted do
   * not, nor does PostgreSQL's own VACUUM or ANALYZE (they update the catalog in place).
   */
  fingerprint(schema: string): Promise<string>;
  /**
   * Delete every row of every table but `schema_migrations`, and start its sequences (ids) again at 1: the
   * schema is then as its migrations left it. Far cheaper than TRUNCATE (new files) on tables this small.
   */
  empty(schema: string): Promise<void>;
  close(): Promise<void>;
}

export function schemaJanitor(url: string): SchemaJanitor {
  let client: Promise<pg.Client> | undefined;
  const connected = () => {
    client ??= (async () => {
      const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
      await c.connect();
      return c;
    })();
    return client;
  };
  const emptying = new Map<string, string>();
  const checked = (schema: string) => {
    if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`not a test schema name: ${schema}`);
    return schema;
  };
  return {
    async fingerprint(schema) {
      const name = checked(schema);
      // The schema's relations are found once (a scan of pg_class), the rest through the catalogs' indexes.
      const result = await (await connected()).query(`
        WITH rel AS MATERIALIZED (SELECT oid, xmin FROM pg_class WHERE relnamespace = '${name}'::regnamespace)
        SELECT string_agg(line, ',' ORDER BY line) AS print FROM (
          SELECT 'relation ' || oid || ' ' || xmin::text AS line FROM rel
          UNION ALL SELECT 'column ' || a.attrelid || '.' || a.attnum || ' ' || a.xmin::text
            FROM rel, LATERAL (SELECT attrelid, attnum, xmin FROM pg_attribute WHERE attrelid = rel.oid) AS a
          UNION ALL SELECT 'default ' || d.oid || ' ' || d.xmin::text FROM rel, LATERAL (SELECT oid, xmin FROM pg_attrdef WHERE adrelid = rel.oid) AS d
          UNION ALL SELECT 'index ' || i.indexrelid || ' ' || i.xmin::text
            FROM rel, LATERAL (SELECT indexrelid, xmin FROM pg_index WHERE indrelid = rel.oid) AS i
          UNION ALL SELECT 'constraint ' || k.oid || ' ' || k.xmin::text
            FROM rel, LATERAL (SELECT oid, xmin FROM pg_constraint WHERE conrelid = rel.oid) AS k
          UNION ALL SELECT 'trigger ' || t.oid || ' ' || t.xmin::text FROM rel, LATERAL (SELECT oid, xmin FROM pg_trigger WHERE tgrelid = rel.oid) AS t
          UNION ALL SELECT 'function ' || oid || ' ' || xmin::text FROM pg_proc WHERE pronamespace = '${name}'::regnamespace
          UNION ALL SELECT 'migration ' || version || ' ' || name FROM "${name}".schema_migrations
        ) AS parts`);
      return String(result.rows[0]?.print);
    },
    async empty(schema) {
      const name = checked(schema);
      const c = await connected();
      let statement = emptying.get(name);
      if (statement === undefined) {
        // Its tables and sequences, found once (the caller empties only a schema whose make-up is unchanged).
        const found = await c.query(`SELECT relname, relkind::text AS kind FROM pg_class WHERE relnamespace = $1::regnamespace AND relkind IN ('r', 'S')`, [
          name,
        ]);
        const of = (kind: string) => found.rows.filter((r) => r.kind === kind && r.relname !== 'schema_migrations').map((r) => `"${name}"."${r.relname}"`);
        const deletes = of('r').map((table) => `DELETE FROM ${table};`);
        const sequences = of('S').map((sequence) => `'${sequence}'::regclass`);
        // One transaction: the deletes (the only triggers a delete fires delete rows of job_due, itself emptied, and
        // find it on the search path), then the sequences that have handed out an id start again.
        statement = `BEGIN; SET LOCAL search_path TO "${name}"; ${deletes.join(' ')}
          SELECT setval(s, 1, false) FROM unnest(ARRAY[${sequences.join(', ')}]::regclass[]) AS s WHERE pg_sequence_last_value(s) IS NOT NULL;
          COMMIT;`;
        emptying.set(name, statement);
      }
      await c.query(statement);
    },
    async close() {
      const c = client;
      client = undefined;
      if (c) await (await c).end();
    },
  };
}
