import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { digestTickAt } from './fixtures/jobs-support.js';
import { command, linkDirectly, startHarness, webAppAction, type Harness } from './harness.js';

/**
 * GET /metrics after real flows: each series is there and moved by the flow
 * that should move it, no label carries anything about a person or a task,
 * and the token and the port of its own work as configured.
 * Clocks: Monday 2026-11-23 07:30 UTC = 07:30 in London (a digest at 08:00 is still to come).
 */
const START = new Date('2026-11-23T07:30:00Z');
const SIGNING_SECRET = 'e2e-signing-secret'; // the harness's

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The Prometheus text format, one sample per line. */
function parse(text: string): Sample[] {
  return text
    .split('\n')
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})?\s+(\S+)$/.exec(line);
      if (!m) throw new Error(`not a sample line: ${line}`);
      const labels = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((x) => [x[1]!, x[2]!]));
      return { name: m[1]!, labels, value: Number(m[3]) };
    });
}

class Scrape {
  readonly samples: Sample[];
  constructor(readonly text: string) {
    this.samples = parse(text);
  }
  private matching(name: string, labels: Record<string, string>) {
    return this.samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  }
  has(name: string, labels: Record<string, string> = {}): boolean {
    return this.matching(name, labels).length > 0;
  }
  /** The sum over every sample of that name with these labels (0 when there is none). */
  value(name: string, labels: Record<string, string> = {}): number {
    return this.matching(name, labels).reduce((sum, s) => sum + s.value, 0);
  }
}

async function scrape(url: string, headers: Record<string, string> = {}): Promise<Scrape> {
  const res = await fetch(url, { headers });
  expect(res.status, await res.clone().text()).toBe(200);
  expect(res.headers.get('content-type')).toContain('text/plain');
  return new Scrape(await res.text());
}

