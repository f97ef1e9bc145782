/**
 * Care system -> Slack at the default poll (issue 36): how long a change made in the care system's own web
 * app takes to reach Slack, and what the poll costs of the key when nothing changes.
 *   npx tsx bench/poll-latency.ts          (npm run bench:poll-latency)
 *   BENCH_SAMPLES=40 BENCH_IDLE_SECONDS=120 npx tsx bench/poll-latency.ts
 *
 * One instance (composeApp, SQLite), the scheduler running on the real timer loop, the poll at the interval
 * `npm start` takes when COMPLETION_POLL_SECONDS is unset and CARE_RATE_LIMIT is 10 (jobs/poll-interval.ts);
 * the care sandbox limited to 10 requests a second with the app's client paced to it; the Slack fake with
 * today's limits on. All on loopback, in one process.
 * 1. Idle: after a warm-up, every care request for BENCH_IDLE_SECONDS (default 60) with nothing changing and
 *    nobody using Slack: requests a second against 3% of the key.
 * 2. Urgent: an open action marked urgent in the web app -> the alert in the channel subscribed to alerts.
 * 3. Completion: an action completed in the web app -> the notice in the DM of a person its group notifies.
 * Changes are made at random phases of the poll (0.7-1.7 s apart), n = BENCH_SAMPLES (default 20) each.
 * 4. Idle with a second instance on the same database (BENCH_SECOND_INSTANCE=no to skip): the poll is leased (one
 *    instance a tick), and the other's read cache reads the feed itself at most every 30 s.
 * Measures and prints a markdown table; asserts nothing.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { careWorkspace } from '../dev/demo/care-workspace.js';
import { startSandbox } from '../dev/sandbox/index.js';
import { startSlackFake } from '../dev/slack-fake/index.js';
import { composeApp } from '../src/compose.js';
import { defaultPollSeconds, idlePollCost, POLL_SHARE_OF_KEY } from '../src/jobs/poll-interval.js';
import { createLogger } from '../src/logging/logger.js';
import { deliveryActionId, deliveryKind } from '../test/e2e/fixtures/jobs-support.js';

const RATE = 10;
const POLL_SECONDS = defaultPollSeconds(RATE);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 20);
const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 60);
const TZ = 'Europe/London';
const START = new Date('2027-06-15T09:30:00Z'); // a Tuesday, 10:30 in London
const ALERTS = 'C0ALERTS';

const rows: [string, string, string][] = [];
const row = (metric: string, value: string, target = '') => rows.push([metric, value, target]);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;

async function main(): Promise<void> {
  const sandbox = await startSandbox({ port: 0, seed: 'demo', controls: true, rateLimit: RATE, startTime: START });
  const w = careWorkspace();
  w.channels.push({ id: ALERTS, name: 'urgent-alerts', members: [...w.users.map((u) => u.id), w.bot.userId] });
  const fake = await startSlackFake({ workspace: w, rateLimits: true });
  const dataDir = await mkdtemp(join(tmpdir(), 'bench-poll-latency-'));
  const offsetMs = START.getTime() - Date.now();
  const now = () => new Date(Date.now() + offsetMs);
  const control = async (path: string, body?: unknown, method = body === undefined ? 'GET' : 'POST') => {
    const res = await fetch(`${sandbox.controlsUrl}/${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (!res.ok) throw new Error(`control ${path}: ${res.status}`);
    return res.json() as Promise<any>;
  };
  const stats = async () => (await control('stats')) as { total: number; byRoute: Record<string, Record<string, number>>; byStatus: Record<string, number> };

  const app = await composeApp({
    slack: { botToken: fake.botToken, signingSecret: 'bench-secret', apiUrl: fake.apiUrl },
    care: { baseUrl: sandbox.url, ...sandbox.credentials, rateLimitPerSecond: RATE },
    store: { dataDir },
    timezone: TZ,
    adminSlackUserIds: ['U0AMELIA'],
    logger: createLogger({ level: 'error' }),
    now,
    jobs: { pollSeconds: POLL_SECONDS },
  });
  try {
    await app.start(0, '127.0.0.1');
    const careUsers = await app.care.users.collect({ attributes: ['_id', 'email'], per_page: 100, limit: 100 });
    for (const u of fake.state.users) {
      const careUser = careUsers.find((c) => c.email === u.profile.email);
      if (careUser) await app.store.upsertLink({ teamId: fake.teamId, slackUserId: u.id, careUserId: careUser._id, method: 'email' });
    }
    await app.store.upsertSubscription({
      teamId: fake.teamId,
      channelId: ALERTS,
      time: '08:00',
      days: 'weekdays',
      timeZone: TZ,
      filters: { urgentOnly: true },
      showTaskText: false,
      postWhenEmpty: false,
      urgentAlerts: true,
      channelPrivate: false,
      setUpBy: 'U0AMELIA',
      setUpAt: START.getTime() - 86_400_000,
    });
    const nurses = (await app.care.notificationGroups.collect({ attributes: ['_id', 'name'], per_page: 100, limit: 100 })).find(
      (g) => g.name === 'Heather Lodge nurses',
    )!._id;
    // The actions the changes are made to, made before the scheduler starts (the first look sees them: not news).
    const due = () => new Date(now().getTime() + 3 * 3_600_000).toISOString();
    const toMarkUrgent: { _id: string }[] = [];
    const toComplete: { _id: string }[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      toMarkUrgent.push(await control('actions', { task: `Check the bed rails ${i + 1}`, due: due(), urgent: false }));
      toComplete.push(await control('actions', { task: `Refill the water jugs ${i + 1}`, due: due(), notify_on_complete: [nurses] }));
    }

    app.jobs.start();
    // Warm-up: the first look, the read cache's first sync and what it reads ahead, care users; then one quiet poll.
    await sleep((2 * POLL_SECONDS + 3) * 1_000);
    await app.reads.idle();

    // ---- 1. Idle.
    const before = await stats();
    await control('stats/reset', {});
    const t0 = performance.now();
    await sleep(IDLE_SECONDS * 1_000);
    const idle = await stats();
    const idleSeconds = (performance.now() - t0) / 1_000;
    const routes = Object.entries(idle.byRoute)
      .map(([r, byStatus]) => `${r} ${Object.values(byStatus).reduce((a, b) => a + b, 0)}`)
      .join(', ');
    const perSecond = idle.total / idleSeconds;
    const cost = idlePollCost(POLL_SECONDS, RATE);
    row(
      'Poll interval (COMPLETION_POLL_SECONDS unset, CARE_RATE_LIMIT 10)',
      `${POLL_SECONDS} s`,
      `1 request a poll <= ${POLL_SHARE_OF_KEY * 100}% of ${RATE}/s`,
    );
    row('Warm-up (first look, cache sync, reads ahead), care requests', String(before.total), '-');
    row(
      `Idle: care requests in ${idleSeconds.toFixed(1)} s`,
      `${idle.total} (${routes || 'none'})`,
      `${Math.round(idleSeconds / POLL_SECONDS)} polls x 1 request`,
    );
    row(
      'Idle: care requests a second / share of the key',
      `${perSecond.toFixed(3)}/s = ${((perSecond / RATE) * 100).toFixed(2)}% of ${RATE}/s`,
      `<= ${(POLL_SHARE_OF_KEY * RATE).toFixed(2)}/s (${POLL_SHARE_OF_KEY * 100}%); by arithmetic ${cost.requestsPerSecond.toFixed(3)}/s = ${(cost.shareOfKey * 100).toFixed(1)}%`,
    );

    // ---- 2 and 3. Latency.
    const latency = async (label: string, what: { _id: string }[], change: (id: string) => Promise<unknown>, seen: () => Set<string>) => {
      const madeAt = new Map<string, number>();
      const took: number[] = [];
      const watch = setInterval(() => {
        for (const id of seen()) {
          const t = madeAt.get(id);
          if (t !== undefined) {
            took.push(performance.now() - t);
            madeAt.delete(id);
          }
        }
      }, 20);
      for (const a of what) {
        madeAt.set(a._id, performance.now());
        await change(a._id);
        await sleep(700 + Math.random() * 1_000); // at random phases of the poll
      }
      for (const deadline = performance.now() + 4 * POLL_SECONDS * 1_000 + 30_000; madeAt.size && performance.now() < deadline; ) await sleep(50);
      clearInterval(watch);
      const sorted = [...took].sort((a, b) => a - b);
      row(
        `${label}, n=${sorted.length}/${what.length}`,
        `p50 **${secs(percentile(sorted, 50))}**, p95 ${secs(percentile(sorted, 95))}, max **${secs(sorted.at(-1) ?? 0)}** (min ${secs(sorted[0] ?? 0)})`,
        'p50 <= 5 s, max about 10 s',
      );
    };
    const inChannel = (channel: string | undefined, kind: string) => () =>
      new Set(
        (channel ? (fake.state.messages[channel] ?? []) : [])
          .filter((m) => deliveryKind(m) === kind)
          .map((m) => deliveryActionId(m))
          .filter((id): id is string => id !== undefined),
      );
    await control('stats/reset', {});
    const calls0 = fake.state.calls.length;
    const limited0 = fake.rateLimits().limited;
    await latency(
      'Urgent alert: marked urgent in the web app -> alert in the channel',
      toMarkUrgent,
      (id) => control(`actions/${id}`, { urgent: true }, 'PATCH'),
      inChannel(ALERTS, 'urgent'),
    );
    const priyaIm = () => fake.state.channels.find((c) => c.is_im && c.user === 'U0PRIYA')?.id;
    await latency(
      'Completion notice: completed in the web app -> DM',
      toComplete,
      (id) => control(`actions/${id}/complete`, {}),
      () => inChannel(priyaIm(), 'completion')(),
    );
    const busy = await stats();
    row('Care requests during the two latency runs; 429s', `${busy.total}; ${busy.byStatus['429'] ?? 0}`, '0 × 429');
    row('Slack calls during them; 429s', `${fake.state.calls.length - calls0}; ${fake.rateLimits().limited - limited0}`, '0 × 429');

    // ---- 4. Idle with a second instance.
    if (process.env.BENCH_SECOND_INSTANCE !== 'no') {
      const b = await composeApp({
        slack: { botToken: fake.botToken, signingSecret: 'bench-secret', apiUrl: fake.apiUrl },
        care: { baseUrl: sandbox.url, ...sandbox.credentials, rateLimitPerSecond: RATE },
        store: { dataDir },
        timezone: TZ,
        adminSlackUserIds: ['U0AMELIA'],
        logger: createLogger({ level: 'error' }),
        now,
        jobs: { pollSeconds: POLL_SECONDS, instanceId: 'instance-b' },
      });
      try {
        await b.start(0, '127.0.0.1', { withJobs: true });
        await sleep((2 * POLL_SECONDS + 3) * 1_000);
        await Promise.all([app.reads.idle(), b.reads.idle()]);
        await control('stats/reset', {});
        const t1 = performance.now();
        await sleep(IDLE_SECONDS * 1_000);
        const both = await stats();
        const bothSeconds = (performance.now() - t1) / 1_000;
        const rate = both.total / bothSeconds;
        row(
          `Idle, two instances on one database: care requests in ${bothSeconds.toFixed(1)} s`,
          `${both.total}: **${rate.toFixed(3)}/s = ${((rate / RATE) * 100).toFixed(2)}%** of ${RATE}/s`,
          `<= ${(POLL_SHARE_OF_KEY * RATE).toFixed(2)}/s (${POLL_SHARE_OF_KEY * 100}%); by arithmetic ${(cost.requestsPerSecond + 1 / 30).toFixed(3)}/s`,
        );
      } finally {
        await b.stop();
      }
    }
  } finally {
    await app.stop();
    await fake.close();
    await sandbox.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
  process.stdout.write('| Measure | Result | Bound |\n|---|---|---|\n');
  for (const [m, v, t] of rows) process.stdout.write(`| ${m} | ${v} | ${t} |\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`bench failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
