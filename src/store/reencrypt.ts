/**
 * Key rotation for the rows already stored: every sealed value under an older
 * key of the ring is opened and sealed again under the primary (first) key.
 * Row by row, each write conditional on the row being as it was read, so a
 * row saved meanwhile is left alone (it was sealed with the primary key
 * anyway). Idempotent: a second run rewrites nothing. Values no key opens are
 * reported, not changed.
 */
import type { KeyRing } from '../crypto/key-ring.js';
import { CARE_CONNECTION_SECRETS, CARE_CONNECTIONS_TABLE } from './care-connections.js';
import type { Ctx } from './db.js';
import { str } from './db.js';
import { isStoreError } from './errors.js';
import { INSTALLATION_SECRETS, INSTALLATIONS_TABLE } from './installations.js';
import { resealValue, ringOf } from './sealed.js';
import type { ReencryptCounts, ReencryptResult } from './workspace-types.js';

interface SealedTable {
  table: typeof INSTALLATIONS_TABLE | typeof CARE_CONNECTIONS_TABLE;
  key: string;
  columns: readonly string[];
}

const TABLES: readonly SealedTable[] = [
  { table: INSTALLATIONS_TABLE, key: 'installation_key', columns: INSTALLATION_SECRETS },
  { table: CARE_CONNECTIONS_TABLE, key: 'workspace_id', columns: CARE_CONNECTION_SECRETS },
];

async function reencryptTable(ctx: Ctx, ring: KeyRing, t: SealedTable, failures: ReencryptResult['failures']): Promise<ReencryptCounts> {
  const counts: ReencryptCounts = { rows: 0, rewritten: 0, current: 0, changedMeanwhile: 0, failed: 0 };
  const rows = await ctx.db.all(`SELECT ${t.key}, ${t.columns.join(', ')} FROM ${t.table} ORDER BY ${t.key}`);
  for (const row of rows) {
    counts.rows++;
    const key = str(row[t.key]);
    const changes: { column: string; from: string; to: string }[] = [];
    try {
      for (const column of t.columns) {
        const to = resealValue(ring, { table: t.table, column, row: key }, row[column]);
        if (to !== null) changes.push({ column, from: str(row[column]), to });
      }
    } catch (error) {
      if (!isStoreError(error, 'secret-unreadable')) throw error;
      counts.failed++;
      failures.push({ table: t.table, row: key, reason: error.message });
      continue;
    }
    if (changes.length === 0) {
      counts.current++;
      continue;
    }
    const changed = await ctx.db.run(
      `UPDATE ${t.table} SET ${changes.map((c) => `${c.column} = ?`).join(', ')}
        WHERE ${t.key} = ? AND ${changes.map((c) => `${c.column} = ?`).join(' AND ')}`,
      [...changes.map((c) => c.to), key, ...changes.map((c) => c.from)],
    );
    if (changed > 0) counts.rewritten++;
    else counts.changedMeanwhile++;
  }
  return counts;
}

/** Rotate every stored secret to the ring's primary key; default ring: the store's own. */
export async function reencryptAll(ctx: Ctx, keyRing?: KeyRing): Promise<ReencryptResult> {
  const ring = keyRing ?? ringOf(ctx, 'Re-encrypting the stored secrets');
  const failures: ReencryptResult['failures'] = [];
  const installations = await reencryptTable(ctx, ring, TABLES[0] as SealedTable, failures);
  const connections = await reencryptTable(ctx, ring, TABLES[1] as SealedTable, failures);
  return { primaryKeyId: ring.primary.id, tables: { slack_installations: installations, care_connections: connections }, failures };
}
