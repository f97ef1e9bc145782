/**
 * Issue 36, an idle minute at the 5 s default poll: a poll tick asks once, for every workspace, whether any
 * delivery is unfinished, and tells each workspace's poll; an idle poll then asks the store nothing of its own.
 * A delivery left unfinished is still retried at the next tick (exactly once), and a poll that worked an action
 * asks for itself (what it just left unfinished is swept in the same run). Two workspaces on one instance (a
 * deployment of many: leases kept), the real changes poll ticked as the tick driver does; on a real SQLite file
 * and on PostgreSQL, the world's clock stepped.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { countCalls } from '../helpers/count-store-calls.js';
import { createTestSchema, TEST_DATABASE_URL, type TestSchema } from '../helpers/pg.js';
import { deliveryActionId, deliveryKind } from './fixtures/jobs-support.js';
import { urlWithSchema } from './fixtures/spawn-instance.js';
import { installBoth, linkFirstCareUser, type MultiHarness, startMultiHarness, webActionIn } from './multi-harness.js';

const CARE = 'T0CARE';
const HOUR = 3600_000;

const backends: { name: string; skip: boolean }[] = [
  { name: 'SQLite', skip: false },
  { name: 'PostgreSQL', skip: !TEST_DATABASE_URL },
];

describe.each(backends)('a poll tick over every workspace, on $name', ({ name, skip }) => {
  let h: MultiHarness | undefined;
  let schema: TestSchema | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
    await schema?.drop();
    schema = undefined;
  });

  it.skipIf(skip)(
    'asks once for all workspaces whether a delivery is unfinished; the one left unfinished is sent at the next tick, once',
    async () => {
      schema = name === 'PostgreSQL' ? await createTestSchema(TEST_DATABASE_URL!, 'idle_poll_sweep') : undefined;
      const w = await startMultiHarness({
        steppedClock: true,
        jobs: { pollSeconds: 5 },
        ...(schema ? { databaseUrl: urlWithSchema(schema.url, schema.name) } : {}),
      });
      h = w;
      await installBoth(w);
      const counter = countCalls(w.app.store);
      const dms = (id: string) =>
        w.fake
          .workspace(CARE)
          .dms('amelia')
          .filter((m) => deliveryKind(m) === 'assignment' && deliveryActionId(m) === id);
      const ameliaCare = await linkFirstCareUser(w, CARE, 'amelia', 1);
      const tick = async () => {
        await w.world!.advance(5_000);
        counter.on();
        const report = await w.app.jobs.tick('changes-poll', { slot: w.world!.now() });
        counter.off();
        expect(report).toMatchObject({ ran: 2, failed: 0 });
        return Object.fromEntries(counter.calls);
      };
      await tick(); // each workspace's first look
      await tick(); // idle

      // An action assigned to Amelia in the web app; Slack cannot open her DM for now.
      const a = await webActionIn(w, 1, { task: 'Change the dressing in room 4', due: new Date(w.world!.now() + 3 * HOUR), assigned_to: ameliaCare });
      w.fake.faults.failNext('conversations.open', 20, 'internal_error');
      const worked = await tick();
      w.fake.faults.clear();
      expect(dms(a._id)).toHaveLength(0);
      // The poll that worked the action asked for itself (its DM just failed), and swept in the same run.
      expect(worked.anyUnfinishedDeliveries).toBe(1);
      expect(worked.unfinishedDeliveries ?? 0).toBeGreaterThan(0);

      // The next tick: one question for both workspaces; Care Home's poll, told of its unfinished DM, sweeps it.
      const swept = await tick();
      expect(swept.workspacesWithUnfinishedDeliveries).toBe(1);
      expect(swept.anyUnfinishedDeliveries ?? 0).toBe(0);
      expect(swept.unfinishedDeliveries ?? 0).toBeGreaterThan(0);
      expect(dms(a._id)).toHaveLength(1);

      // Idle again: still the one question a tick, no sweep, nothing per workspace; the DM not sent again.
      for (let i = 0; i < 2; i++) {
        const idle = await tick();
        expect(idle.workspacesWithUnfinishedDeliveries).toBe(1);
        expect(idle.anyUnfinishedDeliveries ?? 0).toBe(0);
        expect(idle.unfinishedDeliveries ?? 0).toBe(0);
        expect(idle.getCursor ?? 0).toBe(0);
      }
      expect(dms(a._id)).toHaveLength(1);
    },
    90_000,
  );
});
