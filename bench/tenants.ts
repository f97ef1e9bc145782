/**
 * Many workspaces: N Slack workspaces (default 200), each connected to its own
 * care account, served by 2 instances on one PostgreSQL, under today's Slack
 * rate limits (the fake's limits on, every workspace a distributed install).
 *   npx tsx bench/tenants.ts                       (npm run bench:tenants)
 *   BENCH_WORKSPACES=20 npx tsx bench/tenants.ts   (a quick run; BENCH_WORKSPACES=1000 for issue 25's size)
 *   TEST_DATABASE_URL=postgres://… (default postgres://postgres@127.0.0.1:5432/test): the bench creates a database
 *   of its own on that server (bench_tenants_<hex>, from template0), so that PostgreSQL's counters for it are the
 *   bench's alone, and drops it at the end (BENCH_KEEP_DB=1 keeps it).
 *   BENCH_JOB_CONCURRENCY=n: the instances' jobConcurrency (default the app's, 8; the digests kind has its own 64).
 *   BENCH_RATE_LIMITS=0: the fake's limits off. BENCH_LEAD_MINUTES (default 40): how long before 08:00 the
 *   world's clock starts. BENCH_CPU_PROFILE=<file.cpuprofile>: a CPU profile of the instances' process during
 *   the digests, and its top files by self time.
 * A run takes about 5 minutes at 200 workspaces and 25 at 1,000 on 2 shared cores (warm-up 1 is most of it).
 *
 * Three processes on loopback:
 * - the doubles (bench/tenants-doubles.ts, a child with an IPC channel): the sandbox care API (one account per
 *   workspace, demo data, 10 req/s per key as in production) and the Slack fake (today's tiers per method and
 *   workspace, 1 post/s per conversation with a burst of 3, history and replies 1 a minute per workspace and
 *   15 a page, 429 + Retry-After, all counted). The world's clock is virtual: this process sends its offset
 *   over IPC, the sandbox's clock is set to it and the fake's clock (its rate limits too) reads it.
 * - this process: two instances (`composeMultiApp`, same database and encryption key, their own instance Ids,
 *   care clients paced at 10 req/s, the app's own Slack pacing) and the bench, on one event loop: wall times
 *   are those of both instances sharing one core; CPU time (process.cpuUsage) is reported beside them. Their
 *   jobs are not started: the bench makes the ticks the cron would make, on both instances at the same
 *   moment, with the same slot.
 * - the memory probe (bench/tenants-memory.ts): a third instance, so that only the app is in its heap.
 *
 * The clock: a Tuesday, 07:20 in London (BENCH_LEAD_MINUTES before 08:00).
 * 1. Changes poll. Warm-up 1: both instances poll every workspace (the first poll of each composes it and reads
 *    its backlog; 8 minutes at 1,000 on a loaded machine). Warm-up 2 at 07:54 (it stops if warm-up 1 ran past
 *    07:53): each instance alone polls every workspace once, as after a few minutes of running. Then three
 *    idle minutes (07:55, 07:56, 07:57): the poll tick on both instances with the minute's slot, then the
 *    read-cache sync tick on both (as the cron runs it, just after). By then nobody has read anything for more
 *    than 10 minutes, so the read caches have stopped following the feed (change-sync.ts dormantAfterMs):
 *    an idle workspace as it is in production, its poll alone. Wall time, CPU time, runs per instance, care
 *    API requests per workspace (sandbox stats per account, by route), and PostgreSQL work per workspace per
 *    minute: pg_stat_database of the bench's database (transactions, rows read and written) and
 *    pg_stat_user_tables (scans per table), read 11 s after the work (a backend reports its counts when
 *    idle, up to 10 s late) over the three minutes. pg_stat_statements is not loaded on the test server.
 * 2. Digests: 3 channels per workspace at 08:00 daily. At 08:00:00 both instances tick `digests` with the 08:00
 *    slot. The time from 08:00 to each digest's summary and to the last thread part of any digest (the fake's
 *    call log), CPU time, each instance's share (the ledger's claims), that every channel got exactly one;
 *    if some are not out when the ticks resolve, the next minutes' ticks are made as the cron would (counted).
 * 3. Quiet cycles after the digests (08:01, 08:12, 08:13, or later if the digests ran past them): care
 *    requests of a whole minute, and PostgreSQL work of the 08:13 one.
 * 4. Slack: 429s by method and rule (the fake's counts, exact), 429s left unanswered (the newest call of a
 *    method in a workspace, and conversation for posts, answered 429: it failed for good; plus ledger rows not
 *    sent because of a 429, and app log lines that speak of Slack's rate limit), calls repeated inside a
 *    Retry-After, history reads per workspace per minute (max; the fake keeps the newest 10,000 workspace-minutes).
 * 5. Memory: per idle workspace (the probe: heap after GC with one workspace, then all composed and polled,
 *    their read caches awake) and per instance (this process after GC after warm-up 2, both instances
 *    holding every workspace, less this process before they were made, halved).
 * 6. PostgreSQL size: rows and pg_total_relation_size per table at the end, per workspace.
 * Prints a report with issue 25's targets, then one JSON line. Figures are reported, never asserted.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import pg from 'pg';
import type { Deployment } from '../src/compose.js';
import { composeMultiApp } from '../src/compose-multi.js';
import { createLogger } from '../src/logging/logger.js';
import type { AccountStats, DigestPosts, DoublesConfig, DoublesReady, SlackSummary } from './tenants-doubles.js';
import type { ProbeConfig, ProbeResult } from './tenants-memory.js';
import { CHANNELS_PER_WORKSPACE, DIGEST_AT, instanceSettings, PEOPLE_PER_WORKSPACE, seedWorkspace } from './tenants-fixtures.js';

const N = Math.max(2, Number(process.env.BENCH_WORKSPACES ?? 200));
/** The instances' job concurrency (runs of one kind at once); the app's default (8) when unset. */
const CONCURRENCY = process.env.BENCH_JOB_CONCURRENCY ? Number(process.env.BENCH_JOB_CONCURRENCY) : undefined;
const RATE_LIMITS = process.env.BENCH_RATE_LIMITS !== '0';
const PG_URL = process.env.TEST_DATABASE_URL?.trim() || 'postgres://postgres@127.0.0.1:5432/test';
const MINUTE = 60_000;
/** The world's clock starts this long before the 08:00 digests (07:20 London by default): warm-up 1 must end before 07:53. */
const LEAD_MINUTES = Number(process.env.BENCH_LEAD_MINUTES ?? 40);
const START = new Date(DIGEST_AT.getTime() - LEAD_MINUTES * MINUTE);
/** Warm-up 2 at 07:54, then the idle minutes 07:55, 07:56, 07:57 (two minutes to spare before 08:00). */
const at0800 = (minutes: number) => new Date(DIGEST_AT.getTime() + minutes * MINUTE);
const TARGET = { pollMs: 10_000, pollRequests: 1, digestMs: 120_000, bytesPerWorkspace: 0.5 * 1024 * 1024 };
/** After the 08:00 ticks, at most this many more minutes' digest ticks for what is not out yet. */
const MAX_EXTRA_DIGEST_TICKS = 5;

