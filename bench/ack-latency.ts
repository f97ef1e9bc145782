/**
 * Slash-command ack latency and time to the final answer, end to end:
 * the real Bolt app + SQLite store + care client against the sandbox (demo
 * data, rate limit 10 req/s per key, the client paced at 10 req/s), driven
 * through the Slack fake by 20 people (one per demo care user, each linked by
 * email) at once, 200 commands in all (each person types their next command
 * when the answer to the last one has arrived).
 *
 *   npx tsx bench/ack-latency.ts
 *   BENCH_COMMANDS=400 BENCH_USERS=20 npx tsx bench/ack-latency.ts
 *   BENCH_METRICS=off npx tsx bench/ack-latency.ts    # the cost of metrics: compare with on (the default)
 *
 * BENCH_METRICS=on (default) runs the app as `npm start` does: every series
 * observed, Node's process metrics too, and /metrics scraped every
 * BENCH_SCRAPE_MS (default 1000 ms, far more often than Prometheus would).
 * BENCH_METRICS=off builds the app without metrics: nothing observed, no /metrics.
 *
 * "ack" = the app's HTTP answer to Slack's request (Slack's limit: 3 s).
 * "answer" = from sending the command until the app's ephemeral reply reaches
 * the fake's response_url (what the person waits for).
 */
import { careWorkspace } from '../src/demo/care-workspace.js';
import { DEMO_USERS } from '../src/sandbox/index.js';
import type { Workspace } from '../src/slack-fake/index.js';
import { linkDirectly, startHarness, type Harness } from '../test/e2e/harness.js';

const COMMANDS = Number(process.env.BENCH_COMMANDS ?? 200);
const USERS = Math.min(Number(process.env.BENCH_USERS ?? 20), DEMO_USERS.length);
const RATE = 10;
const METRICS = (process.env.BENCH_METRICS ?? 'on') !== 'off';
const SCRAPE_MS = Number(process.env.BENCH_SCRAPE_MS ?? 1000);
const FIND_WORDS = ['medication', 'review', 'call', 'fees', 'family', 'brochure', 'visit'];

/** The care demo workspace plus one Slack person per remaining demo care user (same email). */
function benchWorkspace(): Workspace {
  const ws = careWorkspace();
  const taken = new Set(ws.users.map((u) => u.email.toLowerCase()));
  DEMO_USERS.filter((u) => !taken.has(u.email.toLowerCase())).forEach((u, i) => {
    const id = `U0BENCH${String(i + 1).padStart(2, '0')}`;
    ws.users.push({
      id,
      name: u.first_name.toLowerCase(),
      realName: `${u.first_name} ${u.last_name}`,
      email: u.email,
      tz: i % 3 === 0 ? 'America/New_York' : 'Europe/London',
    });
    for (const c of ws.channels) if (c.name === 'care-team' || c.name === 'general') c.members.push(id);
  });
  return ws;
}

