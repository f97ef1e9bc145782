import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSlackApp, type SlackApp } from '../../src/slack/app.js';
import { createReplayGuard } from '../../src/slack/receivers/replay-guard.js';
import { createSlackDriver, type SlackDriver } from '../../dev/slack-fake/index.js';
import { openStore } from '../../src/store/index.js';
import { startRequestTap, type RequestTap, type TappedRequest } from '../helpers/request-tap.js';
import { dayOn, linkDirectly, replyOn, type Harness, startHarness } from './harness.js';

const SIGNING_SECRET = 'e2e-signing-secret'; // the harness's

/**
 * Signed requests replayed inside Slack's 5-minute window. Two app instances
 * with the replay guard (as composeApp builds them) share the harness's store
 * and services; the driver talks to the first through a tap that keeps each
 * request exactly as sent, so it can be sent again.
 */
describe('replayed Slack requests', () => {
  let h: Harness;
  let first: SlackApp;
  let second: SlackApp;
  let firstUrl: string;
  let secondUrl: string;
  let tap: RequestTap;
  let driver: SlackDriver;

  const startInstance = async () => {
    const app = createSlackApp(
      { botToken: h.fake.botToken, signingSecret: SIGNING_SECRET, slackApiUrl: h.fake.apiUrl, replayGuard: createReplayGuard({ store: h.app.store }) },
      h.app.deps,
    );
    const { port } = await app.start(0);
    return { app, url: `http://127.0.0.1:${port}/slack/events` };
  };
  const lastTapped = (kind: string): TappedRequest => {
    const found = tap.requests.findLast((r) => r.body.includes(kind));
    if (!found) throw new Error(`no ${kind} request was sent`);
    return found;
  };
  const actionsNamed = async (task: string) => (await h.app.care.actions.collect({ filters: { q: task }, attributes: ['_id', 'task'], limit: 100 })).length;

  beforeAll(async () => {
    h = await startHarness({ sandbox: { seed: 'empty' } });
    await linkDirectly(h, 'sophie');
    ({ app: first, url: firstUrl } = await startInstance());
    ({ app: second, url: secondUrl } = await startInstance());
    tap = await startRequestTap(firstUrl);
    driver = createSlackDriver({ fake: h.fake, eventsUrl: tap.url, signingSecret: SIGNING_SECRET });
  });
  afterAll(async () => {
    await tap?.close();
    await first?.stop();
    await second?.stop();
    await h?.close();
  });

  it('a view_submission sent twice creates one action: the second is refused with 401', async () => {
    await driver.slash('sophie', '/care new Order more gloves', { channel: '#care-team' });
    await h.fake.waitFor(() => h.fake.openModal('sophie'), { timeoutMs: 10_000 });
    const tomorrow = dayOn(h, 1);
    const submitted = await driver.modal('sophie').fill('Due date', tomorrow).fill('Due time', '15:00').submit();
    expect(submitted.outcome).toBe('closed');
    await h.fake.waitFor(async () => ((await actionsNamed('Order more gloves')) === 1 ? true : undefined), { timeoutMs: 10_000 });

    const again = await tap.resend(lastTapped('view_submission'));
    expect(again.status).toBe(401);
    const elsewhere = await tap.resend(lastTapped('view_submission'), { to: secondUrl });
    expect(elsewhere.status).toBe(401);
    expect(await actionsNamed('Order more gloves')).toBe(1);
  });

  it('a /care command sent twice is answered once, on any instance', async () => {
    const sent = await driver.slash('sophie', '/care mine', { channel: '#care-team' });
    await replyOn(h, 'U0SOPHIE', sent.responseUrl!);
    const command = lastTapped('command=%2Fcare');
    expect((await tap.resend(command)).status).toBe(401);
    expect((await tap.resend(command, { to: secondUrl })).status).toBe(401);
    // A forged retry header does not make a command a retry: Slack retries only Events API deliveries.
    expect((await tap.resend(command, { headers: { 'x-slack-retry-num': '1', 'x-slack-retry-reason': 'http_timeout' } })).status).toBe(401);
    // Give a wrongly accepted replay time to answer before counting.
    await replyOn(h, 'U0SOPHIE', (await driver.slash('sophie', '/care help')).responseUrl!);
    expect(h.fake.state.responseUrls.find((r) => r.url === sent.responseUrl)?.uses).toBe(1);
  });

  it('the refusal is logged without the signature', async () => {
    const signature = lastTapped('command=%2Fcare').headers['x-slack-signature']!;
    expect(h.logs.some((l) => l.includes('replayed'))).toBe(true);
    expect(h.logs.filter((l) => l.includes(signature.slice(3, 20)))).toEqual([]);
  });

  it('refuses a correctly signed request timestamped 6 minutes ahead, and accepts one 4 minutes ahead', async () => {
    const body = (text: string) =>
      new URLSearchParams({
        command: '/care',
        text,
        team_id: h.fake.teamId,
        user_id: 'U0SOPHIE',
        user_name: 'sophie',
        channel_id: h.fake.store.requireChannel('#care-team').id,
        trigger_id: h.fake.issueTrigger('U0SOPHIE'),
        response_url: h.fake.issueResponseUrl({ kind: 'command', channel: h.fake.store.requireChannel('#care-team').id, user: 'U0SOPHIE', command: '/care' }),
      }).toString();
    const nowSec = Math.floor(Date.now() / 1000);
    const ahead = await driver.rawRequest(body('help'), { timestampSec: nowSec + 6 * 60 });
    expect(ahead.status).toBe(401);
    const slightlyAhead = await driver.rawRequest(body('help'), { timestampSec: nowSec + 4 * 60 });
    expect(slightlyAhead.status).toBe(200);
  });

  it("a captured event sent again, with or without Slack's retry header and on either instance, runs once: each copy is answered 200 and dropped", async () => {
    const publishes = () => h.fake.calls('views.publish').filter((c) => c.args.user_id === 'U0SOPHIE').length;
    const first = publishes();
    expect((await driver.openHome('sophie')).status).toBe(200);
    await h.fake.waitFor(() => (publishes() > first ? true : undefined), { timeoutMs: 10_000 });
    const event = lastTapped('app_home_opened');
    // Past the Home tab's quiet time: a copy that ran would publish it again at once.
    await h.setTime(new Date(h.now().getTime() + 6_000));
    const before = publishes();

    const retry = (n: number) => ({ 'x-slack-retry-num': String(n), 'x-slack-retry-reason': 'http_timeout' });
    for (const headers of [retry(1), retry(2), retry(3), {}]) expect((await tap.resend(event, { headers })).status).toBe(200);
    expect((await tap.resend(event, { to: secondUrl, headers: retry(1) })).status).toBe(200);
    await replyOn(h, 'U0SOPHIE', (await driver.slash('sophie', '/care help')).responseUrl!);
    expect(publishes()).toBe(before);
  });
});

