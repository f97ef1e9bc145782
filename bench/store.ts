/**
 * Delivery-claim throughput and latency on each store implementation.
 *   npx tsx bench/store.ts
 * PostgreSQL is used when TEST_DATABASE_URL or DATABASE_URL is a postgres:// URL
 * (tables go into a throw-away schema that is dropped afterwards); else skipped.
 * Targets: >= 2,000 claims/s on SQLite, >= 500/s on PostgreSQL.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import type { OpenedStore } from '../src/store/index.js';
import { isPostgresUrl, openStore } from '../src/store/index.js';

interface Row {
  store: string;
  mode: string;
  claims: number;
  perSecond: number;
  p50: number;
  p99: number;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

/** `count` claims of new deliveries, `inFlight` at a time. */
async function run(store: OpenedStore, label: string, count: number, inFlight: number, prefix: string): Promise<Row> {
  const latencies: number[] = [];
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      const t0 = performance.now();
      const r = await store.claimDelivery(
        { kind: 'completion', actionId: `${prefix}-${i}`, occurrence: '2025-01-06T09:00:00Z', recipient: 'user:T1/U1' },
        { holder: 'bench', staleAfterMs: 60_000 },
      );
      latencies.push(performance.now() - t0);
      if (r.outcome !== 'claimed') throw new Error(`unexpected outcome ${r.outcome}`);
    }
  };
  const start = performance.now();
  await Promise.all(Array.from({ length: inFlight }, worker));
  const seconds = (performance.now() - start) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    store: label,
    mode: inFlight === 1 ? 'one at a time' : `${inFlight} in flight`,
    claims: count,
    perSecond: count / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
  };
}

async function bench(store: OpenedStore, label: string, count: number): Promise<Row[]> {
  await run(store, label, 300, 1, 'warm'); // prepare statements, warm caches
  return [await run(store, label, count, 1, 'seq'), await run(store, label, count, 16, 'par')];
}

const rows: Row[] = [];
const notes: string[] = [];

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'store-bench-'));
try {
  const sqlite = await openStore({ dataDir: dir });
  rows.push(...(await bench(sqlite, 'SQLite', 10_000)));
  await sqlite.close();
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}

const url = [process.env.TEST_DATABASE_URL, process.env.DATABASE_URL].find((u) => u && isPostgresUrl(u));
if (url) {
  const schema = `bench_${randomBytes(5).toString('hex')}`;
  const store = await openStore({ databaseUrl: url, schema, poolSize: 16 });
  try {
    rows.push(...(await bench(store, 'PostgreSQL', 3_000)));
  } finally {
    await store.close();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await client.end();
  }
} else {
  notes.push('PostgreSQL skipped: neither TEST_DATABASE_URL nor DATABASE_URL is a postgres:// URL.');
}

const fmt = (n: number, digits = 2) => n.toFixed(digits);
console.log('| store | mode | claims | claims/s | p50 ms | p99 ms |');
console.log('|---|---|---:|---:|---:|---:|');
for (const r of rows) console.log(`| ${r.store} | ${r.mode} | ${r.claims} | ${fmt(r.perSecond, 0)} | ${fmt(r.p50)} | ${fmt(r.p99)} |`);
for (const n of notes) console.log(`\n${n}`);
