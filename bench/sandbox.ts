/**
 * Sandbox throughput and memory: signed list calls of 100 items, rate limit
 * lifted, over concurrent keep-alive connections (undici Pool) from this
 * process to the sandbox running in a child process. The last column is the
 * sandbox process's own CPU time per request (Linux /proc), which stays
 * meaningful when the client or other load on the machine caps requests/s.
 *
 *   npx tsx bench/sandbox.ts [--seconds 5] [--concurrency 32] [--actions 10000]
 *                            [--only <scenario name part>] [--profile <dir>]  (CPU profile of the sandbox)
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { Pool } from 'undici';
import { authHeaders } from '../src/care/signing.js';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '5' },
    concurrency: { type: 'string', default: '32' },
    actions: { type: 'string', default: '10000' },
    only: { type: 'string' },
    profile: { type: 'string' },
  },
});
const SECONDS = Number(values.seconds);
const CONCURRENCY = Number(values.concurrency);
const ACTIONS = Number(values.actions);

interface Info {
  url: string;
  controlsUrl: string;
  accountId: string;
  apiKey: string;
  apiSecret: string;
}

async function startChild(): Promise<{ info: Info; pid: number | undefined; stop: () => Promise<void> }> {
  const child = spawn(
    process.execPath,
    [
      ...(values.profile ? ['--cpu-prof', '--cpu-prof-dir', values.profile] : []),
      '--import',
      'tsx',
      'dev/sandbox/cli.ts',
      '--port',
      '0',
      '--seed',
      String(ACTIONS),
      '--rate-limit',
      '0',
      '--controls',
      '--log-level',
      'warn',
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`sandbox exited with ${code}`)));
  });
  return {
    info: JSON.parse(line) as Info,
    pid: child.pid,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGINT');
      }),
  };
}

type Params = Record<string, string | string[]>;

interface Scenario {
  name: string;
  params: (i: number) => Params;
}

const ATTRS = ['_id', 'task', 'due', 'completed', 'assigned_to', 'urgent'];
const scenarios: Scenario[] = [
  { name: 'list 100, default sort, page 1-50', params: (i) => ({ attributes: ATTRS, per_page: '100', page: String((i % 50) + 1) }) },
  {
    name: 'list 100, open + sort -due',
    params: (i) => ({ attributes: ATTRS, per_page: '100', page: String((i % 20) + 1), 'filters-completed': 'no', sort_by: ['-due'] }),
  },
  { name: 'list 100, q + urgent filter', params: () => ({ attributes: ATTRS, per_page: '100', 'filters-q': 'review', 'filters-urgent': 'no' }) },
  {
    // A different modified_after each time: no two requests alike, so no response-cache hits.
    name: 'list 100, uncached (unique filters)',
    params: (i) => ({
      attributes: ATTRS,
      per_page: '100',
      'filters-completed': 'no',
      'filters-modified_after': `2000-01-01 00:${String(Math.floor(i / 60) % 60).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}`,
    }),
  },
];

/** The unit of /proc CPU times (USER_HZ, 100 on Linux). */
const CLOCK_TICKS = 100;

/**
 * CPU seconds (user + system) the sandbox process has used so far, from
 * /proc (Linux; undefined elsewhere). Per request, this shows the sandbox's
 * own cost even when the client in this process or other work on the machine
 * limits the request rate.
 */
function cpuSeconds(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    // Fields after the command name (which may contain spaces): state is field 3, utime 14, stime 15.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return undefined;
  }
}
async function run(pool: Pool, origin: string, info: Info, scenario: Scenario, pid?: number) {
  const path = `${new URL(info.url).pathname}/actions`;
  const latencies: number[] = [];
  let done = 0;
  let failures = 0;
  let items = 0;
  const end = performance.now() + SECONDS * 1000;
  const worker = async (w: number) => {
    for (let i = w; performance.now() < end; i += CONCURRENCY) {
      const params = scenario.params(i);
      const query = new URLSearchParams();
      for (const [k, v] of Object.entries(params)) for (const x of Array.isArray(v) ? v : [v]) query.append(k, x);
      const headers = authHeaders({ ...info, method: 'GET', path: 'actions', params, timestamp: Date.now() / 1000 });
      const t = performance.now();
      const res = await pool.request({ origin, path: `${path}?${query}`, method: 'GET', headers });
      const body = (await res.body.json()) as { item_count?: number };
      latencies.push(performance.now() - t);
      if (res.statusCode !== 200) failures++;
      else items += body.item_count ?? 0;
      done++;
    }
  };
  const started = performance.now();
  const cpuBefore = cpuSeconds(pid);
  await Promise.all(Array.from({ length: CONCURRENCY }, (_, w) => worker(w)));
  const elapsed = (performance.now() - started) / 1000;
  const cpuAfter = cpuSeconds(pid);
  const cpuUsPerReq = cpuBefore !== undefined && cpuAfter !== undefined && done > 0 ? ((cpuAfter - cpuBefore) / done) * 1e6 : undefined;
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))] ?? 0;
  return { rps: done / elapsed, done, failures, itemsPerReq: done ? items / done : 0, p50: pct(0.5), p99: pct(0.99), cpuUsPerReq };
}

async function memory(info: Info) {
  const res = await fetch(`${info.controlsUrl}/stats`);
  const stats = (await res.json()) as { total: number; process: { rssBytes: number; heapUsedBytes: number } };
  return stats;
}

const mb = (b: number) => (b / 1024 / 1024).toFixed(1);

async function main() {
  const { info, pid, stop } = await startChild();
  const origin = new URL(info.url).origin;
  const pool = new Pool(origin, { connections: Math.min(CONCURRENCY, 16), pipelining: 1, keepAliveTimeout: 30_000 });
  try {
    const idle = await memory(info);
    // Warm-up: JIT, sorted-order and projection caches.
    await run(pool, origin, info, { ...scenarios[0]!, name: 'warm-up' });
    const rows: string[] = [];
    for (const s of scenarios.filter((x) => !values.only || x.name.includes(values.only as string))) {
      const r = await run(pool, origin, info, s, pid);
      const cpu = r.cpuUsPerReq === undefined ? 'n/a' : r.cpuUsPerReq.toFixed(0);
      rows.push(`| ${s.name} | ${r.rps.toFixed(0)} | ${r.itemsPerReq.toFixed(0)} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${r.failures} | ${cpu} |`);
    }
    const after = await memory(info);
    console.log(
      `\n## Sandbox benchmark (${ACTIONS} actions, ${CONCURRENCY} concurrent requests over ${Math.min(CONCURRENCY, 16)} keep-alive connections, ${SECONDS}s each, node ${process.version})\n`,
    );
    console.log('| scenario | requests/s | items/request | p50 ms | p99 ms | non-200 | sandbox CPU µs/request |');
    console.log('|---|---:|---:|---:|---:|---:|---:|');
    for (const row of rows) console.log(row);
    console.log('\n| sandbox memory | RSS MB | heap used MB |');
    console.log('|---|---:|---:|');
    console.log(`| idle, ${ACTIONS} actions seeded | ${mb(idle.process.rssBytes)} | ${mb(idle.process.heapUsedBytes)} |`);
    console.log(`| after ${after.total} requests | ${mb(after.process.rssBytes)} | ${mb(after.process.heapUsedBytes)} |`);
  } finally {
    await pool.close();
    await stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
