/**
 * Who's on now and repeats of the ladder's last step (issue 33): what they cost.
 *   npx tsx bench/on-call.ts
 *
 * The real app (composeApp through test/e2e/harness.ts), the care API sandbox at 10 requests a second with
 * the app's client paced to it (as in production), and the Slack fake with today's rate limits, on one clock.
 * 1. 20 urgent actions alerted (each becomes urgent in the care system's web app; one poll alerts them).
 * 2. `/care oncall`: command -> private answer, the first (reads the 20 actions) and a second within 5 s (shared).
 * 3. Four Home tabs opened at once: the care API requests they cost between them.
 * 4. Repeats: the ladder thread,managers with `repeat 10 3`, the clock moved minute by minute to +80: the
 *    managers' posts (the 20 first ones and 60 repeats) and Slack's 429s.
 * Prints a markdown table; asserts nothing.
 */
import { performance } from 'node:perf_hooks';
import { deliveryActionId, deliveryKind, poll } from '../test/e2e/fixtures/jobs-support.js';
import { command, linkDirectly, startHarness, webAppAction } from '../test/e2e/harness.js';

const RATE = 10;
const MIN = 60_000;
const N = 20;
const rows: [string, string][] = [];
const row = (metric: string, value: string) => rows.push([metric, value]);
const secs = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

const START = new Date('2027-06-15T09:00:00Z');
const h = await startHarness({ startAt: START, sandbox: { seed: 'empty', rateLimit: RATE }, careRateLimitPerSecond: RATE, logLevel: 'error' });
const careRequests = async () => ((await h.control('stats')) as { total: number }).total;
try {
  for (const person of ['sophie', 'oliver', 'priya']) await linkDirectly(h, person);
  await command(h, 'amelia', '/care digest here urgent-only', { channel: '#care-leads' });
  await poll(h);
  await command(h, 'amelia', '/care escalation after 15');
  await command(h, 'amelia', '/care escalation steps thread,managers');
  await command(h, 'amelia', '/care escalation managers <#C0GENERAL|general>');
  await command(h, 'amelia', '/care escalation seniors Day <@U0PRIYA|priya>');
  await command(h, 'amelia', '/care escalation repeat 10 3');

  await h.setTime(new Date(h.now().getTime() + 5_000));
  const ids = new Set<string>();
  let began = 0;
  for (let i = 0; i < N; i++) {
    const a = await webAppAction(h, { task: `Urgent bench ${i + 1}`, due: new Date(h.now().getTime() + 3 * 60 * MIN), urgent: true, assigned_to: null });
    ids.add(a._id);
    began = Math.max(began, Date.parse(String(a.modified)));
  }
  await poll(h);
  const of = (m: Parameters<typeof deliveryKind>[0]) => deliveryKind(m) === 'escalation' && ids.has(deliveryActionId(m) ?? '');
  row('Urgent alerts posted', String(h.fake.messages('#care-leads').filter((m) => deliveryKind(m) === 'urgent').length));

  for (const label of ['first (reads every action)', 'again within 5 s (the shared read)']) {
    await h.control('stats/reset', {});
    const t0 = performance.now();
    const reply = await command(h, 'priya', '/care oncall');
    const ms = performance.now() - t0;
    const listed = (reply.text.match(/nobody yet/g) ?? []).length;
    row(`/care oncall, ${label}`, `${secs(ms)} command -> answer; ${await careRequests()} care API requests; ${listed} actions listed`);
  }

  await h.setTime(new Date(h.now().getTime() + 6_000));
  await h.control('stats/reset', {});
  const t0 = performance.now();
  await Promise.all(['amelia', 'sophie', 'oliver', 'priya'].map((p) => h.driver.openHome(p)));
  await h.fake.waitFor(() => (['U0AMELIA', 'U0SOPHIE', 'U0OLIVER', 'U0PRIYA'].every((u) => h.fake.home(u)) ? true : undefined), { timeoutMs: 60_000 });
  row('Four Home tabs opened at once', `${secs(performance.now() - t0)}; ${await careRequests()} care API requests between them`);

  const limited0 = h.fake.rateLimits().limited;
  const calls0 = h.fake.state.calls.length;
  let slowest = 0;
  for (let minute = 14; minute <= 80; minute++) {
    await h.setTime(new Date(began + minute * MIN + 2_000));
    const t = performance.now();
    await h.app.jobs.runOnce('escalations');
    slowest = Math.max(slowest, performance.now() - t);
  }
  const posts = h.fake.messages('#general').filter(of).length;
  row(
    'Ladder thread,managers with repeat 10 3, ticks +14…+80 min',
    `${posts} managers' posts (want ${N} + ${3 * N} repeats); slowest tick ${secs(slowest)}; ${h.fake.state.calls.length - calls0} Slack calls, ${h.fake.rateLimits().limited - limited0} answered 429`,
  );
} finally {
  await h.close();
}

console.log('| Measure | Result |\n|---|---|');
for (const [m, v] of rows) console.log(`| ${m} | ${v} |`);
