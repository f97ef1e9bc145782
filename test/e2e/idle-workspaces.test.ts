/**
 * Issue 36, memory that follows use: a workspace an instance has not used for a while (10 minutes: no
 * request, no job run there) is let go with its caches and care client, and composed again from the store
 * on its next use — no lost work, no notice twice. With two instances, each workspace's runs stay on the
 * instance that ran them (it keeps the lease), so the other lets it go: each instance holds its share.
 * The world's clock is stepped (multi-harness.ts), never the machine's.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { PG_SKIPPED, TEST_DATABASE_URL, type TestSchema } from '../helpers/pg.js';
import { deliveryActionId, deliveryKind } from './fixtures/jobs-support.js';
import { twoInstancesOnOneSchema } from './fixtures/two-multi-instances.js';
import { careCommand, installBoth, type MultiHarness, startMultiHarness, webActionIn } from './multi-harness.js';

const CARE = 'T0CARE';
const SUN = 'T0SUN';
const MIN = 60_000;

const opened: MultiHarness[] = [];
let schema: TestSchema | undefined;
afterEach(async () => {
  for (const h of opened.reverse()) await h.close();
  opened.length = 0;
  await schema?.drop();
  schema = undefined;
});

const composed = (h: MultiHarness) => [...h.app.registry.composed().keys()].sort();

describe('a workspace idle on an instance is let go and composed again on its next use', () => {
  it('idle 11 minutes: let go; then an urgent action is alerted once, a command answers, and nothing earlier is told again', async () => {
    const h = await startMultiHarness({ steppedClock: true });
    opened.push(h);
    await installBoth(h);
    expect(await careCommand(h, CARE, 'amelia', 'digest here urgent-only')).toMatch(/urgent/i);
    for (const team of [CARE, SUN]) expect((await h.app.jobs.runOnce('changes-poll', team)).ran).toBe(true);
    const first = await webActionIn(h, 1, { task: 'Mrs Patel needs her insulin', due: new Date(h.world!.now() + 3 * 60 * MIN), urgent: true });
    expect((await h.app.jobs.runOnce('changes-poll', CARE)).ran).toBe(true);
    const care = h.fake.workspace(CARE);
    const alerts = () => care.messages('#care-team').filter((m) => deliveryKind(m) === 'urgent');
    expect(alerts().map(deliveryActionId)).toEqual([first._id]);
    expect(composed(h)).toEqual([CARE, SUN].sort());

    // Ten minutes is not yet idle; past it, the next look at the workspaces lets both go.
    await h.world!.advance(9 * MIN);
    await h.app.registry.connected();
    expect(composed(h)).toEqual([CARE, SUN].sort());
    await h.world!.advance(2 * MIN);
    await h.app.registry.connected();
    expect(composed(h)).toEqual([]);

    // Its next use composes it again from the store: the poll goes on from its cursor.
    const second = await webActionIn(h, 1, { task: 'Mr Jones has chest pain', due: new Date(h.world!.now() + 3 * 60 * MIN), urgent: true });
    const run = await h.app.jobs.runOnce('changes-poll', CARE);
    expect(run.ran).toBe(true);
    expect((run.result as { error?: string }).error).toBeUndefined();
    expect(composed(h)).toEqual([CARE]);
    expect(alerts().map(deliveryActionId)).toEqual([first._id, second._id]);
    // A person's command is answered as before.
    expect(await careCommand(h, SUN, 'erin', 'whoami')).not.toMatch(/not connected|went wrong/i);
    expect(composed(h)).toEqual([CARE, SUN].sort());
    // Polled again: nothing is alerted twice.
    expect((await h.app.jobs.runOnce('changes-poll', CARE)).ran).toBe(true);
    expect(alerts().map(deliveryActionId)).toEqual([first._id, second._id]);
  }, 60_000);
});

if (!TEST_DATABASE_URL) {
  describe('two instances hold each workspace once between them', () => {
    it.skip(PG_SKIPPED, () => undefined);
  });
} else {
  const pgUrl = TEST_DATABASE_URL;
  describe('two instances hold each workspace once between them', () => {
    it('each workspace is polled by one instance tick after tick, and after 11 minutes the other has let it go', async () => {
      const pair = await twoInstancesOnOneSchema(pgUrl, 'idle_workspaces', opened);
      schema = pair.schema;
      const { one, two } = pair;
      // Both instances had a reason to compose both (a request each).
      for (const h of [one, two])
        for (const [team, user] of [
          [CARE, 'amelia'],
          [SUN, 'erin'],
        ] as const)
          await careCommand(h, team, user, 'whoami');
      expect(composed(one)).toEqual([CARE, SUN].sort());
      expect(composed(two)).toEqual([CARE, SUN].sort());

      const pollers = new Map<string, Set<string>>([
        [CARE, new Set()],
        [SUN, new Set()],
      ]);
      // Ticks 50 s apart (a kept lease is renewed on a timer of its own; here the world moves faster than it).
      for (let minute = 1; minute <= 14; minute++) {
        await one.world!.advance(50_000);
        const slot = one.world!.now();
        const [a, b] = await Promise.all([one.app.jobs.tick('changes-poll', { slot }), two.app.jobs.tick('changes-poll', { slot })]);
        expect(a.ran + b.ran, `minute ${minute}: each workspace polled once`).toBe(2);
        expect(a.failed + b.failed).toBe(0);
        for (const team of [CARE, SUN]) {
          const lease = await one.app.store.getLease(`changes-poll@${team}`);
          pollers.get(team)!.add(lease?.holder ?? '-');
        }
      }
      // Each workspace stayed with one instance the whole time (the one that kept its lease) …
      for (const team of [CARE, SUN]) expect(pollers.get(team)!.size, `${team} polled by ${[...pollers.get(team)!]}`).toBe(1);
      // … and the other let it go: each workspace is held by exactly one instance.
      const held = [...composed(one), ...composed(two)].sort();
      expect(held).toEqual([CARE, SUN].sort());

      // One's jobs stop: it gives its leases back and the other takes its workspaces at the next tick.
      await one.app.jobs.stop();
      await two.world!.advance(MIN);
      const after = await two.app.jobs.tick('changes-poll', { slot: two.world!.now() });
      expect(after.ran).toBe(2);
      expect(composed(two)).toEqual([CARE, SUN].sort());
    }, 90_000);
  });
}
