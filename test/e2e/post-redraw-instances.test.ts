/**
 * Issue 32: a redraw is done exactly once across instances and survives a crash. Two app instances on one
 * PostgreSQL schema: instance B (this process) posted an urgent alert; instance A (a child process, polling every
 * second) sees the action completed in the web app, claims the alert's redraw and is SIGKILLed before its edit
 * lands (its chat.update is held, then refused, by the Slack fake). B takes the stale claim over: the alert is
 * redrawn once, and says it is completed.
 * Clocks: the machine's, as one world (the harness's clock is the real one here: a child process cannot share a
 * moved clock); the test asserts no times, only what Slack holds and how often it was edited.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { FakeMessage } from '../../dev/slack-fake/index.js';
import { createTestSchema, PG_SKIPPED, TEST_DATABASE_URL } from '../helpers/pg.js';
import { deliveryActionId, deliveryKind, poll } from './fixtures/jobs-support.js';
import { spawnInstance, urlWithSchema, type ChildInstance } from './fixtures/spawn-instance.js';
import { command, linkDirectly, startHarness, webAppAction, type Harness } from './harness.js';

const STALE_MS = 3_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

if (!TEST_DATABASE_URL) {
  describe('a redraw across two instances on PostgreSQL', () => {
    it.skip(PG_SKIPPED, () => undefined);
  });
} else {
  describe('a redraw across two instances on PostgreSQL (issue 32)', () => {
    const cleanup: (() => Promise<unknown>)[] = [];
    afterAll(async () => {
      for (const step of cleanup.reverse()) await step().catch(() => undefined);
    }, 60_000);

    it('the instance that claimed the redraw is SIGKILLed before its edit: the other takes it over, the alert is redrawn once', {
      timeout: 120_000,
    }, async () => {
      const schema = await createTestSchema(TEST_DATABASE_URL!, 'post_redraw_kill');
      cleanup.push(() => schema.drop());
      const databaseUrl = urlWithSchema(schema.url, schema.name);
      const h: Harness = await startHarness({ sandbox: { seed: 'empty' }, databaseUrl, jobs: { instanceId: 'instance-b', staleAfterMs: STALE_MS } });
      cleanup.push(() => h.close());
      await linkDirectly(h, 'sophie');
      await command(h, 'amelia', '/care digest here urgent-only', { channel: '#care-leads' });
      await poll(h); // the first look
      const a = await webAppAction(h, { task: 'Check the bed rails in room 4', due: new Date(Date.now() + 3 * 3_600_000), urgent: true });
      await sleep(1_100); // the next second of the care system's `modified`
      await poll(h);
      const alert = () => h.fake.messages('#care-leads').find((m: FakeMessage) => deliveryKind(m) === 'urgent' && deliveryActionId(m) === a._id)!;
      const alertText = () => h.fake.visibleText(alert(), { viewer: 'amelia' });
      expect(alertText()).toContain('[Take it]');
      const ts = alert().ts;

      // Instance A's edit of the alert is held for 6 s and then refused: it is killed before it lands.
      h.fake.faults.failNext('chat.update', 1, { delayMs: 6_000, error: 'internal_error', args: { ts } });
      const logs: string[] = [];
      const child: ChildInstance = await spawnInstance(
        {
          care: { baseUrl: h.sandbox.url, ...h.sandbox.credentials, rateLimitPerSecond: 50 },
          slack: { apiUrl: h.fake.apiUrl, botToken: h.fake.botToken, signingSecret: 'instance-a-secret' },
          databaseUrl,
          instanceId: 'instance-a',
          pollSeconds: 1,
          overlapMs: 20_000,
          staleAfterMs: 30_000,
          leaseMs: 2_000,
        },
        { logs },
      );
      cleanup.push(() => child.stop());

      await sleep(1_100);
      await h.control(`actions/${a._id}/complete`, {});
      // A's poll sees it and claims the alert's redraw.
      const claimedByA = async () =>
        (await h.app.store.listDeliveries({ kind: 'redraw', actionId: a._id, state: 'pending' })).some((d) => d.claimedBy === 'instance-a');
      for (let i = 0; i < 200 && !(await claimedByA()); i++) await sleep(100);
      expect(await claimedByA(), `instance A never claimed the redraw: ${logs.slice(-5).join('\n')}`).toBe(true);
      await sleep(300); // its edit is on its way (held by Slack)
      await child.kill();
      expect(await child.exited).toBe('SIGKILL');
      expect(alertText()).toContain('[Take it]'); // not redrawn by A

      // A's claim and lease go stale; B's poll takes the redraw over.
      await sleep(STALE_MS + 2_500);
      await poll(h);
      await h.fake.waitFor(() => (alertText().includes('was completed in the care system') ? true : undefined), {
        timeoutMs: 15_000,
        message: `the alert was never redrawn: ${alertText()}`,
      });
      await poll(h);
      const edits = h.fake.calls('chat.update').filter((c) => c.args.ts === ts && c.result.ok === true);
      expect(edits).toHaveLength(1);
      expect(alertText()).not.toContain('[Take it]');
      const rows = await h.app.store.listDeliveries({ kind: 'redraw', actionId: a._id });
      expect(rows.filter((r) => r.state === 'sent').map((r) => r.claimedBy)).toEqual(['instance-b']);
    });
  });
}
