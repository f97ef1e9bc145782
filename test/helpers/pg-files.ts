/**
 * PostgreSQL's own files for tests: which files of the data directory hold a schema's tables (each table's
 * heap, its TOAST table and every index of both), and which of them contain some bytes. Reading them needs the
 * server on this machine and a user allowed to read its data directory (the tests run as root here and in CI);
 * `unreadable` says why not otherwise, so a test can skip with that reason.
 */
import { access, readFile } from 'node:fs/promises';
import { constants } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';

export interface RelationFile {
  table: string;
  relation: string;
  /** The relation's first segment; `.1`, `.2`… follow past 1 GB. */
  path: string;
}

async function query<T>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as T[];
  } finally {
    await client.end();
  }
}

/** Run statements as they are (VACUUM cannot run inside a transaction block), in this schema. */
export async function runInSchema(url: string, schema: string, statements: string[]): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    await client.query(`SET search_path TO "${schema}"`);
    for (const sql of statements) await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Why the data directory's files cannot be read from here, or null when they can (CHECKPOINT needs a superuser). */
export async function unreadable(url: string): Promise<string | null> {
  const [row] = await query<{ dir: string; superuser: string }>(
    url,
    "SELECT current_setting('data_directory') AS dir, current_setting('is_superuser') AS superuser",
  );
  const { dir, superuser } = row!;
  if (superuser !== 'on') return 'the test database user is not a superuser (CHECKPOINT and data_directory need one)';
  try {
    await access(join(dir, 'global', 'pg_control'), constants.R_OK);
    return null;
  } catch {
    return `PostgreSQL's data directory (${dir}) is not readable from this process (another machine, or another user)`;
  }
}

/** Every file of every table of the schema: heap, TOAST and indexes, as pg_relation_filepath names them. */
export async function relationFiles(url: string, schema: string): Promise<RelationFile[]> {
  const [setting] = await query<{ dir: string }>(url, "SELECT current_setting('data_directory') AS dir");
  const dir = setting!.dir;
  const rows = await query<{ table_name: string; relation: string; path: string | null }>(
    url,
    `SELECT t.relname AS table_name, r.relname AS relation, pg_relation_filepath(r.oid) AS path
       FROM pg_class t JOIN pg_namespace n ON n.oid = t.relnamespace
       JOIN pg_class r ON r.oid = t.oid OR (t.reltoastrelid <> 0 AND r.oid = t.reltoastrelid)
         OR r.oid IN (SELECT indexrelid FROM pg_index WHERE indrelid = t.oid OR (t.reltoastrelid <> 0 AND indrelid = t.reltoastrelid))
      WHERE n.nspname = $1 AND t.relkind = 'r'`,
    [schema],
  );
  return rows.filter((r) => r.path).map((r) => ({ table: r.table_name, relation: r.relation, path: join(dir, r.path!) }));
}

/** Flush every dirty page to the files (superuser), so what is read from disk is what the database holds. */
export const checkpoint = (url: string) => query(url, 'CHECKPOINT');

/** The files (of `files`) whose bytes contain `value`, segments included. */
export async function filesContaining(files: readonly RelationFile[], value: string): Promise<RelationFile[]> {
  const needle = Buffer.from(value, 'utf8');
  const found: RelationFile[] = [];
  for (const f of files) {
    for (let segment = 0; ; segment++) {
      const bytes = await readFile(segment === 0 ? f.path : `${f.path}.${segment}`).catch(() => null);
      if (!bytes) break;
      if (bytes.includes(needle)) {
        found.push(f);
        break;
      }
    }
  }
  return found;
}
