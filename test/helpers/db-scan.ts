/**
 * Every table of a real database, read past the store: the rows in which any column, read as text, contains a
 * value (a Slack user Id, an email). The tables are listed from the database itself (sqlite_master,
 * information_schema), so a table added later is scanned too.
 */
export type RawQuery = (sql: string, params?: unknown[]) => Promise<Record<string, unknown>[]>;

export interface FoundRow {
  table: string;
  row: Record<string, unknown>;
}

export async function tablesOf(kind: 'sqlite' | 'postgres', raw: RawQuery, schema?: string): Promise<string[]> {
  const rows =
    kind === 'sqlite'
      ? await raw("SELECT name AS table_name FROM sqlite_master WHERE type = 'table' ORDER BY name")
      : await raw("SELECT table_name FROM information_schema.tables WHERE table_schema = ? AND table_type = 'BASE TABLE' ORDER BY table_name", [
          schema ?? 'public',
        ]);
  return rows.map((r) => String(r.table_name));
}

/** The rows of every table that name `value` anywhere (any column, JSON included). */
export async function rowsNaming(kind: 'sqlite' | 'postgres', raw: RawQuery, value: string, schema?: string): Promise<FoundRow[]> {
  const found: FoundRow[] = [];
  for (const table of await tablesOf(kind, raw, schema)) {
    for (const row of await raw(`SELECT * FROM "${table}"`)) {
      const text = JSON.stringify(row, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : Buffer.isBuffer(v) ? v.toString('utf8') : v));
      if (text.includes(value)) found.push({ table, row });
    }
  }
  return found;
}

/** Every row of every table, by table (to compare a workspace's rows before and after). */
export async function everyRow(kind: 'sqlite' | 'postgres', raw: RawQuery, schema?: string): Promise<Record<string, Record<string, unknown>[]>> {
  const out: Record<string, Record<string, unknown>[]> = {};
  for (const table of await tablesOf(kind, raw, schema)) out[table] = await raw(`SELECT * FROM "${table}"`);
  return out;
}

/** Read a SQLite file past the app (read-only, a connection per query: the app keeps its own open). */
export function sqliteRaw(file: string): RawQuery {
  return async (sql, params = []) => {
    const { default: Database } = await import('better-sqlite3');
    const conn = new Database(file, { readonly: true });
    try {
      return conn.prepare(sql).all(...(params as never[])) as Record<string, unknown>[];
    } finally {
      conn.close();
    }
  };
}

/** Read a PostgreSQL schema past the app (`?` placeholders). */
export function postgresRaw(url: string, schema: string): RawQuery {
  return async (sql, params = []) => {
    const { queryInSchema } = await import('./pg.js');
    let n = 0;
    return (
      await queryInSchema(
        url,
        schema,
        sql.replace(/\?/g, () => `$${++n}`),
        params,
      )
    ).rows as Record<string, unknown>[];
  };
}