describe('when the replay memory cannot be reached', () => {
  it('a signed request still runs (counted), and a copy of it sent to this instance again is refused', async () => {
    const h = await startHarness({ sandbox: { seed: 'empty' } });
    const dir = await mkdtemp(join(tmpdir(), 'replay-store-'));
    const brokenStore = await openStore({ dataDir: dir });
    await brokenStore.close();
    let failOpen = 0;
    const guard = createReplayGuard({ store: brokenStore, onFailOpen: () => failOpen++ });
    const app = createSlackApp({ botToken: h.fake.botToken, signingSecret: SIGNING_SECRET, slackApiUrl: h.fake.apiUrl, replayGuard: guard }, h.app.deps);
    let tap: RequestTap | undefined;
    try {
      const { port } = await app.start(0);
      tap = await startRequestTap(`http://127.0.0.1:${port}/slack/events`);
      const driver = createSlackDriver({ fake: h.fake, eventsUrl: tap.url, signingSecret: SIGNING_SECRET });
      const sent = await driver.slash('sophie', '/care help');
      expect(sent.status).toBe(200);
      expect((await replyOn(h, 'U0SOPHIE', sent.responseUrl!)).text).toContain('/care mine');
      expect(failOpen).toBe(1);
      const again = await tap.resend(tap.requests.findLast((r) => r.body.includes('command=%2Fcare'))!);
      expect(again.status).toBe(401);
      expect(h.fake.state.responseUrls.find((r) => r.url === sent.responseUrl)?.uses).toBe(1);
    } finally {
      await tap?.close();
      await app.stop();
      await h.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
