/**
 * Care client throughput against a server that enforces 10 req/s per key with
 * 429s and X-CareHQ-RateLimit-* headers.
 *
 *   npx tsx bench/client-throughput.ts            (sandbox if it works, else the test server)
 *   BENCH_SERVER=test npx tsx bench/client-throughput.ts
 *
 * Scenarios (each on a fresh server holding 10,000 actions):
 *   1. alone: iterate all actions, 100 pages of 100, one page at a time;
 *   2. alone, 4 workers listing disjoint pages at once;
 *   3. shared key: as 1 while another program sends 5 req/s on the same key
 *      (a raw signed request loop that never retries);
 *   4. as 3, with the client configured to its share (rateLimitPerSecond 5).
 * The bound is (requests - burst) / rate: what a perfect client could do.
 */
import { Pool } from 'undici';
import { createCareClient, type CareClient, type CareClientStats } from '../src/care/index.js';
import { authHeaders } from '../src/care/signing.js';
import { startCareTestServer } from '../test/helpers/care-test-server.js';

const ACTIONS = 10_000;
const PER_PAGE = 100;
const RATE = 10;
const COMPETITOR_RATE = 5;

interface Credentials {
  accountId: string;
  apiKey: string;
  apiSecret: string;
}
interface BenchServer {
  name: string;
  url: string;
  credentials: Credentials;
  stop(): Promise<void>;
}

/** The one place that picks the server: the real sandbox when it starts, else the test helper. */
async function startBenchServer(): Promise<BenchServer> {
  const choice = process.env.BENCH_SERVER ?? 'auto';
  if (choice !== 'test') {
    try {
      const { startSandbox } = await import('../dev/sandbox/index.js');
      const sandbox = await startSandbox({ port: 0, seed: ACTIONS, rateLimit: RATE });
      return { name: 'sandbox (dev/sandbox)', url: sandbox.url, credentials: sandbox.credentials, stop: () => sandbox.stop() };
    } catch (error) {
      if (choice === 'sandbox') throw error;
      console.error(`sandbox unavailable (${(error as Error).message}); using the test server`);
    }
  }
  const server = await startCareTestServer({ actions: ACTIONS, rateLimit: RATE });
  return { name: 'test server (test/helpers/care-test-server.ts)', url: server.url, credentials: server.credentials, stop: () => server.close() };
}

/** Another program on the same key: signed GETs at a fixed pace, no retries. */
function startCompetitor(server: BenchServer, perSecond: number): { stop(): Promise<{ ok: number; limited: number; other: number }> } {
  const url = new URL(server.url);
  const pool = new Pool(url.origin);
  const counts = { ok: 0, limited: 0, other: 0 };
  let running = true;
  const loop = (async () => {
    const path = `${url.pathname.replace(/\/$/, '')}/actions`;
    while (running) {
      const next = Date.now() + 1_000 / perSecond;
      const params = { per_page: '1' };
      const headers = authHeaders({ ...server.credentials, method: 'GET', path: 'actions', params, timestamp: Date.now() / 1_000 });
      try {
        const res = await pool.request({ method: 'GET', path: `${path}?per_page=1`, headers });
        await res.body.text();
        if (res.statusCode === 200) counts.ok++;
        else if (res.statusCode === 429) counts.limited++;
        else counts.other++;
      } catch {
        counts.other++;
      }
      await new Promise((r) => setTimeout(r, Math.max(0, next - Date.now())));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      await pool.close();
      return counts;
    },
  };
}

interface Result {
  scenario: string;
  items: number;
  seconds: number;
  bound: number;
  stats: CareClientStats;
  other: string;
  server: string;
}

async function iterateAll(client: CareClient): Promise<number> {
  let items = 0;
  for await (const _ of client.actions.iterate({ per_page: PER_PAGE })) items++;
  return items;
}

async function parallelPages(client: CareClient, workers: number): Promise<number> {
  const pages = Math.ceil(ACTIONS / PER_PAGE);
  let next = 1;
  let items = 0;
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (next <= pages) {
        const page = next++;
        const { length } = (await client.actions.list({ page, per_page: PER_PAGE })).items;
        items += length;
      }
    }),
  );
  return items;
}

async function run(
  scenario: string,
  clientRate: number,
  body: (client: CareClient, server: BenchServer) => Promise<{ items: number; other?: string; share?: number }>,
): Promise<Result> {
  const server = await startBenchServer();
  const client = createCareClient({ baseUrl: server.url, ...server.credentials, rateLimitPerSecond: clientRate });
  try {
    const started = performance.now();
    const { items, other, share } = await body(client, server);
    const seconds = (performance.now() - started) / 1_000;
    const stats = client.stats();
    const rate = share ?? RATE;
    const burst = Math.min(clientRate, rate);
    return { scenario, items, seconds, bound: (stats.requests - stats.rateLimited - burst) / rate, stats, other: other ?? '-', server: server.name };
  } finally {
    await client.close();
    await server.stop();
  }
}

async function shared(client: CareClient, server: BenchServer) {
  const competitor = startCompetitor(server, COMPETITOR_RATE);
  const items = await iterateAll(client);
  const other = await competitor.stop();
  return { items, share: RATE - COMPETITOR_RATE, other: `${other.ok} ok, ${other.limited} x 429${other.other ? `, ${other.other} failed` : ''}` };
}

const results: Result[] = [];
results.push(await run('alone, sequential pages', RATE, async (client) => ({ items: await iterateAll(client) })));
results.push(await run('alone, 4 parallel workers', RATE, async (client) => ({ items: await parallelPages(client, 4) })));
results.push(await run(`shared key, other program at ${COMPETITOR_RATE} req/s`, RATE, shared));
results.push(await run(`shared key, other at ${COMPETITOR_RATE} req/s, client set to ${RATE - COMPETITOR_RATE} req/s`, RATE - COMPETITOR_RATE, shared));

const fmt = (n: number, d = 2) => n.toFixed(d);
console.log(`\nCare client throughput: ${ACTIONS} actions, ${PER_PAGE} per page, server limit ${RATE} req/s per key (fixed 1 s window)`);
console.log(`server: ${[...new Set(results.map((r) => r.server))].join(', ')}\n`);
console.log('| scenario | items | wall s | bound s | vs bound | requests | 429s | retries | failed calls | other program |');
console.log('|---|---|---|---|---|---|---|---|---|---|');
for (const r of results) {
  const over = (r.seconds / r.bound - 1) * 100;
  const cells = [
    r.scenario,
    r.items,
    fmt(r.seconds),
    fmt(r.bound, 1),
    `${over >= 0 ? '+' : ''}${fmt(over, 1)}%`,
    r.stats.requests,
    r.stats.rateLimited,
    r.stats.retries,
    r.stats.failures,
    r.other,
  ];
  console.log(`| ${cells.join(' | ')} |`);
}
console.log(`\nbound = (requests - burst) / rate, rate = the key's allowance left to us (${RATE}, or ${RATE} - ${COMPETITOR_RATE} when shared).`);
console.log('A negative "vs bound" on the shared key means the client took more than half of the allowance.');
if (results.some((r) => r.stats.failures > 0 || r.items !== ACTIONS)) process.exitCode = 1;
