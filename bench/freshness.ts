/**
 * How fresh answers from memory are (src/services/read-cache/): two app
 * instances on one store and one sandbox, both with their jobs running (a
 * 5 s changes poll, so the poll's lease goes to whichever instance asks
 * first), and a person's list (`actions.mine`, what `/care mine` and the Home
 * tab show) read on both every 50 ms.
 *
 * - a change in the care system's web app (a new action for the person, or
 *   one completed): how long until each instance's answer shows it;
 * - a change made through Slack on instance B: B's very next answer (stale
 *   answers counted; must be 0), and how long until A's answer shows it.
 *
 *   npx tsx bench/freshness.ts            (BENCH_TRIALS=20, BENCH_POLL_SECONDS=5)
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { composeApp } from '../src/compose.js';
import { memoryLogger } from '../src/logging/logger.js';
import type { ActionsService } from '../src/services/actions/actions.js';
import { careUserIdByEmail, startHarness, webAppAction } from '../test/e2e/harness.js';

const TRIALS = Number(process.env.BENCH_TRIALS ?? 20);
const POLL_SECONDS = Number(process.env.BENCH_POLL_SECONDS ?? 5);
const RATE = 10;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))] ?? NaN;
};

async function main(): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), 'care-bench-fresh-'));
  const h = await startHarness({
    sandbox: { seed: 'empty', rateLimit: RATE },
    careRateLimitPerSecond: RATE,
    logLevel: 'warn',
    dataDir,
    jobs: { pollSeconds: POLL_SECONDS, instanceId: 'instance-a' },
  });
  const b = await composeApp({
    slack: { botToken: h.fake.botToken, signingSecret: 'bench-b', apiUrl: h.fake.apiUrl },
    care: { baseUrl: h.sandbox.url, ...h.sandbox.credentials, rateLimitPerSecond: RATE },
    store: { dataDir },
    timezone: 'Europe/London',
    adminSlackUserIds: [],
    logger: memoryLogger('warn'),
    now: h.now,
    jobs: { pollSeconds: POLL_SECONDS, instanceId: 'instance-b' },
  });
  await b.start(0, '127.0.0.1', { withJobs: true });
  try {
    const sophie = await careUserIdByEmail(h, h.driver.user('sophie').profile.email!);
    await h.app.store.upsertLink({ teamId: h.fake.teamId, slackUserId: 'U0SOPHIE', careUserId: sophie, method: 'admin', linkedBy: 'U0AMELIA' });
    const actor = { teamId: h.fake.teamId, userId: 'U0SOPHIE' };
    h.app.jobs.start();
    let reads = 0;
    const tasksOn = async (actions: ActionsService) => {
      reads++;
      const m = await actions.mine(sophie, h.now(), 'Europe/London');
      return new Set([...m.overdue, ...m.today, ...m.nextWeek].map((v) => v.task));
    };
    const instances = { A: h.app.deps.actions, B: b.deps.actions };
    await sleep(POLL_SECONDS * 1000 + 1000); // both follow the feed
    const untilSeen = async (actions: ActionsService, test: (tasks: Set<string | null>) => boolean, from: number) => {
      for (;;) {
        if (test(await tasksOn(actions))) return performance.now() - from;
        await sleep(50);
      }
    };

    const web: Record<'A' | 'B', number[]> = { A: [], B: [] };
    const viaB: number[] = [];
    let staleOnB = 0;
    const requestsBefore = (await h.control('stats')).total as number;
    const started = performance.now();
    for (let i = 0; i < TRIALS; i++) {
      // A new action made in the web app, at a random moment of the poll cycle.
      await sleep(Math.random() * POLL_SECONDS * 1000);
      const task = `Freshness check ${i}`;
      const t0 = performance.now();
      const made = await webAppAction(h, { task, due: new Date(h.now().getTime() + 3 * 3_600_000), assigned_to: sophie });
      const [a, bLag] = await Promise.all([untilSeen(instances.A, (t) => t.has(task), t0), untilSeen(instances.B, (t) => t.has(task), t0)]);
      web.A.push(a);
      web.B.push(bLag);
      // Completed through Slack on B: B's next answer must not show it; A follows within its feed.
      await sleep(Math.random() * POLL_SECONDS * 1000);
      const t1 = performance.now();
      await b.deps.actions.complete(actor, made._id);
      if ((await tasksOn(instances.B)).has(task)) staleOnB++;
      viaB.push(await untilSeen(instances.A, (t) => !t.has(task), t1));
    }
    const seconds = (performance.now() - started) / 1000;
    const requests = ((await h.control('stats')).total as number) - requestsBefore;
    const row = (label: string, xs: number[]) =>
      `| ${label} | ${xs.length} | ${(percentile(xs, 50) / 1000).toFixed(2)} s | ${(percentile(xs, 95) / 1000).toFixed(2)} s | ${(Math.max(...xs) / 1000).toFixed(2)} s |`;
    console.log(
      [
        `## Freshness of answers: 2 instances, changes poll every ${POLL_SECONDS} s, ${TRIALS} trials`,
        '',
        '| change | n | lag p50 | lag p95 | lag max |',
        '| --- | ---: | ---: | ---: | ---: |',
        row('web app → instance A', web.A),
        row('web app → instance B', web.B),
        row('Slack on B → instance A', viaB),
        '',
        `- stale answers on B right after its own Slack change: **${staleOnB}/${TRIALS}**`,
        `- care API requests ${requests} in ${seconds.toFixed(0)} s (${(requests / seconds).toFixed(2)}/s) for ${reads} list reads and ${TRIALS * 2} changes (the two polls and syncs included)`,
      ].join('\n'),
    );
  } finally {
    await b.stop();
    await h.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
