/**
 * Many workspaces: 200 Slack workspaces, each connected to its own care
 * account, served by 2 instances on one PostgreSQL.
 *   npx tsx bench/tenants.ts                    (npm run bench:tenants)
 *   BENCH_WORKSPACES=20 npx tsx bench/tenants.ts   (a quick run)
 *   TEST_DATABASE_URL=postgres://… (default postgres://postgres@127.0.0.1:5432/test); a fresh schema, dropped at the end
 *   (BENCH_KEEP_SCHEMA=1 keeps it). BENCH_JOB_CONCURRENCY=n: the instances' jobConcurrency (default the app's, 8).
 *   BENCH_CPU_PROFILE=<file.cpuprofile>: a CPU profile of this process during the digests, and its top files by self time.
 *
 * Everything on loopback in this one process: the sandbox care API (one
 * account per workspace, demo data, 10 req/s per key as in production), the
 * Slack fake (every workspace, post rate limits off), and two instances
 * (`composeMultiApp`, same database and encryption key, their own instance Ids,
 * care clients paced at 10 req/s). Their jobs are not started: the bench makes
 * the ticks the cron would make, on both instances at the same moment, with the
 * same slot. The memory probe is a third instance in a child process
 * (bench/tenants-memory.ts), so that only the app is in its heap.
 *
 * The app's clock is virtual (the sandbox's moves with it): a Tuesday, 07:50 in London.
 * 1. Changes poll: warm-up first. Both instances poll every workspace (the first
 *    poll of each reads its backlog and composes it); the clocks jump 6 minutes (each
 *    action cache takes its start again); each instance alone polls every workspace
 *    once, as after a few minutes of running. Then three idle cycles a minute apart
 *    (07:57, 07:58, 07:59): the poll tick on both instances with the minute's slot,
 *    then the read-cache sync tick on both (as the cron runs it, just after).
 *    Wall time, runs per instance, care API requests per workspace (sandbox stats
 *    per account, by route). Nothing changes in the care accounts meanwhile; the
 *    poll's overlap still re-reads each account's last changes (it reaches back
 *    5 minutes from the newest change seen).
 * 2. Digests: 3 channels per workspace at 08:00 daily. At 08:00:00 both instances
 *    tick `digests` with the 08:00 slot; the time from the tick to each digest's
 *    summary message in the Slack fake (its call log), each instance's share
 *    (the delivery ledger's claims), and that every channel got exactly one.
 * 3. Memory per idle workspace (the probe).
 * Prints a report with the targets, then one JSON line.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { composeMultiApp, type MultiComposedApp } from '../src/compose-multi.js';
import { createLogger } from '../src/logging/logger.js';
import { startSandbox } from '../dev/sandbox/index.js';
import { startSlackFake } from '../dev/slack-fake/index.js';
import type { ProbeConfig, ProbeResult } from './tenants-memory.js';
import {
  benchWorkspace,
  CHANNELS_PER_WORKSPACE,
  channelIdOf,
  DIGEST_AT,
  instanceSettings,
  PEOPLE_PER_WORKSPACE,
  seedWorkspace,
  urlWithSchema,
} from './tenants-fixtures.js';

const N = Math.max(2, Number(process.env.BENCH_WORKSPACES ?? 200));
/** The instances' job concurrency (runs of one kind at once); the app's default (8) when unset. */
const CONCURRENCY = process.env.BENCH_JOB_CONCURRENCY ? Number(process.env.BENCH_JOB_CONCURRENCY) : undefined;
const PG_URL = process.env.TEST_DATABASE_URL?.trim() || 'postgres://postgres@127.0.0.1:5432/test';
const MINUTE = 60_000;
const START = new Date(DIGEST_AT.getTime() - 10 * MINUTE); // 07:50 London
const TARGET = { pollMs: 10_000, pollRequests: 1, digestMs: 60_000, bytesPerWorkspace: 1024 * 1024 };

