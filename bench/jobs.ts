/**
 * Scheduled jobs: what a digest run and the completion poll cost.
 *   npx tsx bench/jobs.ts
 *
 * 1. A digest run over 10,000 actions (sandbox `seed: 10000`, API rate limit
 *    10 req/s as in production, client paced at 10 req/s) for 50 channels with
 *    10 distinct filters: care API requests (sandbox stats) against the pages
 *    of the distinct queries, wall time against the 10 req/s bound, Slack calls.
 * 2. The completion poll when nothing changed (target: one request per poll),
 *    and with 20 recent completions inside its overlap window.
 * 3. Notice latency: scheduler running with a 5 s poll; time from a web-app
 *    completion to the DM (target p95 <= poll interval + 5 s).
 * Prints a markdown table.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { composeApp } from '../src/compose.js';
import { careWorkspace } from '../dev/demo/care-workspace.js';
import { createLogger } from '../src/logging/logger.js';
import { startSandbox } from '../dev/sandbox/index.js';
import { startSlackFake, type Workspace } from '../dev/slack-fake/index.js';
import type { DigestFilters } from '../src/store/index.js';
import { apiDateRange, dueWindow } from '../src/time/due-windows.js';

const TZ = 'Europe/London';
const START = new Date('2027-06-15T07:30:00Z'); // a Tuesday, 08:30 in London
const CHANNELS = 50;
const POLL_SECONDS = 5;
const RATE = 10;

const rows: [string, string, string][] = [];
const row = (metric: string, value: string, target = '') => rows.push([metric, value, target]);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;

function benchWorkspace(): Workspace {
  const w = careWorkspace();
  const people = w.users.map((u) => u.id);
  for (let i = 1; i <= CHANNELS; i++) {
    const n = String(i).padStart(2, '0');
    w.channels.push({ id: `C0BENCH${n}`, name: `bench-${n}`, members: [...people, w.bot.userId] });
  }
  return w;
}

async function main(): Promise<void> {
  const sandbox = await startSandbox({ port: 0, seed: 10_000, controls: true, rateLimit: RATE, startTime: START });
  const fake = await startSlackFake({ workspace: benchWorkspace(), rateLimits: false }); // until the app paces itself (issue 25)
  const dataDir = await mkdtemp(join(tmpdir(), 'bench-jobs-'));
  let offsetMs = START.getTime() - Date.now();
  const now = () => new Date(Date.now() + offsetMs);
  const control = async (path: string, body?: unknown) => {
    const res = await fetch(`${sandbox.controlsUrl}/${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (!res.ok) throw new Error(`control ${path}: ${res.status}`);
    return res.json() as Promise<any>;
  };
  const advance = async (ms: number) => {
    await control('clock', { advanceMs: ms });
    offsetMs += ms;
  };
  const stats = async () => (await control('stats')) as { total: number; byRoute: Record<string, Record<string, number>> };
  const requests = (s: { byRoute: Record<string, Record<string, number>> }, route?: string) =>
    Object.entries(s.byRoute)
      .filter(([r]) => !route || r === route)
      .reduce((n, [, byStatus]) => n + Object.values(byStatus).reduce((a, b) => a + b, 0), 0);

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

    // People linked by email; ten filters over fifty channels.
    const careUsers = await app.care.users.collect({ attributes: ['_id', 'email'], per_page: 100, limit: 100 });
    const careId = (email: string) => careUsers.find((u) => u.email === email)!._id;
    for (const u of fake.state.users) {
      const email = u.profile.email;
      if (email && careUsers.some((c) => c.email === email)) {
        await app.store.upsertLink({ teamId: fake.teamId, slackUserId: u.id, careUserId: careId(email), method: 'email' });
      }
    }
    const locations = await app.care.locations.collect({ attributes: ['_id', 'name'], per_page: 100, limit: 100 });
    const filters: { setUpBy: string; filters: DigestFilters }[] = [
      { setUpBy: 'U0AMELIA', filters: {} },
      { setUpBy: 'U0AMELIA', filters: { urgentOnly: true } },
      { setUpBy: 'U0SOPHIE', filters: { mineOnly: true } },
      { setUpBy: 'U0PRIYA', filters: { mineOnly: true } },
      { setUpBy: 'U0AMELIA', filters: { mineOnly: true } },
      { setUpBy: 'U0AMELIA', filters: { slackUserIds: ['U0SOPHIE', 'U0PRIYA'] } },
      { setUpBy: 'U0AMELIA', filters: { slackUserIds: ['U0OLIVER'] } },
      { setUpBy: 'U0AMELIA', filters: { slackUserIds: ['U0AMELIA', 'U0OLIVER'] } },
      { setUpBy: 'U0AMELIA', filters: { locationId: locations[0]!._id, locationName: locations[0]!.name } },
      { setUpBy: 'U0AMELIA', filters: { locationId: locations[1]!._id, locationName: locations[1]!.name } },
    ];
    for (let i = 1; i <= CHANNELS; i++) {
      const f = filters[(i - 1) % filters.length]!;
      await app.store.upsertSubscription({
        teamId: fake.teamId,
        channelId: `C0BENCH${String(i).padStart(2, '0')}`,
        time: '08:00',
        days: 'weekdays',
        timeZone: TZ,
        filters: f.filters,
        showTaskText: false,
        postWhenEmpty: true,
        urgentAlerts: Boolean(f.filters.urgentOnly),
        channelPrivate: false,
        setUpBy: f.setUpBy,
        setUpAt: START.getTime() - 86_400_000,
      });
    }

    // ---- 1. The digest run.
    await sleep(1_100); // a fresh rate-limit window for the measured run
    await control('stats/reset', {});
    const callsBefore = fake.calls().length;
    const t0 = performance.now();
    const run = await app.jobs.runOnce('digests');
    const digestMs = performance.now() - t0;
    const report = run.result as { channels: number; queries: number; results: Record<string, number> };
    const digestStats = await stats();
    const actionReqs = requests(digestStats, 'GET /v1/actions');
    const allReqs = requests(digestStats);
    const slackCalls = fake.calls().slice(callsBefore);
    const byMethod = new Map<string, number>();
    for (const c of slackCalls) byMethod.set(c.method, (byMethod.get(c.method) ?? 0) + 1);
    // The pages the distinct queries have (asked afterwards, not counted above).
    const endDate = apiDateRange(dueWindow('week', now(), TZ)).end_date;
    const linked = (slackIds: string[]) => slackIds.map((id) => careId(fake.state.users.find((u) => u.id === id)!.profile.email!)).sort();
    const distinct = new Map<string, { assigned_to?: string[]; urgent?: 'yes' }>();
    for (const f of filters) {
      const assigned = f.filters.mineOnly ? linked([f.setUpBy]) : f.filters.slackUserIds ? linked(f.filters.slackUserIds) : undefined;
      const q = { ...(assigned ? { assigned_to: assigned } : {}), ...(f.filters.urgentOnly ? { urgent: 'yes' as const } : {}) };
      distinct.set(JSON.stringify(q), q);
    }
    let pages = 0;
    let matching = 0;
    for (const q of distinct.values()) {
      const first = await app.care.actions.list({ filters: { completed: 'no', end_date: endDate, ...q }, attributes: ['_id'], per_page: 100 });
      pages += Math.max(1, first.page_count);
      const last =
        first.page_count > 1
          ? await app.care.actions.list({ filters: { completed: 'no', end_date: endDate, ...q }, attributes: ['_id'], per_page: 100, page: first.page_count })
          : first;
      matching += (Math.max(1, first.page_count) - 1) * 100 + last.items.length;
    }
    row('Digest: channels / distinct filters / distinct queries', `${CHANNELS} / ${filters.length} / ${report.queries}`, `${distinct.size} queries`);
    row('Digest: open actions read by the distinct queries (sum)', String(matching));
    row('Digest: care API list requests (GET /v1/actions)', String(actionReqs), `<= ${pages} (pages of the distinct queries, per_page=100)`);
    row('Digest: care API requests, all endpoints', String(allReqs));
    row('Digest: wall time', `${(digestMs / 1000).toFixed(1)} s`, `>= ${(allReqs / RATE).toFixed(1)} s (requests / ${RATE} req/s)`);
    row('Digest: channels posted / results', String(report.channels), JSON.stringify(report.results));
    row('Digest: Slack calls', String(slackCalls.length), [...byMethod].map(([m, n]) => `${m} ${n}`).join(', '));

    // ---- 2. The completion poll when nothing changed (clocks an hour on: the seed is out of the window).
    await advance(3_600_000);
    await sleep(1_100);
    // The first poll after the hour: the action cache follows the feed again and reads its shared list ahead,
    // and reference data an hour old is refreshed, in the background. Counted apart, once it is done.
    await control('stats/reset', {});
    await app.jobs.runOnce('changes-poll');
    await app.reads.idle();
    const warm = await stats();
    row('Poll after an hour: the poll and the background reads it brings (once)', String(requests(warm)), '-');
    await control('stats/reset', {});
    const polls = 6;
    for (let i = 0; i < polls; i++) await app.jobs.runOnce('changes-poll');
    await app.reads.idle();
    const quiet = await stats();
    row('Poll, nothing changed: care API requests per poll', (requests(quiet) / polls).toFixed(2), '1');

    // With 20 completions inside the overlap window (re-read by every poll for 5 minutes).
    const nurses = (await app.care.notificationGroups.collect({ attributes: ['_id', 'name'], per_page: 100, limit: 100 })).find(
      (g) => g.name === 'Heather Lodge nurses',
    )!._id;
    const made: { _id: string }[] = [];
    for (let i = 0; i < 20; i++)
      made.push(await control('actions', { task: `Bench ${i}`, due: new Date(now().getTime() + 3_600_000).toISOString(), notify_on_complete: [nurses] }));
    for (const a of made) await control(`actions/${a._id}/complete`, {});
    await app.jobs.runOnce('changes-poll'); // delivers them
    await sleep(1_100);
    await control('stats/reset', {});
    for (let i = 0; i < polls; i++) await app.jobs.runOnce('changes-poll');
    const busy = await stats();
    row('Poll, 20 recent completions in the overlap: requests per poll', (requests(busy) / polls).toFixed(2), '1');

    // ---- 3. Notice latency with the scheduler running.
    app.jobs.start();
    const priyaIm = async () => fake.state.channels.find((c) => c.is_im && c.user === 'U0PRIYA')?.id;
    const completedAt = new Map<string, number>();
    const latencies: number[] = [];
    const off = fake.onChange((change) => {
      if (change.kind !== 'message.posted') return;
      void priyaIm().then((im) => {
        for (const m of (im && fake.state.messages[im]) || []) {
          const id = m.metadata?.event_type === 'care_delivery' ? String(m.metadata.event_payload?.action_id) : undefined;
          const t = id ? completedAt.get(id) : undefined;
          if (id && t !== undefined) {
            latencies.push(performance.now() - t);
            completedAt.delete(id);
          }
        }
      });
    });
    const samples = 20;
    const fresh: { _id: string }[] = [];
    for (let i = 0; i < samples; i++)
      fresh.push(await control('actions', { task: `Latency ${i}`, due: new Date(now().getTime() + 3_600_000).toISOString(), notify_on_complete: [nurses] }));
    for (const a of fresh) {
      completedAt.set(a._id, performance.now());
      await control(`actions/${a._id}/complete`, {});
      await sleep(700 + Math.random() * 1_000); // spread over several polls, at random phases
    }
    for (const deadline = Date.now() + 60_000; latencies.length < samples && Date.now() < deadline; ) await sleep(200);
    off();
    const sorted = [...latencies].sort((a, b) => a - b);
    row(
      `Notice latency (web-app completion -> DM, ${POLL_SECONDS} s poll), n=${sorted.length}/${samples}`,
      `p50 ${(percentile(sorted, 50) / 1000).toFixed(1)} s, p95 ${(percentile(sorted, 95) / 1000).toFixed(1)} s, max ${((sorted.at(-1) ?? 0) / 1000).toFixed(1)} s`,
      `p95 <= ${POLL_SECONDS + 5} s`,
    );
  } finally {
    await app.stop();
    await fake.close();
    await sandbox.stop();
    await rm(dataDir, { recursive: true, force: true });
  }

  process.stdout.write('| Measure | Result | Target |\n|---|---|---|\n');
  for (const [m, v, t] of rows) process.stdout.write(`| ${m} | ${v} | ${t} |\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`bench failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
