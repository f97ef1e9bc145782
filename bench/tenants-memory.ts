/**
 * bench/tenants.ts's memory probe, in a process of its own so that nothing
 * else (the sandbox, the Slack fake, the two instances) is in its heap:
 *   node --expose-gc --import tsx bench/tenants-memory.ts   (config in TENANTS_PROBE)
 *
 * A third instance on the same database composes every workspace and runs one
 * changes poll for each (and the read-cache sync after it), as it would on an
 * idle minute. Heap after a forced GC: with one workspace composed and polled
 * (everything loaded once), then with all composed, then all composed and
 * polled; the difference divided by the others is one idle workspace's cost.
 * Prints one JSON line on stdout. BENCH_HEAP_SNAPSHOT=<dir>: also writes heap
 * snapshots (one workspace, all idle) there, to compare in DevTools.
 */
import { writeHeapSnapshot } from 'node:v8';
import { join } from 'node:path';
import { composeMultiApp } from '../src/compose-multi.js';
import { createLogger } from '../src/logging/logger.js';
import { instanceSettings } from './tenants-fixtures.js';

export interface ProbeConfig {
  databaseUrl: string;
  dataDir: string;
  /** The encryption key (base64). */
  key: string;
  slackApiUrl: string;
  /** The sandbox's host:port, allowed as CARE_API_HOSTS does. */
  careApiHost: string;
  /** The bench's virtual clock: app time = Date.now() + offsetMs. */
  offsetMs: number;
  teamIds: string[];
}

export interface ProbeResult {
  workspaces: number;
  polled: { ran: number; failed: number };
  /** process.memoryUsage() after GC, bytes. */
  oneWorkspace: NodeJS.MemoryUsage;
  allComposed: NodeJS.MemoryUsage;
  allIdle: NodeJS.MemoryUsage;
  /** Bytes of care data the workspaces' read caches estimate they hold (sum). */
  cacheBytes: number;
  cacheRecords: number;
  warnings: number;
  errors: number;
}

const gcNow = global.gc;
if (!gcNow) throw new Error('run with node --expose-gc');
const settle = async () => {
  for (let i = 0; i < 4; i++) {
    gcNow();
    await new Promise((r) => setImmediate(r));
  }
  return process.memoryUsage();
};

async function main(): Promise<void> {
  const config = JSON.parse(process.env.TENANTS_PROBE ?? '') as ProbeConfig;
  const counts = { warn: 0, error: 0 };
  const logger = createLogger({
    level: 'warn',
    write: (line) => {
      const level = (JSON.parse(line) as { level: 'warn' | 'error' }).level;
      counts[level]++;
      if (counts.warn + counts.error <= 5) process.stderr.write(`${line}\n`);
    },
  });
  const now = () => new Date(Date.now() + config.offsetMs);
  const app = await composeMultiApp(
    instanceSettings({
      instanceId: 'bench-probe',
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      key: Buffer.from(config.key, 'base64'),
      slackApiUrl: config.slackApiUrl,
      now,
      logger,
      careApiHost: config.careApiHost,
    }),
  );
  await app.start(0, '127.0.0.1'); // as a deployed instance is: its HTTP receiver is in the baseline
  const idle = () => Promise.all([...app.registry.composed().values()].map((w) => w.reads.idle()));
  const snapshot = (name: string) => {
    if (process.env.BENCH_HEAP_SNAPSHOT) writeHeapSnapshot(join(process.env.BENCH_HEAP_SNAPSHOT, `tenants-${name}.heapsnapshot`));
  };
  try {
    const [first, ...rest] = config.teamIds;
    if (!first || rest.length === 0) throw new Error('the probe needs at least two workspaces');
    // One workspace composed and polled: every module, code path and shared structure is in place.
    await app.registry.get(first);
    await app.jobs.runOnce('changes-poll', first, { force: true });
    await app.jobs.runOnce('read-cache-sync', first, { force: true });
    await idle();
    const oneWorkspace = await settle();
    snapshot('one');

    for (const teamId of rest) await app.registry.get(teamId);
    const allComposed = await settle();

    // One idle minute: the poll of each (a slot none ran yet), then the cache sync (skipped where the poll covered it).
    const slot = Math.floor(now().getTime() / 60_000) * 60_000 + 59_999;
    const polled = await app.jobs.tick('changes-poll', { slot });
    await app.jobs.tick('read-cache-sync');
    await idle();
    await new Promise((r) => setTimeout(r, 500));
    await idle();
    const allIdle = await settle();
    snapshot('idle');

    let cacheBytes = 0;
    let cacheRecords = 0;
    for (const w of app.registry.composed().values()) {
      const a = w.reads.actions.stats();
      cacheBytes += a.bytes + w.reads.reference.stats().bytes;
      cacheRecords += a.records;
    }
    const result: ProbeResult = {
      workspaces: config.teamIds.length,
      polled: { ran: polled.ran, failed: polled.failed },
      oneWorkspace,
      allComposed,
      allIdle,
      cacheBytes,
      cacheRecords,
      warnings: counts.warn,
      errors: counts.error,
    };
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } finally {
    await app.stop();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`memory probe failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
