/**
 * Today's Slack, not yesterday's: the fake answers with Slack's limits (per-method
 * tiers, about one post a second per channel, and for a commercially distributed
 * app one history read a minute per workspace, 15 messages a page), and the app
 * lives within them: every notice exactly once, no call repeated inside a
 * Retry-After, history read only to look for a post left in doubt, a digest's
 * thread whole and in order, nobody ever told "ratelimited".
 * Clocks: Wednesday 2026-11-25 10:00 UTC = 10:00 in London.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveryActionId, deliveryKind, poll } from './fixtures/jobs-support.js';
import { digestsIn } from './fixtures/jobs-support.js';
import { burstConversations, pacedPosts, perAction, runCompletionBurst, slowedPosts, startCompletionBurst } from './fixtures/completion-burst.js';
import { command, linkDirectly, startHarness, webAppAction, type Harness } from './harness.js';

const START = new Date('2026-11-25T10:00:00Z');
/**
 * Enough that the three conversations' posts queue under Slack's posting rule (one a second each; the
 * poll works 8 actions at once) and that a tenth answered after 12 s is some posts (90 posts: ~9 slowed,
 * none with odds of 1 in 13,000). The full size (200 completions) is `npm run bench:slack-limits`.
 */
const COMPLETIONS = 30;

describe("under today's Slack limits, as a distributed app", () => {
  let h: Harness;
  let groupIds: string[];

  beforeAll(async () => {
    ({ h, groupIds } = await startCompletionBurst());
  });
  afterAll(async () => h?.close());

  it(`${COMPLETIONS} completions, a tenth of the posts answered only after 12 s: every notice exactly once, nothing inside a Retry-After, no history read`, {
    timeout: 240_000,
  }, async () => {
    // A bound on waiting, not a speed target: Slack lets each of the three conversations have about one post a second.
    const { ids } = await runCompletionBurst(h, groupIds, COMPLETIONS, 180_000);
    // The posts did queue for Slack's posting rule, and some were answered only after 12 s (else this would prove less than it says).
    expect((await pacedPosts(h)).waitedSeconds).toBeGreaterThan(COMPLETIONS);
    expect(slowedPosts(h)).toBeGreaterThan(0);

    for (const list of burstConversations(h)) {
      const counts = perAction(list);
      expect([...ids].filter((id) => counts.get(id) !== 1)).toEqual([]);
    }
    const limits = h.fake.rateLimits();
    // The app never called again inside a Retry-After it was given, and never needed Slack's history.
    expect(limits.repeats).toEqual([]); // each repeat named (method, bucket, when), should one ever happen
    expect(limits.repeatedInsideRetryAfter).toBe(0);
    expect(limits.historyReads).toEqual([]);
    expect(await h.app.store.countDeliveries({ kind: 'completion', state: 'failed' })).toBe(0);
    // Nobody was told "ratelimited".
    for (const person of ['sophie', 'priya', 'amelia']) {
      for (const m of [...h.fake.dms(person), ...h.fake.ephemerals(person)]) expect(h.fake.visibleText(m)).not.toMatch(/ratelimit/i);
    }
  });
});

describe('a digest whose thread needs eight posts in one channel', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ startAt: START, sandbox: { seed: 'empty' }, distribution: 'distributed', jobs: { pollSeconds: 3600 } });
    const sophie = await linkDirectly(h, 'sophie');
    const hours = (n: number) => new Date(h.now().getTime() + n * 3_600_000);
    // 70 in each section: with the ten most pressing in the channel message, each section takes two thread posts.
    const make = (n: number, input: (i: number) => Parameters<typeof webAppAction>[1]) =>
      Promise.all(Array.from({ length: n }, (_, i) => webAppAction(h, input(i))));
    await make(70, (i) => ({ task: `Overdue ${i}`, due: hours(-2 - i / 10), assigned_to: sophie }));
    await make(70, (i) => ({ task: `Today ${i}`, due: hours(1 + i / 20), assigned_to: sophie }));
    await make(70, (i) => ({ task: `Urgent ${i}`, due: hours(50 + i / 10), assigned_to: sophie, urgent: true }));
    await make(70, (i) => ({ task: `Nobody's ${i}`, due: hours(5 + i / 20) }));
    await command(h, 'amelia', '/care digest here', { channel: '#care-leads' });
  });
  afterAll(async () => h?.close());

  it("arrives whole and in order, paced under Slack's limits, with nothing repeated inside a Retry-After", async () => {
    // Nine posts in one channel take about nine seconds of Slack's clock (one a second): run ten times as fast while
    // they queue (Slack's limits and the app's pacing are judged on that one clock, so they hold as before).
    await h.fastForward(async () => {
      await command(h, 'amelia', '/care digest now', { channel: '#care-leads' }, 60_000);
      // Amelia is told it was posted.
      await h.fake.waitFor(() => h.fake.ephemerals('amelia').find((e) => /posted/i.test(h.fake.visibleText(e))), { timeoutMs: 60_000 });
    });
    const [digest, ...others] = digestsIn(h, '#care-leads');
    expect(others).toEqual([]);
    const heads = digest!.replies.map((r) => h.fake.visibleText(r, { viewer: 'amelia' }).split('\n')[0]);
    expect(heads).toHaveLength(8);
    expect(heads.map((l) => l!.replace(/ \(\d+\)$/, ''))).toEqual([
      ':warning: Overdue',
      ':warning: Overdue (continued)',
      ':calendar: Due today',
      ':calendar: Due today (continued)',
      ':rotating_light: Urgent, due this week',
      ':rotating_light: Urgent, due this week (continued)',
      ':inbox_tray: Unassigned',
      ':inbox_tray: Unassigned (continued)',
    ]);
    const limits = h.fake.rateLimits();
    expect(limits.repeatedInsideRetryAfter).toBe(0);
    expect(limits.byMethod['chat.postMessage'] ?? 0).toBe(0);
  });
});