const progress = (line: string) => process.stderr.write(`[tenants] ${line}\n`);
const secs = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(3)} MB`;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} kB`;
const pct = (x: number) => `${(100 * x).toFixed(0)}%`;
const pass = (ok: boolean) => (ok ? 'PASS' : 'MISS');
const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(', ');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? 0;
const sum = (xs: number[]) => xs.reduce((x, y) => x + y, 0);
/** CPU time (user + system) of a process.cpuUsage() difference, in ms. */
const cpuMs = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1000;

/** The app logs of both instances: counted by level, the first few kept, and those that speak of Slack's rate limit (no care data is logged). */
function countingLogger() {
  const counts = { warn: 0, error: 0, ratelimited: 0 };
  const first: string[] = [];
  const logger = createLogger({
    level: 'warn',
    write: (line) => {
      const entry = JSON.parse(line) as { level: 'warn' | 'error'; msg: string };
      counts[entry.level]++;
      if (/ratelimited|rate.limited/i.test(line) && !/care-api/.test(line)) counts.ratelimited++;
      if (first.length < 8) first.push(line.slice(0, 400));
    },
  });
  return { logger, counts, first };
}

async function withPg<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

const databaseUrlOf = (url: string, database: string) => {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
};

/** PostgreSQL's counters for one database (pg_stat_database). */
type PgCounters = Record<
  'xact_commit' | 'xact_rollback' | 'tup_returned' | 'tup_fetched' | 'tup_inserted' | 'tup_updated' | 'tup_deleted' | 'blks_hit' | 'blks_read',
  number
>;
const PG_COUNTERS = [
  'xact_commit',
  'xact_rollback',
  'tup_returned',
  'tup_fetched',
  'tup_inserted',
  'tup_updated',
  'tup_deleted',
  'blks_hit',
  'blks_read',
] as const;

/** Counters of `database`, read from the server's `postgres` database (so that reading them is not counted) once the backends have reported. */
async function pgCounters(database: string): Promise<PgCounters> {
  // A backend reports its counts when it goes idle, unless it reported less than a second before: then 10 s
  // later (PostgreSQL 15: PGSTAT_MIN_INTERVAL, PGSTAT_IDLE_INTERVAL). Wait that out.
  await sleep(11_000);
  return withPg(databaseUrlOf(PG_URL, 'postgres'), async (c) => {
    await c.query('SELECT pg_stat_clear_snapshot()');
    const { rows } = await c.query(`SELECT ${PG_COUNTERS.join(', ')} FROM pg_stat_database WHERE datname = $1`, [database]);
    const row = rows[0] as Record<string, string>;
    return Object.fromEntries(PG_COUNTERS.map((k) => [k, Number(row[k])])) as PgCounters;
  });
}
/** Scans per table of the bench's database (pg_stat_user_tables): which tables the rows read come from. */
type TableScans = Record<string, { seq_scan: number; seq_tup_read: number; idx_scan: number; idx_tup_fetch: number }>;
async function tableScans(databaseUrl: string): Promise<TableScans> {
  return withPg(databaseUrl, async (c) => {
    const { rows } = await c.query('SELECT relname, seq_scan, seq_tup_read, idx_scan, idx_tup_fetch FROM pg_stat_user_tables');
    return Object.fromEntries(
      (rows as Record<string, string>[]).map((r) => [
        r.relname!,
        { seq_scan: Number(r.seq_scan), seq_tup_read: Number(r.seq_tup_read), idx_scan: Number(r.idx_scan ?? 0), idx_tup_fetch: Number(r.idx_tup_fetch ?? 0) },
      ]),
    );
  });
}
/** Per workspace, the tables that read the most rows between two snapshots. */
function scansLine(a: TableScans, b: TableScans, n: number): string {
  const rows = Object.entries(b).map(([t, x]) => {
    const y = a[t] ?? { seq_scan: 0, seq_tup_read: 0, idx_scan: 0, idx_tup_fetch: 0 };
    return {
      t,
      seq: x.seq_scan - y.seq_scan,
      seqRows: x.seq_tup_read - y.seq_tup_read,
      idx: x.idx_scan - y.idx_scan,
      idxRows: x.idx_tup_fetch - y.idx_tup_fetch,
    };
  });
  return rows
    .filter((r) => r.seq + r.idx > 0)
    .sort((x, y) => y.seqRows + y.idxRows - (x.seqRows + x.idxRows))
    .slice(0, 5)
    .map(
      (r) =>
        `${r.t}: ${(r.seq / n).toFixed(2)} seq scans (${(r.seqRows / n).toFixed(0)} rows), ${(r.idx / n).toFixed(2)} index scans (${(r.idxRows / n).toFixed(0)} rows)`,
    )
    .join('; ');
}
const pgDiff = (a: PgCounters, b: PgCounters): PgCounters => Object.fromEntries(PG_COUNTERS.map((k) => [k, b[k] - a[k]])) as PgCounters;
const pgPer = (d: PgCounters, n: number): PgCounters => Object.fromEntries(PG_COUNTERS.map((k) => [k, Number((d[k] / n).toFixed(2))])) as PgCounters;
const pgLine = (d: PgCounters) =>
  `${d.xact_commit} transactions, rows read ${(d.tup_returned + d.tup_fetched).toFixed(1)} (returned ${d.tup_returned}, fetched ${d.tup_fetched}), written ${(d.tup_inserted + d.tup_updated + d.tup_deleted).toFixed(2)} (ins ${d.tup_inserted}, upd ${d.tup_updated}, del ${d.tup_deleted}), buffers hit ${d.blks_hit}, read ${d.blks_read}`;

