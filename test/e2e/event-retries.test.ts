import { afterEach, describe, expect, it } from 'vitest';
import { createSlackDriver } from '../../dev/slack-fake/index.js';
import { type RequestTap, startRequestTap, type TappedRequest } from '../helpers/request-tap.js';
import { type MultiHarness, startMultiHarness } from './multi-harness.js';

/**
 * Each Events API event runs once, by its event_id, however many copies come:
 * Slack's own retries (X-Slack-Retry-Num 1-3, a header the signature does not
 * cover) and captured copies sent again. Brightwater Care has installed the app
 * but not connected it, so every run of `app_home_opened` publishes the set-up
 * Home tab once: the number of publishes is the number of runs. Two instances
 * share one database; the driver talks to the first through a tap that keeps
 * each request as sent.
 */
const CARE = 'T0CARE';
const SIGNING_SECRET = 'e2e-signing-secret'; // the multi harness's
const RETRY = (n: number) => ({ 'x-slack-retry-num': String(n), 'x-slack-retry-reason': 'http_timeout' });

const opened: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const o of opened.reverse()) await o.close();
  opened.length = 0;
});

async function twoInstances(tapOptions: Parameters<typeof startRequestTap>[1] = {}) {
  const h = await startMultiHarness();
  opened.push(h);
  expect((await h.install(CARE, 'amelia')).status).toBe(200);
  const second: MultiHarness = await startMultiHarness({ beside: h, dataDir: h.dataDir });
  opened.push(second);
  const tap: RequestTap = await startRequestTap(`${h.base}/slack/events`, tapOptions);
  opened.push(tap);
  const driver = createSlackDriver({ fake: h.fake, eventsUrl: tap.url, signingSecret: SIGNING_SECRET }).forTeam(CARE);
  const care = h.fake.workspace(CARE);
  const amelia = care.user('amelia')!.id;
  const homePublishes = () => care.calls('views.publish').filter((c) => c.args.user_id === amelia).length;
  const lastEvent = (): TappedRequest => tap.requests.findLast((r) => r.body.includes('app_home_opened'))!;
  /** Another person's Home tab, published: anything a wrongly accepted copy set off has run by then. */
  const settle = async () => {
    const sophie = care.user('sophie')!.id;
    const before = care.calls('views.publish').filter((c) => c.args.user_id === sophie).length;
    await h.team(CARE).openHome('sophie');
    await care.waitFor(() => care.calls('views.publish').filter((c) => c.args.user_id === sophie).length > before, { message: "Sophie's Home tab" });
    await new Promise((r) => setTimeout(r, 200));
  };
  return { h, second, tap, driver, care, homePublishes, lastEvent, settle };
}

describe('an Events API event sent more than once', () => {
  it('a captured event sent again with X-Slack-Retry-Num 1, 2 and 3, to either instance, runs once: each copy is acknowledged and dropped', async () => {
    const { h, second, tap, driver, care, homePublishes, lastEvent, settle } = await twoInstances();
    expect((await driver.openHome('amelia')).status).toBe(200);
    await care.waitFor(() => homePublishes() === 1, { message: "Amelia's Home tab" });
    const event = lastEvent();

    for (const n of [1, 2, 3]) {
      const copy = await tap.resend(event, { headers: RETRY(n) });
      expect(copy.status).toBe(200);
    }
    expect((await tap.resend(event, { to: `${second.base}/slack/events`, headers: RETRY(1) })).status).toBe(200);
    expect((await tap.resend(event)).status).toBe(200);
    await settle();
    expect(homePublishes()).toBe(1);
    expect(h.logs.some((l) => l.includes('duplicate-event'))).toBe(true);
  });

  it("Slack's retry of an event whose acknowledgement reached Slack too late runs nothing more", async () => {
    // The app answers at once; the answer to the first copy reaches Slack after its 3 s, so Slack retries.
    const { driver, care, homePublishes, settle } = await twoInstances({ answerDelayMs: (i) => (i === 0 ? 3_500 : 0) });
    const answer = await driver.openHome('amelia', { retries: 3 });
    expect(answer.acked).toBe(true);
    await care.waitFor(() => homePublishes() >= 1, { message: "Amelia's Home tab" });
    await settle();
    expect(homePublishes()).toBe(1);
  });
});
