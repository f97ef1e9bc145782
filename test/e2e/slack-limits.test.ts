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
import { command, linkDirectly, startHarness, webAppAction, type Harness } from './harness.js';

const START = new Date('2026-11-25T10:00:00Z');
const COMPLETIONS = 200;

/** Per action, how many completion notices a person or channel was sent (exactly once each is all 1s). */
function perAction(messages: { metadata?: { event_type?: string; event_payload?: Record<string, unknown> } }[]): Map<string, number> {
  const seen = new Map<string, number>();
  for (const m of messages.filter((x) => deliveryKind(x) === 'completion')) {
    const id = deliveryActionId(m)!;
    seen.set(id, (seen.get(id) ?? 0) + 1);
  }
  return seen;
}

describe("under today's Slack limits, as a distributed app", () => {
  let h: Harness;
  const groupIds: string[] = [];

  beforeAll(async () => {
    h = await startHarness({ startAt: START, sandbox: { seed: 'empty' }, distribution: 'distributed', jobs: { pollSeconds: 3600 } });
    await linkDirectly(h, 'sophie');
    await linkDirectly(h, 'priya');
    const groups = await h.app.care.notificationGroups.collect({ attributes: ['_id', 'name'], per_page: 100, limit: 100 });
    for (const name of ['Willow Bank seniors', 'Heather Lodge nurses']) groupIds.push(groups.find((g) => g.name === name)!._id);
    expect((await command(h, 'amelia', '/care route Willow Bank seniors #care-team')).text).toContain('#care-team');
    await poll(h); // the app's first look
  });
  afterAll(async () => h?.close());

  it(`${COMPLETIONS} completions, a tenth of the posts answered only after 12 s: every notice exactly once, nothing inside a Retry-After, no history read`, {
    timeout: 900_000,
  }, async () => {
    const actions: { _id: string }[] = [];
    for (let i = 0; i < COMPLETIONS; i += 25) {
      const batch = Array.from({ length: Math.min(25, COMPLETIONS - i) }, (_, k) =>
        webAppAction(h, { task: `Night check ${i + k}`, due: new Date(h.now().getTime() + 6 * 3_600_000), notify_on_complete: groupIds }),
      );
      actions.push(...(await Promise.all(batch)));
    }
    await poll(h);
    h.fake.faults.latency(12_000, { methods: ['chat.postMessage'], share: 0.1 });
    for (let i = 0; i < COMPLETIONS; i += 20) await Promise.all(actions.slice(i, i + 20).map((a) => h.control(`actions/${a._id}/complete`, {})));

    const ids = new Set(actions.map((a) => a._id));
    const done = () =>
      [h.fake.dms('sophie'), h.fake.dms('priya'), h.fake.messages('#care-team')].every((list) => {
        const counts = perAction(list);
        return [...ids].every((id) => counts.has(id));
      });
    // A bound on waiting, not a speed target: Slack lets each of the three conversations have about one post a second.
    for (const deadline = Date.now() + 600_000; !done(); ) {
      if (Date.now() > deadline) throw new Error('not every notice arrived');
      await poll(h);
    }
    h.fake.faults.clear();

    for (const list of [h.fake.dms('sophie'), h.fake.dms('priya'), h.fake.messages('#care-team')]) {
      const counts = perAction(list);
      expect([...ids].filter((id) => counts.get(id) !== 1)).toEqual([]);
    }
    const limits = h.fake.rateLimits();
    // The app never called again inside a Retry-After it was given, and never needed Slack's history.
    expect(limits.repeatedInsideRetryAfter).toBe(0);
    expect(limits.historyReads).toEqual([]);
    expect(await h.app.store.countDeliveries({ kind: 'completion', state: 'failed' })).toBe(0);
    // Nobody was told "ratelimited".
    for (const person of ['sophie', 'priya', 'amelia']) {
      for (const m of [...h.fake.dms(person), ...h.fake.ephemerals(person)]) expect(h.fake.visibleText(m)).not.toMatch(/ratelimit/i);
    }
  });
});
