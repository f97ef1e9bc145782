/**
 * Notes on actions (issue 33) on each store: writing a note (what a Complete with a note adds), reading one
 * action's notes (History), and the evidence export's worst read: the notes of 20,000 actions, of which 5,000
 * have one or two notes of 200 characters.
 *   npx tsx bench/notes.ts
 * PostgreSQL when TEST_DATABASE_URL or DATABASE_URL is a postgres:// URL (a throw-away schema); else skipped.
 * Measured and reported, never asserted.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import type { OpenedStore } from '../src/store/index.js';
import { isPostgresUrl, openStore } from '../src/store/index.js';

const ACTIONS = 20_000;
const NOTED = 5_000;
const WORDS = 'Gave 2 tablets at 10:05 with water, GP told, family rang back; '.repeat(4).slice(0, 200);
const id = (i: number) => i.toString(16).padStart(24, '0');

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

async function timed<T>(f: () => Promise<T>): Promise<[T, number]> {
  const t0 = performance.now();
  const out = await f();
  return [out, performance.now() - t0];
}

async function bench(store: OpenedStore, label: string): Promise<string[]> {
  const writes: number[] = [];
  for (let i = 0; i < NOTED; i++) {
    for (let n = 0; n < (i % 3 === 0 ? 2 : 1); n++) {
      const [, ms] = await timed(() =>
        store.addNote('T1', { actionId: id(i * 4), verb: n ? 'take' : 'complete', slackUserId: 'U0PRIYA', careUserId: 'c'.repeat(24), text: WORDS }),
      );
      writes.push(ms);
    }
  }
  writes.sort((a, b) => a - b);
  const reads: number[] = [];
  for (let i = 0; i < 500; i++) reads.push((await timed(() => store.listNotes('T1', [id((i * 4) % ACTIONS)])))[1]);
  reads.sort((a, b) => a - b);
  const all = Array.from({ length: ACTIONS }, (_, i) => id(i));
  const [found, exportMs] = await timed(() => store.listNotes('T1', all));
  return [
    `| ${label} | addNote (${writes.length}) | ${writes.length} | ${percentile(writes, 50).toFixed(2)} | ${percentile(writes, 99).toFixed(2)} |`,
    `| ${label} | notesOf one action (History) | 500 | ${percentile(reads, 50).toFixed(2)} | ${percentile(reads, 99).toFixed(2)} |`,
    `| ${label} | notes of ${ACTIONS} actions (evidence export) | 1 (${found.length} notes) | ${exportMs.toFixed(1)} | — |`,
  ];
}

const lines: string[] = [];
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'notes-bench-'));
try {
  const sqlite = await openStore({ dataDir: dir });
  lines.push(...(await bench(sqlite, 'SQLite')));
  await sqlite.close();
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
const url = [process.env.TEST_DATABASE_URL, process.env.DATABASE_URL].find((u) => u && isPostgresUrl(u));
if (url) {
  const schema = `bench_${randomBytes(5).toString('hex')}`;
  const store = await openStore({ databaseUrl: url, schema, poolSize: 4 });
  try {
    lines.push(...(await bench(store, 'PostgreSQL')));
  } finally {
    await store.close();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await client.end();
  }
} else lines.push('PostgreSQL skipped: neither TEST_DATABASE_URL nor DATABASE_URL is a postgres:// URL.');

console.log('| store | what | count | p50 ms | p99 ms |');
console.log('|---|---|---:|---:|---:|');
for (const l of lines) console.log(l);