/** Requests made between two snapshots, summed over the accounts: `GET /v1/actions 200` -> n. */
function routeDiff(before: AccountStats[], after: AccountStats[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [i, s] of after.entries()) {
    for (const [route, statuses] of Object.entries(s.byRoute)) {
      for (const [status, n] of Object.entries(statuses)) {
        const d = n - (before[i]?.byRoute[route]?.[status] ?? 0);
        if (d) out[`${route} ${status}`] = (out[`${route} ${status}`] ?? 0) + d;
      }
    }
  }
  return out;
}

/** This process's CPU profile (inspector), written as a .cpuprofile; `stop` says where and which files took the most time. */
async function startProfile() {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return {
    async stop(file: string) {
      const { profile } = await session.post('Profiler.stop');
      session.disconnect();
      await writeFile(file, JSON.stringify(profile));
      // Self time by source file (sampled), the largest.
      const byFile = new Map<string, number>();
      const self = new Map<number, number>();
      for (const id of profile.samples ?? []) self.set(id, (self.get(id) ?? 0) + 1);
      for (const node of profile.nodes) {
        const where = node.callFrame.url.replace(/^.*\/(node_modules\/[^/]+|src\/[^/]+|bench)\/.*$/, '$1') || `(${node.callFrame.functionName || 'native'})`;
        byFile.set(where, (byFile.get(where) ?? 0) + (self.get(node.id) ?? 0));
      }
      const total = profile.samples?.length ?? 1;
      const top = [...byFile].sort((x, y) => y[1] - x[1]).slice(0, 10);
      return `${file}; self time: ${top.map(([f, n]) => `${f} ${((100 * n) / total).toFixed(0)}%`).join(', ')}`;
    },
  };
}

/** A forced GC in this process (started without --expose-gc: turned on here), then its memory. */
const gcNow = (() => {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
})();
async function settledMemory(): Promise<NodeJS.MemoryUsage> {
  for (let i = 0; i < 4; i++) {
    gcNow();
    await new Promise((r) => setImmediate(r));
  }
  return process.memoryUsage();
}

function runProbe(config: ProbeConfig): Promise<ProbeResult> {
  const script = fileURLToPath(new URL('./tenants-memory.ts', import.meta.url));
  const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', script], {
    env: { ...process.env, TENANTS_PROBE: JSON.stringify(config) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => {
    out += d.toString();
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => {
      const line = out.trim().split('\n').pop() ?? '';
      if (code === 0 && line.startsWith('{')) resolve(JSON.parse(line) as ProbeResult);
      else reject(new Error(`memory probe exited with ${code}: ${out.slice(-500)}`));
    });
  });
}

/** The doubles' process (bench/tenants-doubles.ts): started, ready, and asked over its IPC channel. */
async function startDoubles(config: DoublesConfig) {
  const script = fileURLToPath(new URL('./tenants-doubles.ts', import.meta.url));
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', script], {
    env: { ...process.env, TENANTS_DOUBLES: JSON.stringify(config) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  let nextId = 1;
  const ready = new Promise<DoublesReady>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => {
      const err = new Error(`the doubles' process exited with ${code}`);
      reject(err);
      for (const w of waiting.values()) w.reject(err);
    });
    child.on('message', (m: { ready?: DoublesReady; id?: number; ok?: boolean; value?: unknown; error?: string }) => {
      if (m.ready) resolve(m.ready);
      else if (m.id !== undefined) {
        const w = waiting.get(m.id);
        waiting.delete(m.id);
        if (m.ok) w?.resolve(m.value);
        else w?.reject(new Error(`doubles: ${m.error}`));
      }
    });
  });
  const ask = <T>(op: string, args: Record<string, unknown> = {}): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const id = nextId++;
      waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
      child.send({ id, op, ...args });
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.disconnect();
      setTimeout(() => child.kill(), 5_000).unref();
    });
  return { ready: await ready, ask, stop, pid: child.pid };
}

