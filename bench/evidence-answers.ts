/**
 * The evidence export's reads for its Answers and Staff columns (issue 33), on each store: the answers to 20,000
 * actions, of which 2,000 have two or three answers (one with a note), and which of the 20,000 are marked as needing
 * two staff (200 are). Each read is made once per export.
 *   npx tsx bench/evidence-answers.ts
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
const ANSWERED = 2_000;
const MARKED = 200;
const EPISODE = '2027-06-15 09:00:00';
const id = (i: number) => i.toString(16).padStart(24, '0');

async function timed<T>(f: () => Promise<T>): Promise<[T, number]> {
  const t0 = performance.now();
  const out = await f();
  return [out, performance.now() - t0];
}

async function bench(store: OpenedStore, label: string): Promise<string[]> {
  const at = Date.parse('2027-06-15T09:01:00Z');
  for (let i = 0; i < ANSWERED; i++) {
    const actionId = id(i * 10);
    await store.addEpisodeAnswer('T1', { actionId, episode: EPISODE, slackUserId: 'U0PRIYA', careUserId: null, answer: 'on-it', note: 'Going now', at });
    await store.addEpisodeAnswer('T1', { actionId, episode: EPISODE, slackUserId: 'U0SAM', careUserId: null, answer: 'cant', reason: 'on-break', at: at + 1 });
    if (i % 2) await store.addEpisodeAnswer('T1', { actionId, episode: EPISODE, slackUserId: 'U0OLI', careUserId: null, answer: 'join', at: at + 2 });
  }
  for (let i = 0; i < MARKED; i++) await store.setTwoStaff('T1', id(i * 100), true, 'U0ADMIN');
  const all = Array.from({ length: ACTIONS }, (_, i) => id(i));
  const [answers, answersMs] = await timed(() => store.episodeAnswersOf('T1', all));
  const [marked, markedMs] = await timed(() => store.twoStaffMarked('T1', all));
  const rows = [...answers.values()].reduce((n, l) => n + l.length, 0);
  return [
    `| ${label} | answers of ${ACTIONS} actions (Answers column) | ${answers.size} actions, ${rows} answers | ${answersMs.toFixed(1)} |`,
    `| ${label} | two-staff marks of ${ACTIONS} actions (Staff column) | ${marked.size} marked | ${markedMs.toFixed(1)} |`,
  ];
}

const lines: string[] = [];
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'evidence-answers-bench-'));
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

console.log('| store | what | found | ms |');
console.log('|---|---|---:|---:|');
for (const l of lines) console.log(l);
