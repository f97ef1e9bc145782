/**
 * Issue 36, PostgreSQL work per idle workspace-minute: the changes poll reads again, at every run, the actions
 * modified within its overlap before its cursor. An action version this instance has worked is not worked
 * again (no ledger, audit, memory or due-history call for it), an action modified again is, and an idle poll
 * that follows this instance's own last run writes nothing to the database: it asks one question (is any
 * delivery unfinished?), and its last run is written again only when its refresh is due, so the admins'
 * Status never shows a running poll as late. Two workspaces on one instance (a many-workspace deployment,
 * leases kept), on a real SQLite file and on PostgreSQL; the world's clock is stepped, never the machine's.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { lastRunRefreshMs, type LastPollRun } from '../../src/services/admin/poll-cursors.js';
import { workspaceKey } from '../../src/store/index.js';
import { countCalls } from '../helpers/count-store-calls.js';
import { createTestSchema, TEST_DATABASE_URL, type TestSchema } from '../helpers/pg.js';
import { deliveryActionId, deliveryKind } from './fixtures/jobs-support.js';
import { urlWithSchema } from './fixtures/spawn-instance.js';
import { careCommand, installBoth, linkFirstCareUser, type MultiHarness, startMultiHarness, webActionIn } from './multi-harness.js';

const CARE = 'T0CARE';
const HOUR = 3600_000;

const backends: { name: string; skip: boolean }[] = [
  { name: 'SQLite', skip: false },
  { name: 'PostgreSQL', skip: !TEST_DATABASE_URL },
];

describe.each(backends)('the changes poll when nothing is new, on $name', ({ name, skip }) => {
  let h: MultiHarness | undefined;
  let schema: TestSchema | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
    await schema?.drop();
    schema = undefined;
  });

  const start = async () => {
    schema = name === 'PostgreSQL' ? await createTestSchema(TEST_DATABASE_URL!, 'idle_poll') : undefined;
    h = await startMultiHarness({ steppedClock: true, ...(schema ? { databaseUrl: urlWithSchema(schema.url, schema.name) } : {}) });
    await installBoth(h);
    return h;
  };
  const pollCare = async (harness: MultiHarness) => {
    const run = await harness.app.jobs.runOnce('changes-poll', CARE);
    expect(run.ran).toBe(true);
    const report = run.result as { requests: number; seen: number; error?: string };
    expect(report.error).toBeUndefined();
    return report;
  };
  const editInWebApp = async (harness: MultiHarness, id: string, change: Record<string, unknown>) => {
    const res = await fetch(`${harness.sandbox.accounts[0]!.controlsUrl}/actions/${id}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(change),
    });
    if (!res.ok) throw new Error(`web app edit: ${res.status} ${await res.text()}`);
  };

  it.skipIf(skip)(
    'an action worked once is not worked again while the overlap reads it; an idle poll writes nothing; a change is worked',
    async () => {
      const w = await start();
      const counter = countCalls(w.app.store);
      const team = w.fake.workspace(CARE);
      const alerts = (id: string) => team.messages('#care-team').filter((m) => deliveryKind(m) === 'urgent' && deliveryActionId(m) === id);
      const assignmentDms = (id: string) => team.dms('amelia').filter((m) => deliveryKind(m) === 'assignment' && deliveryActionId(m) === id);
      expect(await careCommand(w, CARE, 'amelia', 'digest here urgent-only')).toMatch(/urgent/i);
      const ameliaCare = await linkFirstCareUser(w, CARE, 'amelia', 1);
      await pollCare(w); // the first look: the cursor starts here

      // The world's clock is the real one plus the steps: the steps below stay well inside half a lease (30 s) of
      // the first look, so the real seconds a loaded machine adds cannot take the lease past it.
      await w.world!.advance(2_000);
      const a = await webActionIn(w, 1, {
        task: 'Mrs Patel needs her insulin',
        due: new Date(w.world!.now() + 3 * HOUR),
        urgent: true,
        assigned_to: ameliaCare,
      });
      await w.world!.advance(2_000);
      await pollCare(w);
      expect(alerts(a._id)).toHaveLength(1);
      expect(assignmentDms(a._id)).toHaveLength(1);

      // Two idle polls, 4 s apart (the overlap reads the action again each time; the lease kept since the first
      // look is surely still this instance's, within half a lease of its taking: the scheduler asks nothing).
      for (let i = 0; i < 2; i++) {
        await w.world!.advance(4_000);
        counter.on();
        const report = await pollCare(w);
        counter.off();
        expect(report.requests).toBe(1);
        expect(report.seen).toBeGreaterThanOrEqual(1); // read again, with any demo action in the overlap
        // Nothing written, no cursor, subscription, ledger or audit read: only whether a delivery is unfinished.
        expect(Object.fromEntries(counter.calls)).toEqual({ anyUnfinishedDeliveries: 1 });
      }
      expect(alerts(a._id)).toHaveLength(1);
      expect(assignmentDms(a._id)).toHaveLength(1);

      // Modified again in the web app: worked. No longer urgent (the alert follows), then urgent anew: a new alert.
      await w.world!.advance(5_000);
      await editInWebApp(w, a._id, { urgent: false });
      await w.world!.advance(5_000);
      counter.on();
      await pollCare(w);
      counter.off();
      expect(counter.calls.get('setCursor') ?? 0).toBeGreaterThan(0); // its urgency remembered
      await w.world!.advance(5_000);
      await editInWebApp(w, a._id, { urgent: true });
      await w.world!.advance(5_000);
      await pollCare(w);
      expect(alerts(a._id)).toHaveLength(2);
      expect(assignmentDms(a._id)).toHaveLength(1);
    },
    90_000,
  );

  it.skipIf(skip)(
    'an idle poll writes its last run again once its refresh is due, so the Status never shows a running poll as late',
    async () => {
      const w = await start();
      await pollCare(w); // the first look
      await w.world!.advance(50_000);
      await pollCare(w); // the first idle poll: its counts are new, so it is written
      const lastRun = async () => JSON.parse((await w.app.store.getCursor(workspaceKey('changes-poll:last-run', CARE)))!) as LastPollRun;
      const written = [Date.parse((await lastRun()).at)];
      // A poll every 50 s (the poll's interval is 60 s; its refresh 90 s, half of the 180 s the Status calls late) for five minutes.
      const refreshMs = lastRunRefreshMs(60);
      for (let i = 0; i < 6; i++) {
        await w.world!.advance(50_000);
        await pollCare(w);
        const run = await lastRun();
        expect(run.ok).toBe(true);
        const age = w.world!.now() - Date.parse(run.at);
        expect(age, `poll ${i + 1}`).toBeLessThan(refreshMs);
        if (Date.parse(run.at) !== written.at(-1)) written.push(Date.parse(run.at));
      }
      // Written every other poll: by the first idle poll, then 100 s, 200 s and 300 s after it.
      expect(written.map((t) => Math.round((t - written[0]!) / 10_000) * 10)).toEqual([0, 100, 200, 300]);
    },
    90_000,
  );
});