async function main(): Promise<void> {
  const cleanup: (() => Promise<unknown>)[] = [];
  const report: string[] = [];
  const say = (line = '') => report.push(line);
  const loads: Record<string, string> = { start: load() };
  try {
    // ---------------------------------------------------------------- set-up
    const baseline = await settledMemory();
    let offsetMs = START.getTime() - Date.now();
    const doubles = await startDoubles({ workspaces: N, startMs: START.getTime(), rateLimits: RATE_LIMITS, appDistribution: 'distributed' });
    cleanup.push(() => doubles.stop());
    const { accounts, workspaces } = doubles.ready;
    const now = () => new Date(Date.now() + offsetMs);
    /** The world's clock: this process's, the sandbox's and the fake's, moved together. */
    const setClock = async (at: Date) => {
      offsetMs = at.getTime() - Date.now();
      await doubles.ask('clock', { offsetMs });
    };
    await setClock(START);
    const statsByAccount = () => doubles.ask<AccountStats[]>('stats');
    const requestsByAccount = async () => (await statsByAccount()).map((s) => s.total);

    const database = `bench_tenants_${randomBytes(4).toString('hex')}`;
    await withPg(PG_URL, (c) => c.query(`CREATE DATABASE "${database}" TEMPLATE template0`));
    if (!process.env.BENCH_KEEP_DB) cleanup.push(() => withPg(PG_URL, (c) => c.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`)));
    const databaseUrl = databaseUrlOf(PG_URL, database);
    const dataDir = await mkdtemp(join(tmpdir(), 'bench-tenants-'));
    cleanup.push(() => rm(dataDir, { recursive: true, force: true }));
    const key = randomBytes(32);
    const logs = countingLogger();
    const careApiHost = new URL(doubles.ready.sandboxUrl).host;
    const instance = (instanceId: string) =>
      composeMultiApp(
        instanceSettings({
          instanceId,
          databaseUrl,
          dataDir,
          key,
          slackApiUrl: doubles.ready.slackApiUrl,
          now,
          logger: logs.logger,
          jobConcurrency: CONCURRENCY,
          careApiHost,
        }),
      );
    const a = await instance('bench-a');
    cleanup.push(() => a.stop());
    const b = await instance('bench-b');
    cleanup.push(() => b.stop());
    const instances: [string, Deployment][] = [
      ['bench-a', a],
      ['bench-b', b],
    ];
    await a.start(0, '127.0.0.1');
    await b.start(0, '127.0.0.1');

    const t = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < N) {
          const i = next++;
          await seedWorkspace(a.store, i, workspaces[i]!, doubles.ready.sandboxUrl, accounts[i]!);
        }
      }),
    );
    const seedMs = performance.now() - t;
    progress(
      `set up: doubles' process (pid ${doubles.pid}): sandbox ${N} accounts ${secs(doubles.ready.sandboxMs)}, Slack fake ${N} workspaces ${secs(doubles.ready.fakeMs)} (rate limits ${RATE_LIMITS ? 'on' : 'off'}, distributed installs); store rows ${secs(seedMs)}; load ${load()}`,
    );

    // ---------------------------------------------------------------- 1. the changes poll
    const idle = () => Promise.all(instances.flatMap(([, app]) => [...app.registry.composed().values()].map((w) => w.reads.idle())));
    /** One minute's poll as the cron makes it on both instances: the poll tick, then the read-cache sync tick. */
    const cycle = async (slot: number, pollers = instances) => {
      const before = await statsByAccount();
      const t0 = performance.now();
      const elu0 = performance.eventLoopUtilization();
      const cpu0 = process.cpuUsage();
      const polls = await Promise.all(pollers.map(async ([, app]) => ({ ...(await app.jobs.tick('changes-poll', { slot })), ms: performance.now() - t0 })));
      const pollMs = performance.now() - t0;
      const pollElu = performance.eventLoopUtilization(elu0).utilization;
      const pollCpuMs = cpuMs(process.cpuUsage(cpu0));
      await idle();
      const afterPoll = await statsByAccount();
      const syncs = await Promise.all(instances.map(([, app]) => app.jobs.tick('read-cache-sync')));
      await idle();
      const afterSync = await statsByAccount();
      return {
        pollMs,
        pollElu,
        pollCpuMs,
        polls,
        syncs,
        load: load(),
        pollRequests: afterPoll.map((s, i) => s.total - before[i]!.total),
        syncRequests: afterSync.map((s, i) => s.total - afterPoll[i]!.total),
        pollRoutes: routeDiff(before, afterPoll),
        syncRoutes: routeDiff(afterPoll, afterSync),
      };
    };
    const slotOf = (d: Date) => Math.floor(d.getTime() / MINUTE) * MINUTE;
    const perWorkspaceOf = (xs: number[]) => ({
      mean: xs.reduce((x, y) => x + y, 0) / xs.length,
      min: Math.min(...xs),
      max: Math.max(...xs),
      ones: xs.filter((n) => n === 1).length,
    });

    const warm1 = await cycle(slotOf(now()));
    progress(
      `warm-up 1 (first poll of each workspace, workspaces composed): ${secs(warm1.pollMs)}, ${sum(warm1.pollRequests)} + ${sum(warm1.syncRequests)} requests; load ${warm1.load}`,
    );
    if (now().getTime() > at0800(-7).getTime()) {
      throw new Error(`warm-up 1 ran until ${now().toISOString()}, past 07:53 London: start earlier (BENCH_LEAD_MINUTES, now ${LEAD_MINUTES})`);
    }
    await setClock(at0800(-6));
    // Each instance polls every workspace once, as after a few minutes of running: each has worked the
    // completions still inside the poll's overlap (once per instance, see completion-notices.ts).
    const warm2 = [await cycle(slotOf(now()), [instances[0]!]), await cycle(slotOf(now()) + 1, [instances[1]!])];
    progress(
      `warm-up 2 (clocks at 07:54, each instance polls every workspace): ${warm2.map((w) => `${secs(w.pollMs)}, ${sum(w.pollRequests)} + ${sum(w.syncRequests)} requests`).join('; ')}`,
    );
    const instancesMemory = await settledMemory();
    // PostgreSQL's counters over the three idle minutes (nothing else uses the bench's database meanwhile).
    const pgBeforeIdle = await pgCounters(database);
    const scansBeforeIdle = await tableScans(databaseUrl);
    const idleCycles: Awaited<ReturnType<typeof cycle>>[] = [];
    for (const minute of [-5, -4, -3]) {
      await setClock(at0800(minute));
      const c = await cycle(slotOf(now()));
      idleCycles.push(c);
      progress(
        `idle cycle 07:${60 + minute}: poll ${secs(c.pollMs)}, ran ${c.polls.map((p) => p.ran).join('+')}, requests ${sum(c.pollRequests)} ${JSON.stringify(c.pollRoutes)} + sync ${sum(c.syncRequests)} ${JSON.stringify(c.syncRoutes)}; load ${c.load}`,
      );
    }
    loads.idle = idleCycles.map((c) => c.load).join(' / ');
    const pgBeforeDigests = await pgCounters(database);
    const scansIdle = scansLine(scansBeforeIdle, await tableScans(databaseUrl), N * idleCycles.length);
    const pgIdleCycles = pgDiff(pgBeforeIdle, pgBeforeDigests);
    progress(`PostgreSQL over the ${idleCycles.length} idle minutes: ${pgLine(pgIdleCycles)}`);

    // ---------------------------------------------------------------- 2. the 08:00 digests
    const slackBefore = await doubles.ask<SlackSummary>('slack', { since: 0 });
    const careBefore = sum(await requestsByAccount());
    if (now().getTime() > DIGEST_AT.getTime()) throw new Error(`the idle minutes ran until ${now().toISOString()}, past 08:00 London`);
    await setClock(DIGEST_AT);
    const tick0 = now().getTime();
    const profiler = process.env.BENCH_CPU_PROFILE ? await startProfile() : undefined;
    const t0 = performance.now();
    const digestElu0 = performance.eventLoopUtilization();
    const digestCpu0 = process.cpuUsage();
    const expectedDigests = N * CHANNELS_PER_WORKSPACE;
    const tickBoth = (slot: number) =>
      Promise.all(instances.map(async ([, app]) => ({ ...(await app.jobs.tick('digests', { slot })), ms: performance.now() - t0 })));
    const ticks = await tickBoth(DIGEST_AT.getTime());
    const digestTickMs = performance.now() - t0;
    loads.digests = load();
    // What is not out when the ticks resolve is left to the next minutes' ticks, as the cron would make them.
    let posts = await doubles.ask<DigestPosts>('digests', { since: tick0 });
    /** Thread parts the ledger has that are not out (a thread cut short is finished by a later tick). */
    const partsPending = async () =>
      (await a.store.listDeliveries({ kind: 'digest-part', limit: 100_000 })).filter((d) => d.occurrence.startsWith('2027-06-15#') && d.state !== 'sent')
        .length;
    const extraTicks: { slot: string; ran: number; failed: number }[] = [];
    while ((posts.missing > 0 || (await partsPending()) > 0) && extraTicks.length < MAX_EXTRA_DIGEST_TICKS) {
      const slot = slotOf(now()) + MINUTE;
      progress(
        `digests: ${posts.missing} channels without a digest, ${await partsPending()} thread parts not out when the ticks resolved; the ${new Date(slot).toISOString().slice(11, 16)} UTC ticks`,
      );
      await sleep(Math.max(0, slot - now().getTime()));
      const more = await tickBoth(slot);
      extraTicks.push({ slot: new Date(slot).toISOString(), ran: sum(more.map((m) => m.ran)), failed: sum(more.map((m) => m.failed)) });
      posts = await doubles.ask<DigestPosts>('digests', { since: tick0 });
    }
    const digestElu = performance.eventLoopUtilization(digestElu0).utilization;
    const digestCpuMs = cpuMs(process.cpuUsage(digestCpu0));
    if (profiler) progress(`CPU profile of the digests: ${await profiler.stop(process.env.BENCH_CPU_PROFILE!)}`);
    const digestCare = sum(await requestsByAccount()) - careBefore;
    const pgDigests = pgDiff(pgBeforeDigests, await pgCounters(database));
    const slackDigests = await doubles.ask<SlackSummary>('slack', { since: tick0 });
    const latencies = posts.latencies;
    const ledger = (await a.store.listDeliveries({ kind: 'digest', limit: 100_000 })).filter((d) => d.occurrence === '2027-06-15');
    const partsLedger = (await a.store.listDeliveries({ kind: 'digest-part', limit: 100_000 })).filter((d) => d.occurrence.startsWith('2027-06-15#'));
    const share = new Map<string, number>();
    for (const d of ledger) if (d.state === 'sent') share.set(d.claimedBy ?? '?', (share.get(d.claimedBy ?? '?') ?? 0) + 1);
    const lastMs = latencies.at(-1) ?? Number.NaN;
    const wholeMs = Math.max(lastMs, posts.lastPartMs);
    progress(
      `digests: ${latencies.length} posted, last summary ${secs(lastMs)}, last thread part ${secs(posts.lastPartMs)} after 08:00; load ${loads.digests}`,
    );

    // ---------------------------------------------------------------- 3. a quiet quarter hour after the digests
    // Nobody reads anything: after 10 minutes without a read on an instance, its read caches stop following
    // the feed (change-sync.ts dormantAfterMs), so an idle workspace costs its poll alone.
    const quiet: Awaited<ReturnType<typeof cycle>>[] = [];
    let pgQuietMinute: PgCounters | undefined;
    let scansQuiet = '';
    for (const minute of [1, 12, 13]) {
      const at = new Date(DIGEST_AT.getTime() + minute * MINUTE);
      if (at.getTime() > now().getTime()) await setClock(at);
      const pg0 = minute === 13 ? await pgCounters(database) : undefined;
      const scans0 = pg0 ? await tableScans(databaseUrl) : undefined;
      const c = await cycle(slotOf(now()));
      const pgDelta = pg0 ? pgDiff(pg0, await pgCounters(database)) : undefined;
      if (pgDelta) pgQuietMinute = pgDelta;
      if (scans0) scansQuiet = scansLine(scans0, await tableScans(databaseUrl), N);
      quiet.push(c);
      progress(
        `quiet cycle 08:${String(minute).padStart(2, '0')}: poll ${secs(c.pollMs)}, ${sum(c.pollRequests)} ${JSON.stringify(c.pollRoutes)} + sync ${sum(c.syncRequests)} requests${pgDelta ? `; PostgreSQL ${pgLine(pgDelta)}` : ''}; load ${c.load}`,
      );
    }
    const quietLast = quiet.at(-1)!;
    const quietFull = perWorkspaceOf(quietLast.pollRequests.map((n, i) => n + quietLast.syncRequests[i]!));
    const slackAll = await doubles.ask<SlackSummary>('slack', { since: 0 });

    // ---------------------------------------------------------------- 4. PostgreSQL size
    const tables = await withPg(databaseUrl, async (c) => {
      const { rows } = await c.query(
        `SELECT c.relname AS name, pg_total_relation_size(c.oid)::bigint AS bytes FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
         WHERE n.nspname = current_schema() AND c.relkind = 'r' ORDER BY 2 DESC`,
      );
      const out: { name: string; bytes: number; rows: number }[] = [];
      for (const r of rows as { name: string; bytes: string }[]) {
        const count = await c.query(`SELECT count(*)::int AS n FROM "${r.name}"`);
        out.push({ name: r.name, bytes: Number(r.bytes), rows: (count.rows[0] as { n: number }).n });
      }
      const size = await c.query('SELECT pg_database_size(current_database())::bigint AS bytes');
      return { tables: out, databaseBytes: Number((size.rows[0] as { bytes: string }).bytes) };
    });

    // ---------------------------------------------------------------- 5. memory per idle workspace
    progress('memory probe: a third instance in a child process composes and polls every workspace');
    const doublesMemory = await doubles.ask<NodeJS.MemoryUsage>('memory');
    const probe = await runProbe({
      databaseUrl,
      dataDir,
      key: key.toString('base64'),
      slackApiUrl: doubles.ready.slackApiUrl,
      careApiHost,
      offsetMs,
      teamIds: workspaces.map((w) => w.team.id),
    });
    loads.end = load();
    const others = probe.workspaces - 1;
    const perComposed = (probe.allComposed.heapUsed - probe.oneWorkspace.heapUsed) / others;
    const perIdle = (probe.allIdle.heapUsed - probe.oneWorkspace.heapUsed) / others;
    const perIdleExternal = (probe.allIdle.external - probe.oneWorkspace.external) / others;
    const perIdleRss = (probe.allIdle.rss - probe.oneWorkspace.rss) / others;
    const perInstance = {
      heapUsed: (instancesMemory.heapUsed - baseline.heapUsed) / 2,
      rss: (instancesMemory.rss - baseline.rss) / 2,
    };

    // ---------------------------------------------------------------- Slack: 429s and history reads
    const limitsAll = slackAll.limits;
    const unanswered = slackAll.unanswered;
    const unansweredByMethod: Record<string, number> = {};
    for (const u of unanswered) unansweredByMethod[u.method] = (unansweredByMethod[u.method] ?? 0) + 1;
    const notSent = [...ledger, ...partsLedger].filter((d) => d.state !== 'sent');
    const notSentRateLimited = notSent.filter((d) => /ratelimited/i.test(d.lastError ?? ''));
    const unansweredTotal = unanswered.length + notSentRateLimited.length;
    const digest429 = slackDigests.limits.limited - slackBefore.limits.limited;

    // ---------------------------------------------------------------- report
    const worst = idleCycles.reduce((x, y) => (y.pollMs > x.pollMs ? y : x));
    const pollReq = idleCycles.map((c) => perWorkspaceOf(c.pollRequests));
    const fullReq = idleCycles.map((c) => perWorkspaceOf(c.pollRequests.map((n, i) => n + c.syncRequests[i]!)));
    const pgIdle = pgPer(pgIdleCycles, N * idleCycles.length);
    const pgQuiet = pgPer(pgQuietMinute!, N);
    const pollOk = worst.pollMs < TARGET.pollMs && idleCycles.every((c) => sum(c.polls.map((p) => p.ran)) === N && sum(c.polls.map((p) => p.failed)) === 0);
    const requestsOk = pollReq.every((r) => r.max <= TARGET.pollRequests && r.min >= 1);
    const digestsOk =
      latencies.length === expectedDigests && posts.duplicates === 0 && posts.missing === 0 && wholeMs < TARGET.digestMs && unansweredTotal === 0;
    const memoryOk = perIdle < TARGET.bytesPerWorkspace;
    const dbPerWorkspace = withDb(tables.tables, N);

    say(`# Many workspaces: ${N} Slack workspaces, ${N} care accounts, 2 instances on PostgreSQL`);
    say(
      `${new Date().toISOString()}. Three processes on loopback: the doubles (sandbox care API: ${N} accounts, demo data, 10 req/s per key; Slack fake: ${N} workspaces × ${CHANNELS_PER_WORKSPACE} channels, ${PEOPLE_PER_WORKSPACE} people, distributed installs, today's rate limits ${RATE_LIMITS ? 'ON' : 'OFF'}); the two instances and the bench; the memory probe (a third instance). PostgreSQL database ${database} (its own, for its counters).`,
    );
    say(
      `Set-up: sandbox ${secs(doubles.ready.sandboxMs)}, Slack fake ${secs(doubles.ready.fakeMs)}, store rows (installation, care connection, 3 digests each) ${secs(seedMs)}. Job concurrency per instance: ${CONCURRENCY ?? '8 (default)'}. Cores: ${cpus().length}, shared with other work. Load average (1, 5, 15 min): start ${loads.start}; idle cycles ${loads.idle}; after the digests ${loads.digests}; end ${loads.end}.`,
    );
    say();
    say('## Changes poll (ticks on both instances at once, same slot)');
    say(
      `Warm-up 1 (each workspace composed, first poll reads its backlog): ${secs(warm1.pollMs)}; care requests: poll ${sum(warm1.pollRequests)}, read-cache sync ${sum(warm1.syncRequests)}`,
    );
    for (const [k, w] of warm2.entries()) {
      say(
        `Warm-up 2${'ab'[k]} (clocks at 07:54; instance ${'ab'[k]} alone polls every workspace): ${secs(w.pollMs)}; care requests: poll ${sum(w.pollRequests)}, read-cache sync ${sum(w.syncRequests)}`,
      );
    }
    for (const [k, c] of idleCycles.entries()) {
      const r = pollReq[k]!;
      const f = fullReq[k]!;
      say(
        `Idle cycle ${k + 1}: poll tick wall ${secs(c.pollMs)} (a ${secs(c.polls[0]!.ms)}, b ${secs(c.polls[1]!.ms)}; the instances' process: event loop busy ${pct(c.pollElu)}, CPU ${secs(c.pollCpuMs)}); ran a ${c.polls[0]!.ran} / b ${c.polls[1]!.ran}, skipped ${c.polls[0]!.skipped}/${c.polls[1]!.skipped}, failed ${c.polls[0]!.failed + c.polls[1]!.failed}; ` +
          `care requests per workspace by the poll: mean ${r.mean.toFixed(2)}, min ${r.min}, max ${r.max} (${r.ones}/${N} exactly 1); ` +
          `with the read-cache sync tick after it: mean ${f.mean.toFixed(2)}, max ${f.max}; load ${c.load}`,
      );
    }
    say(
      `Quiet after the digests (nobody reads; clocks 08:01, 08:12, 08:13): care requests per workspace for a whole minute (poll + read-cache sync on both instances) ` +
        `${quiet
          .map((c) => (sum(c.pollRequests) + sum(c.syncRequests)) / N)
          .map((x) => x.toFixed(2))
          .join(
            ', ',
          )}; at 08:13: mean ${quietFull.mean.toFixed(2)}, max ${quietFull.max} (${quietFull.ones}/${N} exactly 1), poll tick wall ${secs(quietLast.pollMs)}`,
    );
    say();
    say('## PostgreSQL work per workspace per minute (pg_stat_database of the bench database; both instances)');
    say(`Idle cycles (poll + read-cache sync, mean of ${idleCycles.length} minutes): ${pgLine(pgIdle)}`);
    say(`  by table (pg_stat_user_tables, per workspace per minute): ${scansIdle}`);
    say(`Quiet minute 08:13 (after the digests): ${pgLine(pgQuiet)}`);
    say(`  by table: ${scansQuiet}`);
    say(`The digests, per workspace (once a day): ${pgLine(pgPer(pgDigests, N))}`);
    say();
    say(`## Digests at 08:00 (${expectedDigests} = ${N} workspaces × ${CHANNELS_PER_WORKSPACE} channels)`);
    say(
      `Both 08:00 ticks resolved after ${secs(digestTickMs)} (a ${secs(ticks[0]!.ms)}, b ${secs(ticks[1]!.ms)}); workspaces run: a ${ticks[0]!.ran}, b ${ticks[1]!.ran}, failed ${ticks[0]!.failed + ticks[1]!.failed}; later minutes' ticks needed: ${extraTicks.length}${extraTicks.length ? ` ${JSON.stringify(extraTicks)}` : ''}; the instances' process: event loop busy ${pct(digestElu)} of the time, CPU ${secs(digestCpuMs)} (${(digestCpuMs / N).toFixed(0)} ms per workspace)`,
    );
    say(
      `Digests posted: ${latencies.length} (thread replies ${posts.parts}); channels with more than one: ${posts.duplicates}, with none: ${posts.missing}; ledger: summaries sent ${ledger.filter((d) => d.state === 'sent').length} of ${ledger.length}, thread parts sent ${partsLedger.filter((d) => d.state === 'sent').length} of ${partsLedger.length}`,
    );
    say(
      `Time from 08:00:00 to each digest's summary: p50 ${secs(percentile(latencies, 50))}, p95 ${secs(percentile(latencies, 95))}, max ${secs(lastMs)}; to the last thread part of any digest: ${secs(posts.lastPartMs)}`,
    );
    say(`Share: ${[...share].map(([holder, n]) => `${holder} ${n} (${((100 * n) / Math.max(1, ledger.length)).toFixed(0)}%)`).join(', ')}`);
    say(
      `Care requests during the digests: ${digestCare} (${(digestCare / N).toFixed(1)} per workspace); Slack calls: ${JSON.stringify(slackDigests.calls)}; 429s during the digests: ${digest429}`,
    );
    say();
    say(`## Slack (the fake's rate limits ${limitsAll.enabled ? 'on' : 'off'}; the whole run)`);
    say(`429s seen: ${limitsAll.limited} (by method ${JSON.stringify(limitsAll.byMethod)}; by rule ${JSON.stringify(limitsAll.byRule)})`);
    say(
      `429s left unanswered: ${unansweredTotal} (a 429 after which that method${unanswered.length ? '' : ''} and conversation was never answered again: ${unanswered.length} ${JSON.stringify(unansweredByMethod)}; digest ledger rows not sent because of a 429: ${notSentRateLimited.length}; ledger rows not sent at all: ${notSent.length}); app log lines about Slack's rate limit: ${logs.counts.ratelimited}`,
    );
    say(`Calls repeated inside an earlier 429's Retry-After: ${limitsAll.repeatedInsideRetryAfter}`);
    say(
      `History reads (conversations.history + .replies) per workspace per minute: max ${limitsAll.historyMaxPerWorkspaceMinute} (${limitsAll.historyCalls} calls in ${limitsAll.historyWorkspaceMinutes} workspace-minutes)`,
    );
    say(`Slack calls by method and status: ${JSON.stringify(slackAll.calls)}`);
    say();
    say('## Memory');
    say(
      `Per idle workspace (third instance, own process, heap after forced GC): one workspace ${mb(probe.oneWorkspace.heapUsed)}, all ${probe.workspaces} composed ${mb(probe.allComposed.heapUsed)}, all composed and polled (idle) ${mb(probe.allIdle.heapUsed)}; polls ran ${probe.polled.ran}, failed ${probe.polled.failed}`,
    );
    say(
      `Per workspace: composed ${mb(perComposed)}, idle ${mb(perIdle)} (care data its caches hold, estimated: ${mb(probe.cacheBytes / probe.workspaces)}, ${Math.round(probe.cacheRecords / probe.workspaces)} actions); ` +
        `external ${mb(perIdleExternal)}, RSS ${mb(perIdleRss)}`,
    );
    say(
      `Per instance (holding all ${N} workspaces; the instances' process after GC after warm-up 2, less that process before the instances, halved): heap ${mb(perInstance.heapUsed)}, RSS ${mb(perInstance.rss)}; the probe's whole instance, idle: heap ${mb(probe.allIdle.heapUsed)}, RSS ${mb(probe.allIdle.rss)}. The doubles' process: RSS ${mb(doublesMemory.rss)}, heap ${mb(doublesMemory.heapUsed)}`,
    );
    say();
    say(`## PostgreSQL size at the end (database ${mb(tables.databaseBytes)} in all)`);
    say('| Table | Rows | Rows per workspace | pg_total_relation_size | Per workspace |');
    say('|---|---|---|---|---|');
    for (const row of dbPerWorkspace.rows)
      say(`| ${row.name} | ${row.rows} | ${row.perWorkspaceRows.toFixed(2)} | ${kb(row.bytes)} | ${kb(row.perWorkspaceBytes)} |`);
    say(
      `| all tables | ${dbPerWorkspace.rowsTotal} | ${(dbPerWorkspace.rowsTotal / N).toFixed(1)} | ${mb(dbPerWorkspace.bytesTotal)} | ${kb(dbPerWorkspace.bytesTotal / N)} |`,
    );
    say();
    say(`App log (both instances): ${logs.counts.warn} warnings, ${logs.counts.error} errors; probe: ${probe.warnings} warnings, ${probe.errors} errors`);
    for (const line of logs.first) say(`  ${line}`);
    say();
    say('| Target | Measured | Result |');
    say('|---|---|---|');
    say(
      `| Poll cycle across all workspaces < 10 s (1 care request per idle workspace) | ${secs(worst.pollMs)} (worst of ${idleCycles.length}) | ${pass(pollOk)} |`,
    );
    say(
      `| Care requests per workspace per idle poll = 1 | mean ${(sum(pollReq.map((r) => r.mean)) / pollReq.length).toFixed(2)}, max ${Math.max(...pollReq.map((r) => r.max))} | ${pass(requestsOk)} |`,
    );
    say(
      `| (not a target) a whole idle minute, poll + every instance's cache sync, after 10 min without a read | mean ${quietFull.mean.toFixed(2)}, max ${quietFull.max} (routes: ${JSON.stringify(quietLast.pollRoutes)}) | – |`,
    );
    say(
      `| Every 08:00 digest posted within 120 s (${expectedDigests}, once each, thread included), zero 429s left unanswered | ${latencies.length} posted, ${posts.duplicates} twice, last summary ${secs(lastMs)}, last part ${secs(posts.lastPartMs)}; 429s ${limitsAll.limited}, unanswered ${unansweredTotal} | ${pass(digestsOk)} |`,
    );
    say(`| Memory per idle workspace < 0.5 MB | ${mb(perIdle)} | ${pass(memoryOk)} |`);
    process.stdout.write(`${report.join('\n')}\n`);
    process.stdout.write(
      `${JSON.stringify({
        bench: 'tenants',
        at: new Date().toISOString(),
        workspaces: N,
        instances: 2,
        rateLimits: RATE_LIMITS,
        load: loads,
        poll: {
          worstMs: Math.round(worst.pollMs),
          cyclesMs: idleCycles.map((c) => Math.round(c.pollMs)),
          eventLoopBusy: idleCycles.map((c) => Number(c.pollElu.toFixed(2))),
          cpuMs: idleCycles.map((c) => Math.round(c.pollCpuMs)),
          ran: idleCycles.map((c) => c.polls.map((p) => p.ran)),
          requestsPerWorkspace: pollReq,
          withSyncPerWorkspace: fullReq,
          quietMinutePerWorkspace: quietFull,
          pass: { wall: pollOk, requests: requestsOk },
        },
        postgres: { idlePerWorkspaceMinute: pgIdle, quietPerWorkspaceMinute: pgQuiet, digestsPerWorkspace: pgPer(pgDigests, N) },
        digests: {
          expected: expectedDigests,
          posted: latencies.length,
          parts: posts.parts,
          duplicates: posts.duplicates,
          missing: posts.missing,
          p50Ms: Math.round(percentile(latencies, 50)),
          p95Ms: Math.round(percentile(latencies, 95)),
          lastMs: Math.round(lastMs),
          lastPartMs: Math.round(posts.lastPartMs),
          tickMs: Math.round(digestTickMs),
          extraTicks: extraTicks.length,
          share: Object.fromEntries(share),
          careRequests: digestCare,
          eventLoopBusy: Number(digestElu.toFixed(2)),
          cpuMs: Math.round(digestCpuMs),
          pass: digestsOk,
        },
        slack: {
          limited: limitsAll.limited,
          byMethod: limitsAll.byMethod,
          byRule: limitsAll.byRule,
          duringDigests: digest429,
          unanswered: unansweredTotal,
          unansweredByMethod,
          repeatedInsideRetryAfter: limitsAll.repeatedInsideRetryAfter,
          historyMaxPerWorkspaceMinute: limitsAll.historyMaxPerWorkspaceMinute,
          historyCalls: limitsAll.historyCalls,
          calls: slackAll.calls,
        },
        memory: {
          perIdleWorkspaceBytes: Math.round(perIdle),
          perComposedWorkspaceBytes: Math.round(perComposed),
          cacheBytesPerWorkspace: Math.round(probe.cacheBytes / probe.workspaces),
          perInstanceHeapBytes: Math.round(perInstance.heapUsed),
          perInstanceRssBytes: Math.round(perInstance.rss),
          probeInstanceHeapBytes: probe.allIdle.heapUsed,
          probeInstanceRssBytes: probe.allIdle.rss,
          pass: memoryOk,
        },
        database: { bytes: tables.databaseBytes, bytesPerWorkspace: Math.round(dbPerWorkspace.bytesTotal / N), tables: dbPerWorkspace.rows },
      })}\n`,
    );
  } finally {
    for (const undo of cleanup.reverse()) await undo().catch((err: unknown) => progress(`clean-up: ${String(err)}`));
  }
}

/** Each table's rows and bytes, and per workspace. */
function withDb(tables: { name: string; bytes: number; rows: number }[], n: number) {
  const rows = tables.map((t) => ({ ...t, perWorkspaceRows: t.rows / n, perWorkspaceBytes: t.bytes / n }));
  return { rows, rowsTotal: sum(tables.map((t) => t.rows)), bytesTotal: sum(tables.map((t) => t.bytes)) };
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