describe('/metrics after real flows (HTTP)', () => {
  let h: Harness;
  let groupId: string;
  const careIds: string[] = [];
  const tasks: string[] = [];
  const actionIds: string[] = [];
  const metrics = () => scrape(h.appUrl('/metrics'));
  let weigh: Awaited<ReturnType<typeof webAppAction>> | undefined;

  beforeAll(async () => {
    h = await startHarness({ startAt: START, jobs: { pollSeconds: 60 } });
    for (const who of ['sophie', 'priya', 'amelia']) careIds.push(await linkDirectly(h, who));
    const groups = await h.app.care.notificationGroups.collect({ attributes: ['_id', 'users'], per_page: 100, limit: 100 });
    groupId = groups.find((g) => g.users?.includes(careIds[1]!))!._id;
    await h.app.jobs.runOnce('changes-poll'); // the first poll ever sets the cursor
  });
  afterAll(async () => h?.close());

  async function action(task: string, extra: { assigned_to?: string; notify_on_complete?: string[] } = {}) {
    tasks.push(task);
    const a = await webAppAction(h, { task, due: new Date(h.now().getTime() + 3 * 3600_000), ...extra });
    actionIds.push(a._id);
    return a;
  }

  it('a command that reads actions: care API requests by resource, method and status, and the ack latency', async () => {
    weigh = await action('Weigh Mr Okafor before breakfast', { assigned_to: careIds[0]! });
    const before = await metrics();
    // The changes poll reads what changed in the web app; answers then come from memory or the API.
    await h.app.jobs.runOnce('changes-poll');
    const reply = await command(h, 'sophie', '/care mine');
    expect(reply.text).toContain('Weigh Mr Okafor before breakfast');
    const after = await metrics();
    const gets = { resource: 'actions', method: 'GET', status: '200' };
    expect(after.value('care_slack_care_api_requests_total', gets)).toBeGreaterThan(before.value('care_slack_care_api_requests_total', gets));
    expect(after.value('care_slack_care_api_request_duration_seconds_count', { resource: 'actions', method: 'GET' })).toBeGreaterThan(
      before.value('care_slack_care_api_request_duration_seconds_count', { resource: 'actions', method: 'GET' }),
    );
    expect(after.value('care_slack_care_api_limiter_wait_seconds_count')).toBeGreaterThan(before.value('care_slack_care_api_limiter_wait_seconds_count'));
    const acks = { transport: 'http' };
    expect(after.value('care_slack_ack_latency_seconds_count', acks)).toBeGreaterThan(before.value('care_slack_ack_latency_seconds_count', acks));
    // Slack gives up at 3 s: this ack was well inside it.
    expect(after.value('care_slack_ack_latency_seconds_bucket', { transport: 'http', le: '3' })).toBe(
      after.value('care_slack_ack_latency_seconds_count', acks),
    );
  });

  it('a 429 from the care API: counted, retried, and the wait before the retry added up', async () => {
    const before = await metrics();
    await h.control('faults', { force429: 1 });
    // A search not made before is read from the care API (answers already known come from memory).
    expect((await command(h, 'sophie', '/care find breakfast')).text).toContain(`#${weigh!.action_no}`);
    const after = await metrics();
    const labels = { resource: 'actions', method: 'GET' };
    expect(after.value('care_slack_care_api_requests_total', { ...labels, status: '429' })).toBe(
      before.value('care_slack_care_api_requests_total', { ...labels, status: '429' }) + 1,
    );
    expect(after.value('care_slack_care_api_rate_limited_total', labels)).toBe(before.value('care_slack_care_api_rate_limited_total', labels) + 1);
    expect(after.value('care_slack_care_api_retries_total', labels)).toBe(before.value('care_slack_care_api_retries_total', labels) + 1);
    expect(after.value('care_slack_care_api_retry_wait_seconds_total', labels)).toBeGreaterThan(
      before.value('care_slack_care_api_retry_wait_seconds_total', labels),
    );
  });

  it('Complete through Slack: a PATCH, the completion notices delivered (one after a Slack ratelimited answer), every Web API call by method and result', async () => {
    const a = await action('Order more dressings for room 4', { assigned_to: careIds[0]!, notify_on_complete: [groupId] });
    const before = await metrics();
    h.fake.faults.failNext('chat.postMessage', 1, { status: 429, retryAfterSec: 1 });
    expect((await command(h, 'sophie', `/care done ${a.action_no}`)).text).toContain('Completed');
    await h.fake.waitFor(() => h.fake.dms('priya').some((m) => m.text.includes(`#${a.action_no}`)), { timeoutMs: 15_000 });
    const after = await h.fake.waitFor(
      async () => {
        const s = await metrics();
        return s.value('care_slack_web_api_calls_total', { method: 'chat.postMessage', result: 'ok' }) >
          before.value('care_slack_web_api_calls_total', { method: 'chat.postMessage', result: 'ok' })
          ? s
          : undefined;
      },
      { timeoutMs: 5_000 },
    );
    const patch = { resource: 'actions', method: 'PATCH', status: '200' };
    expect(after.value('care_slack_care_api_requests_total', patch)).toBeGreaterThan(before.value('care_slack_care_api_requests_total', patch));
    const sent = { kind: 'completion', result: 'sent' };
    expect(after.value('care_slack_deliveries_total', sent)).toBeGreaterThan(before.value('care_slack_deliveries_total', sent));
    const limited = { method: 'chat.postMessage', result: 'ratelimited' };
    expect(after.value('care_slack_web_api_calls_total', limited)).toBe(before.value('care_slack_web_api_calls_total', limited) + 1);
    expect(after.value('care_slack_web_api_ratelimited_total', { method: 'chat.postMessage' })).toBe(
      before.value('care_slack_web_api_ratelimited_total', { method: 'chat.postMessage' }) + 1,
    );
    expect(after.value('care_slack_web_api_ratelimited_wait_seconds_total', { method: 'chat.postMessage' })).toBe(
      before.value('care_slack_web_api_ratelimited_wait_seconds_total', { method: 'chat.postMessage' }) + 1,
    );
    expect(after.value('care_slack_web_api_call_duration_seconds_count', { method: 'chat.postMessage' })).toBeGreaterThan(
      before.value('care_slack_web_api_call_duration_seconds_count', { method: 'chat.postMessage' }),
    );
  });

  it('a poll: its duration and lag; a delivery Slack refuses for good shows in the failed count and by its error code', async () => {
    const a = await action('Check the hoist in the east wing', { notify_on_complete: [groupId] });
    await h.control(`actions/${a._id}/complete`, {});
    const before = await metrics();
    h.fake.faults.failNext('chat.postMessage', 1, 'account_inactive');
    const run = await h.app.jobs.runOnce('changes-poll');
    expect(run.ran).toBe(true);
    const after = await metrics();
    const runs = { job: 'changes-poll', outcome: 'ok' };
    expect(after.value('care_slack_job_duration_seconds_count', runs)).toBe(before.value('care_slack_job_duration_seconds_count', runs) + 1);
    expect(after.has('care_slack_changes_poll_lag_seconds')).toBe(true);
    // The newest change the poll saw was made moments ago on the care system's clock, which the app's follows.
    expect(after.value('care_slack_changes_poll_lag_seconds')).toBeLessThan(60);
    expect(after.value('care_slack_changes_poll_last_success_timestamp_seconds')).toBeGreaterThan(
      before.value('care_slack_changes_poll_last_success_timestamp_seconds'),
    );
    const refused = { method: 'chat.postMessage', result: 'account_inactive' };
    expect(after.value('care_slack_web_api_calls_total', refused)).toBe(before.value('care_slack_web_api_calls_total', refused) + 1);
    const failed = { kind: 'completion', result: 'failed' };
    expect(after.value('care_slack_deliveries_total', failed)).toBe(before.value('care_slack_deliveries_total', failed) + 1);
    expect(after.value('care_slack_deliveries_failed')).toBe(before.value('care_slack_deliveries_failed') + 1);
    expect(after.value('care_slack_deliveries_failed')).toBe(await h.app.store.countDeliveries({ state: 'failed' }));
  });

  it('while a poll runs, this instance holds its lease and its slow post is pending; after it, neither', async () => {
    const a = await action('Replace the batteries in the call bells', { notify_on_complete: [groupId] });
    await h.control(`actions/${a._id}/complete`, {});
    h.fake.faults.latency(1_500, { methods: ['chat.postMessage'] });
    const run = h.app.jobs.runOnce('changes-poll');
    const seen = { lease: false, pending: false };
    await h.fake.waitFor(
      async () => {
        const s = await metrics();
        if (s.value('care_slack_job_lease_held', { job: 'changes-poll' }) === 1) seen.lease = true;
        if (s.value('care_slack_deliveries_pending') >= 1) seen.pending = true;
        return (seen.lease && seen.pending) || undefined;
      },
      { timeoutMs: 10_000, intervalMs: 50, message: 'never saw the lease held and a delivery pending during the poll' },
    );
    expect((await run).ran).toBe(true);
    h.fake.faults.clear();
    const after = await metrics();
    expect(after.has('care_slack_job_lease_held', { job: 'changes-poll' })).toBe(true);
    expect(after.value('care_slack_job_lease_held', { job: 'changes-poll' })).toBe(0);
    expect(after.value('care_slack_deliveries_pending')).toBe(0);
  });

  it('a digest run: its duration, its posts by result, the digest job and its delivery', async () => {
    expect((await command(h, 'amelia', '/care digest here 08:00 daily', { channel: '#care-team' })).text).toContain('Digest set');
    const before = await metrics();
    await digestTickAt(h, '2026-11-23T08:00:30Z');
    expect(h.fake.messages('#care-team').length).toBeGreaterThan(0);
    const after = await metrics();
    expect(after.value('care_slack_digest_run_duration_seconds_count')).toBe(before.value('care_slack_digest_run_duration_seconds_count') + 1);
    expect(after.value('care_slack_digest_posts_total', { result: 'sent' })).toBe(before.value('care_slack_digest_posts_total', { result: 'sent' }) + 1);
    const job = { job: 'digests', outcome: 'ok' };
    expect(after.value('care_slack_job_duration_seconds_count', job)).toBe(before.value('care_slack_job_duration_seconds_count', job) + 1);
    const sent = { kind: 'digest', result: 'sent' };
    expect(after.value('care_slack_deliveries_total', sent)).toBe(before.value('care_slack_deliveries_total', sent) + 1);
    expect(after.value('care_slack_job_lease_held', { job: 'digests' })).toBe(0);
  });

  it('no label carries task text, an email, a care Id, an action Id, a Slack user Id or a secret; every label value is short and plain', async () => {
    const s = await metrics();
    const people = ['sophie', 'priya', 'amelia'].map((who) => h.driver.user(who));
    const forbidden = [
      ...tasks,
      ...tasks.flatMap((t) => t.split(' ').filter((w) => w.length > 6)), // words of the tasks, e.g. "dressings"
      ...people.map((p) => p.profile.email!),
      ...people.map((p) => p.id),
      ...careIds,
      ...actionIds,
      h.fake.botToken,
      SIGNING_SECRET,
    ];
    expect(forbidden.length).toBeGreaterThan(15);
    for (const f of forbidden) expect(s.text.toLowerCase(), f).not.toContain(f.toLowerCase());
    const values = new Set(s.samples.flatMap((x) => Object.values(x.labels)));
    for (const v of values) expect(v, `label value ${v}`).toMatch(/^[A-Za-z0-9_.+-]{1,40}$/);
    // Every series this app defines is there.
    for (const name of [
      'care_slack_care_api_requests_total',
      'care_slack_care_api_rate_limited_total',
      'care_slack_care_api_retries_total',
      'care_slack_care_api_retry_wait_seconds_total',
      'care_slack_care_api_limiter_wait_seconds_count',
      'care_slack_care_api_request_duration_seconds_count',
      'care_slack_web_api_calls_total',
      'care_slack_web_api_call_duration_seconds_count',
      'care_slack_web_api_ratelimited_total',
      'care_slack_web_api_ratelimited_wait_seconds_total',
      'care_slack_deliveries_total',
      'care_slack_deliveries_pending',
      'care_slack_deliveries_failed',
      'care_slack_job_lease_held',
      'care_slack_job_duration_seconds_count',
      'care_slack_changes_poll_lag_seconds',
      'care_slack_changes_poll_last_success_timestamp_seconds',
      'care_slack_digest_run_duration_seconds_count',
      'care_slack_digest_posts_total',
      'care_slack_ack_latency_seconds_count',
    ]) {
      expect(s.has(name), name).toBe(true);
    }
  });
});