const progress = (line: string) => process.stderr.write(`[tenants] ${line}\n`);
const secs = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(3)} MB`;
const pct = (x: number) => `${(100 * x).toFixed(0)}%`;
const pass = (ok: boolean) => (ok ? 'PASS' : 'MISS');
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? 0;

/** The app logs of both instances: counted by level, the first few kept (no care data is logged). */
function countingLogger() {
  const counts = { warn: 0, error: 0 };
  const first: string[] = [];
  const logger = createLogger({
    level: 'warn',
    write: (line) => {
      const entry = JSON.parse(line) as { level: 'warn' | 'error'; msg: string };
      counts[entry.level]++;
      if (first.length < 8) first.push(line.slice(0, 400));
    },
  });
  return { logger, counts, first };
}

async function withPg<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Run `work` over 0..n-1, `limit` at a time. */
async function eachIndex(n: number, limit: number, work: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, n) }, async () => {
      while (next < n) await work(next++);
    }),
  );
}

type AccountStats = { total: number; byRoute: Record<string, Record<string, number>> };

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
      // Self time by source file (sampled), the five largest.
      const byFile = new Map<string, number>();
      const self = new Map<number, number>();
      for (const id of profile.samples ?? []) self.set(id, (self.get(id) ?? 0) + 1);
      for (const node of profile.nodes) {
        const where = node.callFrame.url.replace(/^.*\/(node_modules\/[^/]+|src\/[^/]+|bench)\/.*$/, '$1') || `(${node.callFrame.functionName || 'native'})`;
        byFile.set(where, (byFile.get(where) ?? 0) + (self.get(node.id) ?? 0));
      }
      const total = profile.samples?.length ?? 1;
      const top = [...byFile].sort((x, y) => y[1] - x[1]).slice(0, 8);
      return `${file}; self time: ${top.map(([f, n]) => `${f} ${((100 * n) / total).toFixed(0)}%`).join(', ')}`;
    },
  };
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

async function main(): Promise<void> {
  const cleanup: (() => Promise<unknown>)[] = [];
  const report: string[] = [];
  const say = (line = '') => report.push(line);
  try {
    // ---------------------------------------------------------------- set-up
    let t = performance.now();
    const sandbox = await startSandbox({ port: 0, accounts: N, seed: 'demo', controls: true, rateLimit: 10, startTime: START });
    cleanup.push(() => sandbox.stop());
    const sandboxMs = performance.now() - t;
    const control = async (path: string, body?: unknown) => {
      const res = await fetch(`${sandbox.controlsUrl}/${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: { 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      if (!res.ok) throw new Error(`sandbox control ${path}: ${res.status}`);
      return res.json() as Promise<unknown>;
    };
    // The app's clock and the sandbox's, moved together.
    let offsetMs = START.getTime() - Date.now();
    const now = () => new Date(Date.now() + offsetMs);
    const setClock = async (at: Date) => {
      await control('clock', { set: at.toISOString() });
      offsetMs = at.getTime() - Date.now();
    };
    await setClock(START);
    /** Requests each account (= workspace) has had so far, by route (`GET /v1/actions`) and status. */
    const statsByAccount = async () => {
      const out: AccountStats[] = new Array(N);
      await eachIndex(N, 16, async (i) => {
        const res = await fetch(`${sandbox.accounts[i]!.controlsUrl}/stats`);
        if (!res.ok) throw new Error(`sandbox stats: ${res.status}`);
        out[i] = (await res.json()) as AccountStats;
      });
      return out;
    };
    const requestsByAccount = async () => (await statsByAccount()).map((s) => s.total);

    t = performance.now();
    const workspaces = sandbox.accounts.map((account, i) => benchWorkspace(i, account));
    const fake = await startSlackFake({ workspaces, rateLimits: false }); // until the app paces itself (issue 25)
    cleanup.push(() => fake.close());
    const fakeMs = performance.now() - t;

    const schema = `bench_tenants_${randomBytes(4).toString('hex')}`;
    await withPg((c) => c.query(`CREATE SCHEMA "${schema}"`));
    if (!process.env.BENCH_KEEP_SCHEMA) cleanup.push(() => withPg((c) => c.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`)));
    const databaseUrl = urlWithSchema(PG_URL, schema);
    const dataDir = await mkdtemp(join(tmpdir(), 'bench-tenants-'));
    cleanup.push(() => rm(dataDir, { recursive: true, force: true }));
    const key = randomBytes(32);
    const logs = countingLogger();
    const instance = (instanceId: string) =>
      composeMultiApp(
        instanceSettings({
          instanceId,
          databaseUrl,
          dataDir,
          key,
          slackApiUrl: fake.apiUrl,
          now,
          logger: logs.logger,
          jobConcurrency: CONCURRENCY,
          careApiHost: new URL(sandbox.url).host,
        }),
      );
    const a = await instance('bench-a');
    cleanup.push(() => a.stop());
    const b = await instance('bench-b');
    cleanup.push(() => b.stop());
    const instances: [string, MultiComposedApp][] = [
      ['bench-a', a],
      ['bench-b', b],
    ];
    await a.start(0, '127.0.0.1');
    await b.start(0, '127.0.0.1');

    t = performance.now();
    await eachIndex(N, 8, (i) => seedWorkspace(a.store, i, workspaces[i]!, sandbox.url, sandbox.accounts[i]!));
    const seedMs = performance.now() - t;
    progress(`set up: sandbox ${N} accounts ${secs(sandboxMs)}, Slack fake ${N} workspaces ${secs(fakeMs)}, store rows ${secs(seedMs)}`);

    // ---------------------------------------------------------------- 1. the changes poll
    const idle = () => Promise.all(instances.flatMap(([, app]) => [...app.registry.composed().values()].map((w) => w.reads.idle())));
    /** One minute's poll as the cron makes it on both instances: the poll tick, then the read-cache sync tick. */
    const cycle = async (slot: number, pollers = instances) => {
      const before = await statsByAccount();
      const t0 = performance.now();
      const elu0 = performance.eventLoopUtilization();
      const polls = await Promise.all(pollers.map(async ([, app]) => ({ ...(await app.jobs.tick('changes-poll', { slot })), ms: performance.now() - t0 })));
      const pollMs = performance.now() - t0;
      const pollElu = performance.eventLoopUtilization(elu0).utilization;
      await idle();
      const afterPoll = await statsByAccount();
      const syncs = await Promise.all(instances.map(([, app]) => app.jobs.tick('read-cache-sync')));
      await idle();
      const afterSync = await statsByAccount();
      return {
        pollMs,
        pollElu,
        polls,
        syncs,
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
    const sum = (xs: number[]) => xs.reduce((x, y) => x + y, 0);

    const warm1 = await cycle(slotOf(now()));
    progress(
      `warm-up 1 (first poll of each workspace, workspaces composed): ${secs(warm1.pollMs)}, ${sum(warm1.pollRequests)} + ${sum(warm1.syncRequests)} requests`,
    );
    await setClock(new Date(START.getTime() + 6 * MINUTE));
    // Each instance polls every workspace once, as after a few minutes of running: each has worked the
    // completions still inside the poll's overlap (once per instance, see completion-notices.ts).
    const warm2 = [await cycle(slotOf(now()), [instances[0]!]), await cycle(slotOf(now()) + 1, [instances[1]!])];
    progress(
      `warm-up 2 (after the 6-minute jump, each instance polls every workspace): ${warm2.map((w) => `${secs(w.pollMs)}, ${sum(w.pollRequests)} + ${sum(w.syncRequests)} requests`).join('; ')}`,
    );
    const idleCycles: Awaited<ReturnType<typeof cycle>>[] = [];
    for (const minute of [7, 8, 9]) {
      await setClock(new Date(START.getTime() + minute * MINUTE));
      const c = await cycle(slotOf(now()));
      idleCycles.push(c);
      progress(
        `idle cycle 07:5${minute}: poll ${secs(c.pollMs)}, ran ${c.polls.map((p) => p.ran).join('+')}, requests ${sum(c.pollRequests)} ${JSON.stringify(c.pollRoutes)} + sync ${sum(c.syncRequests)} ${JSON.stringify(c.syncRoutes)}`,
      );
    }

    // ---------------------------------------------------------------- 2. the 08:00 digests
    const digestChannels = new Set(workspaces.flatMap((_, i) => Array.from({ length: CHANNELS_PER_WORKSPACE }, (_, c) => channelIdOf(i, c + 1))));
    const careBefore = sum(await requestsByAccount());
    await setClock(DIGEST_AT);
    const tick0 = Date.now();
    const profiler = process.env.BENCH_CPU_PROFILE ? await startProfile() : undefined;
    const t0 = performance.now();
    const digestElu0 = performance.eventLoopUtilization();
    const ticks = await Promise.all(
      instances.map(async ([, app]) => ({ ...(await app.jobs.tick('digests', { slot: DIGEST_AT.getTime() })), ms: performance.now() - t0 })),
    );
    const digestTickMs = performance.now() - t0;
    const digestElu = performance.eventLoopUtilization(digestElu0).utilization;
    if (profiler) progress(`CPU profile of the digests: ${await profiler.stop(process.env.BENCH_CPU_PROFILE!)}`);
    const digestCare = sum(await requestsByAccount()) - careBefore;
    // Each digest's summary (its thread's parent): when the fake had it.
    const latencies: number[] = [];
    let parts = 0;
    let slackCalls = 0;
    let duplicates = 0;
    let missing = 0;
    for (const w of workspaces) {
      const team = fake.workspace(w.team.id);
      const calls = team.calls();
      slackCalls += calls.filter((c) => c.at >= tick0).length;
      const posts = calls.filter((c) => c.method === 'chat.postMessage' && c.at >= tick0 && c.result.ok === true && digestChannels.has(String(c.args.channel)));
      const parents = new Map<string, number>();
      for (const p of posts) {
        if (p.args.thread_ts) parts++;
        else {
          latencies.push(p.at + p.durationMs - tick0);
          parents.set(String(p.args.channel), (parents.get(String(p.args.channel)) ?? 0) + 1);
        }
      }
      for (const ch of w.channels) {
        const n = parents.get(ch.id) ?? 0;
        if (n > 1) duplicates += n - 1;
        if (n === 0) missing++;
      }
    }
    latencies.sort((x, y) => x - y);
    const ledger = (await a.store.listDeliveries({ kind: 'digest', limit: 10_000 })).filter((d) => d.occurrence === '2027-06-15');
    const share = new Map<string, number>();
    for (const d of ledger) if (d.state === 'sent') share.set(d.claimedBy ?? '?', (share.get(d.claimedBy ?? '?') ?? 0) + 1);
    const expectedDigests = N * CHANNELS_PER_WORKSPACE;
    const lastMs = latencies.at(-1) ?? Number.NaN;
    progress(`digests: ${latencies.length} posted, last ${secs(lastMs)} after the tick`);

    // ---------------------------------------------------------------- 2b. a quiet quarter hour after the digests
    // Nobody reads anything: after 10 minutes without a read on an instance, its read caches stop following
    // the feed (change-sync.ts dormantAfterMs), so an idle workspace costs its poll alone.
    const quiet: Awaited<ReturnType<typeof cycle>>[] = [];
    for (const minute of [1, 12, 13]) {
      await setClock(new Date(DIGEST_AT.getTime() + minute * MINUTE));
      const c = await cycle(slotOf(now()));
      quiet.push(c);
      progress(
        `quiet cycle 08:${String(minute).padStart(2, '0')}: poll ${sum(c.pollRequests)} ${JSON.stringify(c.pollRoutes)} + sync ${sum(c.syncRequests)} requests`,
      );
    }
    const quietLast = quiet.at(-1)!;
    const quietFull = perWorkspaceOf(quietLast.pollRequests.map((n, i) => n + quietLast.syncRequests[i]!));

    // ---------------------------------------------------------------- 3. memory per idle workspace
    progress('memory probe: a third instance in a child process composes and polls every workspace');
    const probe = await runProbe({
      databaseUrl,
      dataDir,
      key: key.toString('base64'),
      slackApiUrl: fake.apiUrl,
      careApiHost: new URL(sandbox.url).host,
      offsetMs,
      teamIds: workspaces.map((w) => w.team.id),
    });
    const others = probe.workspaces - 1;
    const perComposed = (probe.allComposed.heapUsed - probe.oneWorkspace.heapUsed) / others;
    const perIdle = (probe.allIdle.heapUsed - probe.oneWorkspace.heapUsed) / others;
    const perIdleExternal = (probe.allIdle.external - probe.oneWorkspace.external) / others;
    const perIdleRss = (probe.allIdle.rss - probe.oneWorkspace.rss) / others;

    // ---------------------------------------------------------------- report
    const worst = idleCycles.reduce((x, y) => (y.pollMs > x.pollMs ? y : x));
    const perWorkspace = perWorkspaceOf;
    const pollReq = idleCycles.map((c) => perWorkspace(c.pollRequests));
    const fullReq = idleCycles.map((c) => perWorkspace(c.pollRequests.map((n, i) => n + c.syncRequests[i]!)));
    const pollOk = worst.pollMs < TARGET.pollMs && idleCycles.every((c) => sum(c.polls.map((p) => p.ran)) === N && sum(c.polls.map((p) => p.failed)) === 0);
    const requestsOk = pollReq.every((r) => r.max <= TARGET.pollRequests && r.min >= 1);
    const digestsOk = latencies.length === expectedDigests && duplicates === 0 && missing === 0 && lastMs < TARGET.digestMs;
    const memoryOk = perIdle < TARGET.bytesPerWorkspace;

    say(`# Many workspaces: ${N} Slack workspaces, ${N} care accounts, 2 instances on PostgreSQL`);
    say(
      `All on loopback in one process (sandbox care API: ${N} accounts, demo data, 10 req/s per key; Slack fake: ${N} workspaces × ${CHANNELS_PER_WORKSPACE} channels, ${PEOPLE_PER_WORKSPACE} people; PostgreSQL schema ${schema}); the memory probe is a third instance in a child process.`,
    );
    say(
      `Set-up: sandbox ${secs(sandboxMs)}, Slack fake ${secs(fakeMs)}, store rows (installation, care connection, 3 digests each) ${secs(seedMs)}. Job concurrency per instance: ${CONCURRENCY ?? '8 (default)'}. Cores: ${cpus().length}, shared with other work.`,
    );
    say();
    say('## Changes poll (ticks on both instances at once, same slot)');
    say(
      `Warm-up 1 (each workspace composed, first poll reads its backlog): ${secs(warm1.pollMs)}; care requests: poll ${sum(warm1.pollRequests)}, read-cache sync ${sum(warm1.syncRequests)}`,
    );
    for (const [k, w] of warm2.entries()) {
      say(
        `Warm-up 2${'ab'[k]} (clocks +6 min; instance ${'ab'[k]} alone polls every workspace): ${secs(w.pollMs)}; care requests: poll ${sum(w.pollRequests)}, read-cache sync ${sum(w.syncRequests)}`,
      );
    }
    for (const [k, c] of idleCycles.entries()) {
      const r = pollReq[k]!;
      const f = fullReq[k]!;
      say(
        `Idle cycle ${k + 1}: poll tick wall ${secs(c.pollMs)} (a ${secs(c.polls[0]!.ms)}, b ${secs(c.polls[1]!.ms)}; this process's event loop busy ${pct(c.pollElu)}); ran a ${c.polls[0]!.ran} / b ${c.polls[1]!.ran}, skipped ${c.polls[0]!.skipped}/${c.polls[1]!.skipped}, failed ${c.polls[0]!.failed + c.polls[1]!.failed}; ` +
          `care requests per workspace by the poll: mean ${r.mean.toFixed(2)}, min ${r.min}, max ${r.max} (${r.ones}/${N} exactly 1); ` +
          `with the read-cache sync tick after it: mean ${f.mean.toFixed(2)}, max ${f.max}`,
      );
    }
    say(
      `Quiet after the digests (nobody reads; clocks 08:01, 08:12, 08:13): care requests per workspace for a whole minute (poll + read-cache sync on both instances) ` +
        `${quiet
          .map((c) => (sum(c.pollRequests) + sum(c.syncRequests)) / N)
          .map((x) => x.toFixed(2))
          .join(', ')}; at 08:13: mean ${quietFull.mean.toFixed(2)}, max ${quietFull.max} (${quietFull.ones}/${N} exactly 1)`,
    );
    say();
    say(`## Digests at 08:00 (${expectedDigests} = ${N} workspaces × ${CHANNELS_PER_WORKSPACE} channels)`);
    say(
      `Both ticks resolved after ${secs(digestTickMs)} (a ${secs(ticks[0]!.ms)}, b ${secs(ticks[1]!.ms)}); workspaces run: a ${ticks[0]!.ran}, b ${ticks[1]!.ran}, failed ${ticks[0]!.failed + ticks[1]!.failed}; this process's event loop busy ${pct(digestElu)} of the time (one thread: both instances, the sandbox, the fake)`,
    );
    say(
      `Digests posted: ${latencies.length} (thread replies ${parts}); channels with more than one: ${duplicates}, with none: ${missing}; ledger rows sent: ${ledger.filter((d) => d.state === 'sent').length} of ${ledger.length}`,
    );
    say(`Time from 08:00:00 to each digest: p50 ${secs(percentile(latencies, 50))}, p95 ${secs(percentile(latencies, 95))}, max (the last) ${secs(lastMs)}`);
    say(`Share: ${[...share].map(([holder, n]) => `${holder} ${n} (${((100 * n) / Math.max(1, ledger.length)).toFixed(0)}%)`).join(', ')}`);
    say(`Care requests during the digests: ${digestCare} (${(digestCare / N).toFixed(1)} per workspace); Slack calls: ${slackCalls}`);
    say();
    say('## Memory per idle workspace (third instance, own process, heap after forced GC)');
    say(
      `Heap: one workspace ${mb(probe.oneWorkspace.heapUsed)}, all ${probe.workspaces} composed ${mb(probe.allComposed.heapUsed)}, all composed and polled (idle) ${mb(probe.allIdle.heapUsed)}; polls ran ${probe.polled.ran}, failed ${probe.polled.failed}`,
    );
    say(
      `Per workspace: composed ${mb(perComposed)}, idle ${mb(perIdle)} (care data its caches hold, estimated: ${mb(probe.cacheBytes / probe.workspaces)}, ${Math.round(probe.cacheRecords / probe.workspaces)} actions); ` +
        `external ${mb(perIdleExternal)}, RSS ${mb(perIdleRss)}`,
    );
    say();
    say(`App log (both instances): ${logs.counts.warn} warnings, ${logs.counts.error} errors; probe: ${probe.warnings} warnings, ${probe.errors} errors`);
    for (const line of logs.first) say(`  ${line}`);
    say();
    say('| Target | Measured | Result |');
    say('|---|---|---|');
    say(`| Poll cycle across all workspaces < 10 s | ${secs(worst.pollMs)} (worst of ${idleCycles.length}) | ${pass(pollOk)} |`);
    say(
      `| Care requests per workspace per idle poll = 1 | mean ${(sum(pollReq.map((r) => r.mean)) / pollReq.length).toFixed(2)}, max ${Math.max(...pollReq.map((r) => r.max))} | ${pass(requestsOk)} |`,
    );
    say(
      `| (not a target) a whole idle minute, poll + every instance's cache sync, after 10 min without a read | mean ${quietFull.mean.toFixed(2)}, max ${quietFull.max} (routes: ${JSON.stringify(quietLast.pollRoutes)}) | – |`,
    );
    say(`| Every digest within 60 s of 08:00 (${expectedDigests}, once each) | ${latencies.length} posted, last ${secs(lastMs)} | ${pass(digestsOk)} |`);
    say(`| Memory per idle workspace < 1 MB | ${mb(perIdle)} | ${pass(memoryOk)} |`);
    process.stdout.write(`${report.join('\n')}\n`);
    process.stdout.write(
      `${JSON.stringify({
        bench: 'tenants',
        workspaces: N,
        instances: 2,
        poll: {
          worstMs: Math.round(worst.pollMs),
          cyclesMs: idleCycles.map((c) => Math.round(c.pollMs)),
          eventLoopBusy: idleCycles.map((c) => Number(c.pollElu.toFixed(2))),
          ran: idleCycles.map((c) => c.polls.map((p) => p.ran)),
          requestsPerWorkspace: pollReq,
          withSyncPerWorkspace: fullReq,
          quietMinutePerWorkspace: quietFull,
          pass: { wall: pollOk, requests: requestsOk },
        },
        digests: {
          expected: expectedDigests,
          posted: latencies.length,
          duplicates,
          missing,
          p50Ms: Math.round(percentile(latencies, 50)),
          p95Ms: Math.round(percentile(latencies, 95)),
          lastMs: Math.round(lastMs),
          share: Object.fromEntries(share),
          careRequests: digestCare,
          eventLoopBusy: Number(digestElu.toFixed(2)),
          pass: digestsOk,
        },
        memory: {
          perIdleWorkspaceBytes: Math.round(perIdle),
          perComposedWorkspaceBytes: Math.round(perComposed),
          cacheBytesPerWorkspace: Math.round(probe.cacheBytes / probe.workspaces),
          pass: memoryOk,
        },
      })}\n`,
    );
  } finally {
    for (const undo of cleanup.reverse()) await undo().catch((err: unknown) => progress(`clean-up: ${String(err)}`));
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
