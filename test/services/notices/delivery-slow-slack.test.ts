/**
 * Slack slower than the poster's timeout: the post times out on our side while
 * Slack is still processing it, and its message shows up in the channel only
 * later. The delivery must still end as exactly one message.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { WebClient } from '@slack/web-api';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../src/logging/logger.js';
import { createDeliverer, DELIVERY_EVENT_TYPE, type DeliveryResult, unfinishedDeliveries } from '../../../src/services/notices/delivery.js';
import { type SlackFake, startSlackFake } from '../../../dev/slack-fake/index.js';
import { type DeliveryKey, type OpenedStore, openStore, soleWorkspaceStore } from '../../../src/store/index.js';

/**
 * A third of the times this ran with before (claims stale after 30 s, Slack answering after 12 s): what matters
 * is their order. The poster gives up (a quarter of the staleness) before Slack answers, and the claim goes
 * stale later than twice the slowest post, as the deliverer's no-second-post rule assumes.
 */
const SLACK_TAKES_MS = 4_000;
const STALE_AFTER_MS = 10_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a post Slack answers only after the poster gave up', () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  it('is delivered exactly once: one message with the delivery metadata in the channel', { timeout: 120_000 }, async () => {
    const fake: SlackFake = await startSlackFake();
    cleanups.push(() => fake.close());
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'slow-slack-'));
    cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    const store: OpenedStore = await openStore({ dataDir: dir });
    cleanups.push(() => store.close());

    // Built as compose.ts builds them: a history reader, and a poster that never retries by itself.
    const staleAfterMs = STALE_AFTER_MS;
    const posterTimeoutMs = Math.min(10_000, Math.max(1_000, staleAfterMs / 4));
    // The order of times the scenario depends on (else it would prove less than it says).
    expect(posterTimeoutMs).toBeLessThan(SLACK_TAKES_MS);
    expect(staleAfterMs).toBeGreaterThan(2 * SLACK_TAKES_MS);
    let postsStarted = 0;
    const countingFetch: typeof fetch = (input, init) => {
      if (String(input).endsWith('/chat.postMessage')) postsStarted++;
      return fetch(input, init);
    };
    const slack = new WebClient(fake.botToken, { slackApiUrl: fake.apiUrl, retryConfig: { retries: 0 }, timeout: 10_000 });
    const poster = new WebClient(fake.botToken, {
      slackApiUrl: fake.apiUrl,
      retryConfig: { retries: 0 },
      rejectRateLimitedCalls: true,
      timeout: posterTimeoutMs,
      fetch: countingFetch,
    });
    // An internal app: history read as often as the client allows.
    const history = { pageLimit: 200, tryRead: async () => true, readable: async () => true };
    const deliverer = createDeliverer({
      store: soleWorkspaceStore(store, async () => fake.teamId),
      slack,
      poster,
      history,
      holder: 'instance-1',
      logger: silentLogger,
      staleAfterMs,
    });

    const channel = fake.channel('#care-team')!.id;
    const key: DeliveryKey = { kind: 'completion', actionId: 'act-1', occurrence: '2025-01-06T09:00:00Z', recipient: `channel:${fake.teamId}/${channel}` };
    const message = { text: 'Call the GP was completed' };
    const carrying = () =>
      fake.messages(channel).filter((m) => m.metadata?.event_type === DELIVERY_EVENT_TYPE && m.metadata.event_payload?.action_id === 'act-1');

    fake.faults.latency(SLACK_TAKES_MS, { methods: ['chat.postMessage'] });
    const first = await deliverer.deliver(key, channel, message);
    expect(first).toBe('failed');
    // The claim is kept until it goes stale, with the reason an admin sees.
    expect(await store.getDelivery(key)).toMatchObject({ state: 'pending', claimedBy: 'instance-1', lastError: 'no answer from Slack (timeout)' });

    // The retry sweep, as the changes poll runs it, until the ledger says the delivery is done.
    const results: DeliveryResult[] = [first];
    for (let i = 0; i < 120; i++) {
      const row = await store.getDelivery(key);
      if (row?.state === 'sent' || (row?.state === 'failed' && !row.retryable)) break;
      for (const d of await unfinishedDeliveries(
        soleWorkspaceStore(store, async () => fake.teamId),
        'completion',
        { staleAfterMs },
      )) {
        results.push(await deliverer.deliver({ kind: d.kind, actionId: d.actionId, occurrence: d.occurrence, recipient: d.recipient }, channel, message));
      }
      await sleep(1_000);
    }
    // Every post that was started has been processed by Slack before counting.
    await fake.waitFor(() => fake.calls('chat.postMessage').length === postsStarted, { timeoutMs: 2 * SLACK_TAKES_MS });

    expect(carrying()).toHaveLength(1);
    expect(await store.getDelivery(key)).toMatchObject({ state: 'sent', slackTs: carrying()[0]!.ts });
    expect(results.at(-1)).toBe('found-in-slack');
  });
});
