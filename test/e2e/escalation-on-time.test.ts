/**
 * Issue 36, "Escalation and follow-up steps on time": each step fires within 5 s of its due time, exactly once
 * across instances. Two instances of a deployment serving two workspaces on PostgreSQL run their real
 * schedulers (not `runOnce`) on the world's stepped clock: the care system, Slack and both apps read it, and
 * it runs on from wherever the test steps it. An urgent action made in the web app at second 4 of a minute
 * is due its first step (a reminder in the alert's thread) 15 minutes later, at second 4: the reminder is in
 * Slack by second 9 (world time, as the fake Slack stamps the post), once.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { PG_SKIPPED, TEST_DATABASE_URL, type TestSchema } from '../helpers/pg.js';
import { deliveryActionId, deliveryKind } from './fixtures/jobs-support.js';
import { twoInstancesOnOneSchema } from './fixtures/two-multi-instances.js';
import { careCommand, type MultiHarness, webActionIn } from './multi-harness.js';

const CARE = 'T0CARE';
const MIN = 60_000;
/** The moment within a minute (world time) the action is made urgent: its episode begins at second 4. */
const PHASE_MS = 4_300;

if (!TEST_DATABASE_URL) {
  describe('escalation steps on time across two instances', () => {
    it.skip(PG_SKIPPED, () => undefined);
  });
} else {
  const pgUrl = TEST_DATABASE_URL;
  const opened: MultiHarness[] = [];
  let schema: TestSchema | undefined;
  afterEach(async () => {
    for (const h of opened.reverse()) await h.close();
    opened.length = 0;
    await schema?.drop();
  });

  describe('escalation steps on time across two instances', () => {
    it('a step due at second 4 of a minute is in Slack within 5 s of it, once, with both schedulers running', async () => {
      const pair = await twoInstancesOnOneSchema(pgUrl, 'escalation_on_time', opened);
      schema = pair.schema;
      const { one, two } = pair;
      expect(await careCommand(one, CARE, 'amelia', 'digest here urgent-only')).toMatch(/urgent/i);
      await careCommand(one, CARE, 'amelia', 'escalation after 15');
      expect(await careCommand(one, CARE, 'amelia', 'escalation steps thread')).toMatch(/thread/i);
      // The app's first look at the care account: what is already so is not news.
      expect((await one.app.jobs.runOnce('changes-poll', CARE)).ran).toBe(true);

      const world = one.world!;
      let step = (PHASE_MS - (world.now() % MIN) + MIN) % MIN;
      if (step < 1_000) step += MIN;
      await world.advance(step);
      const action = await webActionIn(one, 1, { task: 'Mr Ahmed has had a fall', due: new Date(world.now() + 3 * 60 * MIN), urgent: true });
      expect((await one.app.jobs.runOnce('changes-poll', CARE)).ran).toBe(true);
      const team = one.fake.workspace(CARE);
      const ofAction = (kind: string) => (m: Parameters<typeof deliveryKind>[0]) => deliveryKind(m) === kind && deliveryActionId(m) === action._id;
      const alert = () => team.messages('#care-team').find(ofAction('urgent'));
      expect(alert(), 'the urgent alert').toBeDefined();
      const [episode] = await one.app.store.listDeliveries({ kind: 'urgent', actionId: action._id, state: 'sent' });
      const dueAt = Date.parse(episode!.occurrence) + 15 * MIN;
      expect(new Date(dueAt).getUTCSeconds()).toBe(4);

      // Both instances' schedulers run from 3 s before the step is due (every job, on the world's clock).
      one.app.jobs.start();
      two.app.jobs.start();
      await world.advance(dueAt - 3_000 - world.now());
      const reminders = () => (alert()?.replies ?? []).filter(ofAction('escalation'));
      const first = await team.waitFor(() => reminders()[0], { timeoutMs: 60_000, message: 'no reminder in the thread' });
      const lateMs = Math.round(Number(first.ts) * 1000) - dueAt;
      expect(lateMs).toBeGreaterThanOrEqual(0);
      expect(lateMs, `the reminder came ${lateMs} ms after its due time`).toBeLessThanOrEqual(5_000);

      // Once across both instances: more ticks of both find it done.
      await team.waitFor(() => world.now() > dueAt + 12_000 || null, { timeoutMs: 20_000 });
      expect(reminders()).toHaveLength(1);
      expect(first.text).toMatch(/no answer for 15 minutes/);
    }, 120_000);
  });
}