describe('a post left in doubt, as a distributed app: history read once a minute, within the post’s times', () => {
  let h: Harness;
  let groupIds: string[];
  beforeAll(async () => {
    // Claims go stale after 6 s, so the poster waits 2 s for an answer: a post Slack answers after 3.5 s is in doubt.
    h = await startHarness({ startAt: START, sandbox: { seed: 'empty' }, distribution: 'distributed', jobs: { pollSeconds: 3600, staleAfterMs: 6_000 } });
    await linkDirectly(h, 'sophie');
    await linkDirectly(h, 'priya');
    const groups = await h.app.care.notificationGroups.collect({ attributes: ['_id', 'name'], per_page: 100, limit: 100 });
    groupIds = ['Willow Bank seniors', 'Heather Lodge nurses'].map((n) => groups.find((g) => g.name === n)!._id);
    await poll(h);
  });
  afterAll(async () => h?.close());

  it('each DM is found in Slack, not sent twice; the second look waits for the next minute instead of posting blind', async () => {
    const a = await webAppAction(h, { task: 'Top up the oxygen', due: new Date(h.now().getTime() + 3_600_000), notify_on_complete: groupIds });
    await poll(h);
    await h.control(`actions/${a._id}/complete`, {});
    // Both DMs land in Slack after 3.5 s; the app stops waiting after 2 s, so neither knows whether it was posted.
    h.fake.faults.failNext('chat.postMessage', 2, { delayMs: 3_500 });
    await h.setTime(new Date(h.now().getTime() + 5_000));
    await poll(h);
    const dms = () => [...h.fake.dms('sophie'), ...h.fake.dms('priya')].filter((m) => deliveryKind(m) === 'completion' && deliveryActionId(m) === a._id);
    await h.fake.waitFor(() => (dms().length === 2 ? true : undefined), { timeoutMs: 15_000 });
    expect(await h.app.store.countDeliveries({ kind: 'completion', state: 'pending' })).toBe(2);

    // The claims go stale; the next poll's retry looks in Slack: one read now, the other waits for the next minute.
    await h.setTime(new Date(h.now().getTime() + 20_000));
    await poll(h);
    expect(h.fake.calls('conversations.history')).toHaveLength(1);
    await h.setTime(new Date(h.now().getTime() + 61_000));
    await poll(h);
    const reads = h.fake.calls('conversations.history');
    expect(reads).toHaveLength(2);
    expect(dms()).toHaveLength(2); // found, not sent again
    expect(await h.app.store.countDeliveries({ kind: 'completion', state: 'pending' })).toBe(0);
    expect(await h.app.store.countDeliveries({ kind: 'completion', state: 'failed' })).toBe(0);
    for (const read of reads) {
      expect(Number(read.args.limit)).toBeLessThanOrEqual(15);
      expect(read.args.oldest).toBeDefined();
      expect(read.args.latest).toBeDefined();
    }
    expect(reads[1]!.at - reads[0]!.at).toBeGreaterThanOrEqual(60_000);
    const limits = h.fake.rateLimits();
    expect(limits.historyReads.every((m) => m.history + m.replies <= 1 && m.limited === 0)).toBe(true);
    expect(limits.repeatedInsideRetryAfter).toBe(0);
  });
});
