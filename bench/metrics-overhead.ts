/**
 * What metrics cost the app, hook by hook, without the noise of a whole run:
 * the time of each observation the app makes (per Slack ack, per care API
 * attempt, per Web API call, per delivery) and of one scrape of /metrics with
 * every series filled, as `npm start` runs it (Node's process series too).
 *
 *   npx tsx bench/metrics-overhead.ts
 *
 * Compare with bench/ack-latency.ts (BENCH_METRICS=off|on) for the whole app.
 */
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FetchFunction } from '@slack/web-api';
import { Registry } from 'prom-client';
import { createAppMetrics } from '../src/metrics/index.js';
import { slackApiMetrics } from '../src/metrics/slack-api.js';
import type { Deliverer } from '../src/services/notices/delivery.js';

const N = Number(process.env.BENCH_N ?? 200_000);

/** Nanoseconds per call of `fn`, the best of 5 rounds of `n` calls. */
async function nsPerCall(n: number, fn: (i: number) => unknown): Promise<number> {
  let best = Infinity;
  for (let round = 0; round < 5; round++) {
    const started = process.hrtime.bigint();
    for (let i = 0; i < n; i++) await fn(i);
    best = Math.min(best, Number(process.hrtime.bigint() - started) / n);
  }
  return best;
}

async function main(): Promise<void> {
  const metrics = createAppMetrics({ processMetrics: true }, { store: { countDeliveries: async () => 3 } });
  const onAck = metrics.slack.onAck!;
  const careAttempt = metrics.careAttempt!;
  const resources = ['actions', 'notification-groups', 'users', 'locations', 'literature-items'];
  const okBody = JSON.stringify({ ok: true, channel: 'C0123', ts: '1700000000.000100', message: { text: 'x'.repeat(200) } });
  const fakeFetch: FetchFunction = async () => new Response(okBody, { headers: { 'content-type': 'application/json' } });
  const plainFetch: FetchFunction = async () => new Response(okBody, { headers: { 'content-type': 'application/json' } });
  // Its own registry (the app's has its wrapper already, over the real fetch).
  const observedFetch = slackApiMetrics(new Registry(), fakeFetch);
  const methods = ['chat.postMessage', 'users.info', 'views.publish', 'conversations.open', 'auth.test'];
  const deliverer: Deliverer = { deliver: async () => 'sent', record: async () => 'sent' };
  const observed = metrics.observeDeliverer(deliverer);
  const key = (i: number) => ({ kind: ['completion', 'digest', 'urgent'][i % 3]!, actionId: 'a', occurrence: 'o', recipient: 'r' });

  const rows: [string, number][] = [];
  rows.push(['Slack ack (histogram observe)', await nsPerCall(N, (i) => onAck(i % 2 ? 'http' : 'socket', 12.5))]);
  rows.push([
    'care API attempt (3 counters, 2 histograms)',
    await nsPerCall(N, (i) =>
      careAttempt({ resource: resources[i % 5]!, method: 'GET', status: 200, retry: false, waitedMs: 3, backoffMs: 0, durationMs: 40 }),
    ),
  ]);
  // As WebClient reads an answer: text, then JSON.parse.
  const plain = await nsPerCall(N / 10, async (i) => JSON.parse(await (await plainFetch(`https://slack.com/api/${methods[i % 5]}`)).text()));
  const withMetrics = await nsPerCall(N / 10, async (i) => JSON.parse(await (await observedFetch(`https://slack.com/api/${methods[i % 5]}`)).text()));
  rows.push(['Web API call: fetch wrapper (ok or error code read from the body), over a local Response', withMetrics - plain]);
  rows.push([
    'delivery (wrapper + counter)',
    (await nsPerCall(N, (i) => observed.deliver(key(i), 'C1', { text: '' }))) - (await nsPerCall(N, (i) => deliverer.deliver(key(i), 'C1', { text: '' }))),
  ]);

  // One scrape over HTTP, as Prometheus makes it, with every series above filled (the Web API's and the jobs' too).
  const server = createServer((req, res) => {
    if (req.url === '/metrics') return metrics.slack.route!(req, res);
    res.writeHead(200, { 'content-type': 'application/json' }).end(okBody);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  for (const m of methods) await (await metrics.slack.fetch!(`http://127.0.0.1:${port}/api/${m}`)).text();
  for (const job of ['changes-poll', 'digests', 'summaries']) {
    metrics.jobs!.lease!(job, true);
    metrics.jobs!.ran!(job, 120, true);
  }
  metrics.jobs!.polled!(1500);
  const scrape = () =>
    new Promise<number>((resolve, reject) => {
      request({ port, path: '/metrics' }, (res) => {
        let size = 0;
        res.on('data', (c: Buffer) => (size += c.length));
        res.on('end', () => resolve(size));
      })
        .on('error', reject)
        .end();
    });
  const size = await scrape();
  const scrapes: number[] = [];
  for (let i = 0; i < 200; i++) {
    const started = performance.now();
    await scrape();
    scrapes.push(performance.now() - started);
  }
  server.close();
  scrapes.sort((a, b) => a - b);

  const out = ['## metrics overhead, hook by hook', '', '| hook | cost per call |', '| --- | ---: |'];
  for (const [name, ns] of rows) out.push(`| ${name} | ${(ns / 1000).toFixed(2)} µs |`);
  out.push(
    '',
    `- one scrape of /metrics (${(size / 1024).toFixed(1)} KB, every series filled, process series included): median ${scrapes[100]!.toFixed(2)} ms, p99 ${scrapes[197]!.toFixed(2)} ms (200 in a row over local HTTP)`,
  );
  console.log(out.join('\n'));
  process.exit(0);
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