/** Nearest-rank percentile. */
function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/** A deterministic mix (seeded LCG) of help / mine / due / show / find. */
function commandMix(n: number): string[] {
  let x = 12345;
  const r = () => (x = (x * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  return Array.from({ length: n }, () => {
    const p = r();
    if (p < 0.15) return 'help';
    if (p < 0.4) return 'mine';
    if (p < 0.6) return `due ${['today', 'tomorrow', 'week', 'overdue'][Math.floor(r() * 4)]}`;
    if (p < 0.8) return `show ${1 + Math.floor(r() * 300)}`;
    return `find ${FIND_WORDS[Math.floor(r() * FIND_WORDS.length)]}`;
  });
}

interface Sample {
  sub: string;
  ackMs: number;
  answerMs: number;
  acked: boolean;
  error?: string;
}

async function runOne(h: Harness, user: string, text: string): Promise<Sample> {
  const sub = text.split(' ')[0]!;
  const started = performance.now();
  const sent = await h.driver.slash(user, `/care ${text}`, { channel: '#care-team' });
  try {
    await h.fake.waitFor(() => h.fake.state.responseUrls.find((r) => r.url === sent.responseUrl)?.lastPosted, { timeoutMs: 120_000, intervalMs: 50 });
    return { sub, ackMs: sent.latencyMs, answerMs: performance.now() - started, acked: sent.acked };
  } catch (err) {
    return { sub, ackMs: sent.latencyMs, answerMs: NaN, acked: sent.acked, error: (err as Error).message };
  }
}

/** The acks the app's own histogram counted (a check that metrics saw every request). */
async function ackCount(h: Harness): Promise<number> {
  const text = await (await fetch(h.appUrl('/metrics'))).text();
  return Number(/^care_slack_ack_latency_seconds_count\{transport="http"\} (\d+)$/m.exec(text)?.[1] ?? NaN);
}

const fmt = (ms: number) => (Number.isFinite(ms) ? `${Math.round(ms)} ms` : 'n/a');

async function main(): Promise<void> {
  const h = await startHarness({
    workspace: benchWorkspace(),
    sandbox: { rateLimit: RATE },
    careRateLimitPerSecond: RATE,
    logLevel: 'warn',
    metrics: METRICS ? { processMetrics: true } : { enabled: false },
  });
  const scrapes: number[] = [];
  let scraping: NodeJS.Timeout | undefined;
  try {
    const people = h.fake.state.users.filter((u) => u.profile.email?.endsWith('@brightwatercare.example')).slice(0, USERS);
    for (const p of people) await linkDirectly(h, p.id);
    await h.control('stats/reset', {});
    const mix = commandMix(COMMANDS);
    const samples: Sample[] = [];
    let next = 0;
    const wallStart = performance.now();
    const cpuStart = process.cpuUsage();
    if (METRICS) {
      scraping = setInterval(() => {
        const started = performance.now();
        void fetch(h.appUrl('/metrics')).then(
          (res) => res.text().then(() => scrapes.push(performance.now() - started)),
          () => undefined,
        );
      }, SCRAPE_MS);
    }
    await Promise.all(
      people.map(async (person) => {
        for (let i = next++; i < mix.length; i = next++) samples.push(await runOne(h, person.id, mix[i]!));
      }),
    );
    const wallMs = performance.now() - wallStart;
    const cpu = process.cpuUsage(cpuStart);
    clearInterval(scraping);
    const seenAcks = METRICS ? await ackCount(h) : NaN;
    // With nothing else running: what one scrape costs (20 in a row, the median).
    const quiet: number[] = [];
    for (let i = 0; METRICS && i < 20; i++) {
      const started = performance.now();
      await (await fetch(h.appUrl('/metrics'))).text();
      quiet.push(performance.now() - started);
    }
    quiet.sort((a, b) => a - b);
    const stats = await h.control('stats');

    const acks = samples.map((s) => s.ackMs).sort((a, b) => a - b);
    const answers = samples
      .map((s) => s.answerMs)
      .filter(Number.isFinite)
      .sort((a, b) => a - b);
    const bySub = new Map<string, Sample[]>();
    for (const s of samples) bySub.set(s.sub, [...(bySub.get(s.sub) ?? []), s]);

    const out: string[] = [];
    out.push(
      `## /care ack latency: ${samples.length} commands, ${people.length} people at once, sandbox ${RATE} req/s, client ${RATE} req/s, metrics ${METRICS ? `on (scraped every ${SCRAPE_MS} ms)` : 'off'}`,
      '',
    );
    out.push('| measure | p50 | p99 | max |', '| --- | ---: | ---: | ---: |');
    out.push(`| ack (HTTP answer to Slack) | ${fmt(percentile(acks, 50))} | ${fmt(percentile(acks, 99))} | ${fmt(acks.at(-1) ?? NaN)} |`);
    out.push(`| final answer (ephemeral at the fake) | ${fmt(percentile(answers, 50))} | ${fmt(percentile(answers, 99))} | ${fmt(answers.at(-1) ?? NaN)} |`);
    out.push('', '| command | n | answer p50 | answer p99 |', '| --- | ---: | ---: | ---: |');
    for (const [sub, list] of [...bySub].sort()) {
      const a = list
        .map((s) => s.answerMs)
        .filter(Number.isFinite)
        .sort((x, y) => x - y);
      out.push(`| ${sub} | ${list.length} | ${fmt(percentile(a, 50))} | ${fmt(percentile(a, 99))} |`);
    }
    const byStatus = stats.byStatus as Record<string, number>;
    out.push('');
    out.push(
      `- acked within 3 s: ${samples.filter((s) => s.acked).length}/${samples.length}; fake ack failures: ${h.fake.ackStats().failures}; answers missing: ${samples.length - answers.length}`,
    );
    out.push(`- CPU of this process (app, sandbox, Slack fake and driver together) during the run: ${((cpu.user + cpu.system) / 1e6).toFixed(2)} s`);
    out.push(
      `- wall time ${(wallMs / 1000).toFixed(1)} s = ${(samples.length / (wallMs / 1000)).toFixed(1)} commands/s; care API requests ${stats.total} (${(stats.total / (wallMs / 1000)).toFixed(1)}/s), by status ${JSON.stringify(byStatus)}`,
    );
    if (METRICS) {
      const sorted = [...scrapes].sort((a, b) => a - b);
      out.push(
        `- metrics: ${scrapes.length} scrapes of /metrics during the run, p50 ${fmt(percentile(sorted, 50))}, max ${fmt(sorted.at(-1) ?? NaN)}; after it, alone: median ${percentile(quiet, 50).toFixed(1)} ms; acks counted by care_slack_ack_latency_seconds: ${seenAcks}`,
      );
    }
    out.push(`- ack p99 target < 300 ms: ${percentile(acks, 99) < 300 ? 'met' : 'NOT met'}`);
    const errors = samples.filter((s) => s.error);
    if (errors.length) out.push(`- ${errors.length} answers never arrived, e.g. ${errors[0]!.error}`);
    console.log(out.join('\n'));
  } finally {
    await h.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
