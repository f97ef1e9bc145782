/**
 * Applies numbered migrations at start-up and records each in
 * schema_migrations. On PostgreSQL everything runs in one transaction under an
 * advisory lock, so instances starting together migrate once; on SQLite in one
 * BEGIN IMMEDIATE transaction. A database newer than this build is refused.
 */
import type { Logger } from '../logging/logger.js';
import type { Db } from './db.js';
import { num } from './db.js';
import { StoreError } from './errors.js';
import type { Migration } from './migrations/index.js';
import { quoteSchema } from './pg-db.js';

/** First key of the advisory lock ('CARE'); the second is a hash of the schema name. */
const LOCK_KEY = 0x43415245;

export interface MigrateOptions {
  migrations: readonly Migration[];
  /** PostgreSQL only: create this schema if missing and migrate inside it. */
  schema?: string;
  now: () => number;
  logger: Logger;
}

export interface MigrateResult {
  /** Version before start-up (0 for a fresh database). */
  from: number;
  /** Version now. */
  to: number;
  applied: number[];
}

export function checkMigrationList(migrations: readonly Migration[]): void {
  migrations.forEach((m, i) => {
    if (m.version !== i + 1) throw new Error(`Migration ${m.name} has version ${m.version}; expected ${i + 1} (no gaps, in order).`);
  });
}

export async function migrate(db: Db, options: MigrateOptions): Promise<MigrateResult> {
  const { migrations, now, logger } = options;
  checkMigrationList(migrations);
  const latest = migrations.length;

  const result = await db.transaction(async (tx) => {
    if (tx.kind === 'postgres') {
      const schema = options.schema;
      await tx.all('SELECT pg_advisory_xact_lock(?, hashtext(?))', [LOCK_KEY, schema ?? '(default)']);
      if (schema !== undefined) {
        await tx.exec(`CREATE SCHEMA IF NOT EXISTS ${quoteSchema(schema)}`);
        await tx.exec(`SET LOCAL search_path TO ${quoteSchema(schema)}`);
      }
      await tx.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)');
    } else {
      await tx.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL) STRICT');
    }
    const row = await tx.get('SELECT MAX(version) AS v FROM schema_migrations');
    const from = row?.v === null || row?.v === undefined ? 0 : num(row.v);
    if (from > latest) {
      throw new StoreError(
        'schema-too-new',
        `The ${db.kind} database is at schema version ${from}, but this build of the app only knows versions up to ${latest}. ` +
          'It was migrated by a newer release: run that release (or a newer one) against it, or point this build at another database.',
      );
    }
    const applied: number[] = [];
    for (const m of migrations.slice(from)) {
      try {
        await tx.exec(tx.kind === 'postgres' ? m.postgres : m.sqlite);
        await tx.run('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)', [m.version, m.name, now()]);
      } catch (cause) {
        const reason = cause instanceof Error ? cause.message : String(cause);
        throw new StoreError(
          'migration-failed',
          `Migration ${String(m.version).padStart(3, '0')}-${m.name} failed on ${db.kind}: ${reason}. ` +
            `Nothing was changed (the database stays at version ${from}); fix the cause and start the app again.`,
          { cause },
        );
      }
      applied.push(m.version);
    }
    return { from, to: from + applied.length, applied };
  });

  if (result.applied.length > 0) logger.info('store migrated', { kind: db.kind, from: result.from, to: result.to });
  return result;
}