describe('/metrics on a port of its own, behind a bearer token', () => {
  let h: Harness;
  const TOKEN = 'metrics-token-0123456789abcdef';
  beforeAll(async () => {
    h = await startHarness({ sandbox: { seed: 'empty' }, metrics: { port: 0, token: TOKEN } });
  });
  afterAll(async () => h?.close());

  const url = () => `http://127.0.0.1:${h.metricsPort}/metrics`;

  it('is not served on the app’s port then, and the metrics port serves nothing else', async () => {
    expect(h.metricsPort).toBeGreaterThan(0);
    expect((await fetch(h.appUrl('/metrics'))).status).toBe(404);
    expect((await fetch(h.appUrl('/healthz'))).status).toBe(200);
    expect((await fetch(`http://127.0.0.1:${h.metricsPort}/healthz`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(404);
  });

  it('refuses a scrape without the token, or with another, with 401', async () => {
    const attempts: Record<string, string>[] = [
      {},
      { authorization: 'Bearer not-the-token' },
      { authorization: `Basic ${TOKEN}` },
      { authorization: `Bearer ${TOKEN}x` },
    ];
    for (const headers of attempts) {
      const res = await fetch(url(), { headers });
      expect(res.status, JSON.stringify(headers)).toBe(401);
      expect(res.headers.get('www-authenticate')).toContain('Bearer');
      expect(await res.text()).not.toContain('care_slack_');
    }
  });

  it('answers with the token', async () => {
    await command(h, 'oliver', '/care help');
    const s = await scrape(url(), { authorization: `Bearer ${TOKEN}` });
    expect(s.value('care_slack_ack_latency_seconds_count', { transport: 'http' })).toBeGreaterThan(0);
    expect(s.text).not.toContain(TOKEN);
  });
});

describe('/metrics in Socket Mode', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ sandbox: { seed: 'empty' }, transport: 'socket' });
  });
  afterAll(async () => h?.close());

  it('is served next to /healthz; envelope acks are timed and the connections opened are counted', async () => {
    const before = await scrape(h.appUrl('/metrics'));
    expect((await command(h, 'oliver', '/care help')).text).toContain('/care mine');
    const after = await scrape(h.appUrl('/metrics'));
    const acks = { transport: 'socket' };
    expect(after.value('care_slack_ack_latency_seconds_count', acks)).toBe(before.value('care_slack_ack_latency_seconds_count', acks) + 1);
    expect(after.value('care_slack_ack_latency_seconds_count', { transport: 'http' })).toBe(0);
    expect(after.value('care_slack_web_api_calls_total', { method: 'apps.connections.open', result: 'ok' })).toBeGreaterThanOrEqual(2);
  });
});

describe('metrics switched off', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ sandbox: { seed: 'empty' }, metrics: { enabled: false } });
  });
  afterAll(async () => h?.close());

  it('serves no /metrics, and the app works as ever', async () => {
    expect((await command(h, 'oliver', '/care help')).text).toContain('/care mine');
    expect((await fetch(h.appUrl('/metrics'))).status).toBe(404);
  });
});
