/**
 * Issue 33's proof "two instances with one SIGKILLed between steps: each step once". Two app instances on one
 * PostgreSQL schema: A, a child process running its real scheduler on the test's one world clock (it reads the
 * sandbox's clock control), and B, this process, whose escalation job the test runs. An urgent action nobody answers
 * climbs the ladder: a reminder in the alert's thread (by A), the seniors on shift, the managers' channel.
 *
 * A is SIGKILLed while its seniors' DM to Priya is on its way: Slack has the request and holds it, and posts it once
 * A is gone, so the ledger keeps A's claim, pending. B takes the stale claim over, finds the DM in Slack and does not
 * send it again, and DMs Oliver, whom A never reached. Then a new A and B both run at the managers' step. Each step
 * is in Slack once, in the ledger once (sent, the message Slack holds), and audited once.
 *
 * Clocks: the world starts at 2027-06-15 09:00 UTC (10:00 in London: the Day shift) and is moved by the test; the
 * waits in real time are for the other process's work.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { FakeMessage } from '../../dev/slack-fake/index.js';
import { createTestSchema, PG_SKIPPED, TEST_DATABASE_URL } from '../helpers/pg.js';
import { deliveryActionId, deliveryKind, poll } from './fixtures/jobs-support.js';
import { type ChildInstance, spawnInstance, urlWithSchema } from './fixtures/spawn-instance.js';
import { command, type Harness, linkDirectly, startHarness, webAppAction } from './harness.js';

const START = new Date('2027-06-15T09:00:00Z');
const MIN = 60_000;
const STALE_MS = 3_000;
/** How long Slack holds A's DM to Priya before posting it (A is killed meanwhile). */
const HELD_MS = 4_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Wait for another process's work: `probe` until it holds, else fail with what was seen. */
async function until(probe: () => Promise<boolean>, seen: () => Promise<string>, timeoutMs = 30_000): Promise<void> {
  const end = performance.now() + timeoutMs;
  while (!(await probe())) {
    if (performance.now() > end) throw new Error(await seen());
    await sleep(50);
  }
}

if (!TEST_DATABASE_URL) {
  describe('escalation steps across a SIGKILL', () => {
    it.skip(PG_SKIPPED, () => undefined);
  });
} else {
  describe('escalation steps across two instances, one SIGKILLed between steps (issue 33)', () => {
    const cleanup: (() => Promise<unknown>)[] = [];
    afterAll(async () => {
      for (const step of cleanup.reverse()) await step().catch(() => undefined);
    }, 60_000);

    it('each step of the ladder is in Slack once, in the ledger once and audited once', { timeout: 180_000 }, async () => {
      const schema = await createTestSchema(TEST_DATABASE_URL!, 'escalation_kill');
      cleanup.push(() => schema.drop());
      const databaseUrl = urlWithSchema(schema.url, schema.name);
      const h: Harness = await startHarness({
        startAt: START,
        sandbox: { seed: 'empty' },
        databaseUrl,
        jobs: { instanceId: 'instance-b', staleAfterMs: STALE_MS },
      });
      cleanup.push(() => h.close());
      for (const person of ['priya', 'oliver']) await linkDirectly(h, person);
      await command(h, 'amelia', '/care digest here urgent-only', { channel: '#care-leads' });
      await command(h, 'amelia', '/care escalation after 15');
      await command(h, 'amelia', '/care escalation steps thread,seniors,managers');
      await command(h, 'amelia', '/care escalation followup off');
      expect((await command(h, 'amelia', '/care escalation managers <#C0GENERAL|general>')).text).toContain('Escalation set.');
      expect((await command(h, 'amelia', '/care escalation seniors Day <@U0PRIYA|priya> <@U0OLIVER|oliver>')).text).toContain('Day: @priya @oliver');
      await poll(h); // the first look

      await h.setTime(new Date(h.now().getTime() + 5_000));
      const a = await webAppAction(h, { task: 'Check the pressure mattress in room 2', due: new Date(h.now().getTime() + 3 * 3_600_000), urgent: true });
      await poll(h);
      const began = Date.parse(String(a.modified));
      const ofAction = (kind: string) => (m: FakeMessage) => deliveryKind(m) === kind && deliveryActionId(m) === a._id;
      const alert = () => h.fake.messages('#care-leads').find(ofAction('urgent'));
      expect(alert(), 'the urgent alert').toBeDefined();
      const reminders = () => (alert()?.replies ?? []).filter(ofAction('escalation'));
      const seniorDms = (user: string) => h.fake.dms(user).filter(ofAction('escalation'));
      const managersPosts = () => h.fake.messages('#general').filter(ofAction('escalation'));
      const rows = () => h.app.store.listDeliveries({ kind: 'escalation', actionId: a._id });
      const step = (occurrence: string) => occurrence.slice(occurrence.indexOf('#'));
      const ledger = async () => JSON.stringify((await rows()).map((d) => [step(d.occurrence), d.recipient, d.state, d.claimedBy]));
      const audited = async () => (await h.app.store.listAudit({ actionId: a._id, verb: 'escalate', limit: 50 })).map((e) => String(e.details.step)).sort();

      const start = async (id: string, logs: string[]) => {
        const child: ChildInstance = await spawnInstance(
          {
            care: { baseUrl: h.sandbox.url, ...h.sandbox.credentials, rateLimitPerSecond: 50 },
            slack: { apiUrl: h.fake.apiUrl, botToken: h.fake.botToken, signingSecret: `${id}-secret` },
            databaseUrl,
            instanceId: id,
            pollSeconds: 5,
            staleAfterMs: STALE_MS,
            leaseMs: 2_000,
            worldClockUrl: `${h.sandbox.controlsUrl}/clock`,
          },
          { logs },
        );
        cleanup.push(() => child.stop());
        return child;
      };

      // Step 1, by A's own scheduler: the reminder in the alert's thread. Done once A has recorded it (Slack has the
      // reminder a moment before A's ledger row says sent: a wait on the ledger alone could stop on that row).
      const logsA: string[] = [];
      const instanceA = await start('instance-a', logsA);
      await h.setTime(new Date(began + 15 * MIN + 1_000));
      await until(
        async () => reminders().length === 1 && (await audited()).includes('thread'),
        async () => `A never recorded the reminder: ${await ledger()} ${logsA.slice(-3).join('\n')}`,
      );
      expect((await rows()).map((d) => [step(d.occurrence), d.state, d.claimedBy])).toEqual([['#thread', 'sent', 'instance-a']]);

      // Step 2: A sends the seniors' DMs, Priya's first. Slack holds Priya's (its request has arrived) while A is killed.
      const opened = await fetch(new URL('conversations.open', h.fake.apiUrl), {
        method: 'POST',
        headers: { authorization: `Bearer ${h.fake.botToken}`, 'content-type': 'application/json; charset=utf-8' },
        body: JSON.stringify({ users: 'U0PRIYA' }),
      });
      const priyaIm = ((await opened.json()) as { channel: { id: string } }).channel.id;
      h.fake.faults.failNext('chat.postMessage', 1, { delayMs: HELD_MS, args: { channel: priyaIm } });
      await h.setTime(new Date(began + 30 * MIN + 1_000));
      const priyaRow = async () => (await rows()).find((d) => step(d.occurrence) === '#seniors' && d.recipient.endsWith('/U0PRIYA'));
      await until(
        async () => h.fake.faults.config.next.length === 0 && (await priyaRow())?.claimedBy === 'instance-a',
        async () => `A never sent Priya's seniors' DM: ${await ledger()} ${logsA.slice(-3).join('\n')}`,
      );
      await instanceA.kill();
      expect(await instanceA.exited).toBe('SIGKILL');
      // Killed between the post and its record: the ledger keeps A's claim, pending, and Oliver was not reached.
      expect((await priyaRow())?.state).toBe('pending');
      expect(seniorDms('oliver')).toHaveLength(0);
      // Slack posts the DM it held, though nobody is there for its answer.
      const priyaDm = await h.fake.waitFor(() => seniorDms('priya')[0], { timeoutMs: HELD_MS + 10_000, message: "Slack never posted A's held DM" });

      // B, once A's claim and lease are stale: Priya's DM is found in Slack, not sent again; Oliver is DMed.
      await h.setTime(new Date(h.now().getTime() + STALE_MS + 1_000));
      for (let i = 0; i < 20 && !(await audited()).includes('seniors'); i++) {
        await h.app.jobs.runOnce('escalations');
        await sleep(200);
      }
      expect(await audited(), await ledger()).toEqual(['seniors', 'thread']);
      expect(seniorDms('priya')).toHaveLength(1);
      expect(seniorDms('oliver')).toHaveLength(1);
      expect(h.fake.calls('chat.postMessage').filter((c) => c.args.channel === priyaIm)).toHaveLength(1);
      expect(await priyaRow()).toMatchObject({ state: 'sent', claimedBy: 'instance-b', slackTs: priyaDm.ts });

      // Step 3 with both running: a new A on its scheduler, and B's runs, two at once.
      const logsA2: string[] = [];
      await start('instance-a2', logsA2);
      await h.setTime(new Date(began + 45 * MIN + 1_000));
      await Promise.all([h.app.jobs.runOnce('escalations'), h.app.jobs.runOnce('escalations')]);
      await h.fake.waitFor(() => managersPosts()[0], { timeoutMs: 30_000, message: `no managers' post: ${logsA2.slice(-3).join('\n')}` });
      await until(
        async () => (await audited()).includes('managers'),
        async () => `the managers' step was never recorded: ${await ledger()}`,
      );
      await sleep(6_000); // another tick of A2 (its world runs on)
      await h.app.jobs.runOnce('escalations');

      // Each step once in Slack...
      expect(reminders()).toHaveLength(1);
      expect(seniorDms('priya')).toHaveLength(1);
      expect(seniorDms('oliver')).toHaveLength(1);
      expect(managersPosts()).toHaveLength(1);
      // ...once in the ledger, sent, each row the message Slack holds...
      const final = await rows();
      expect(final.map((d) => [step(d.occurrence), d.recipient, d.state]).sort()).toEqual(
        [
          ['#thread', 'channel:T0CARE/C0LEADS', 'sent'],
          ['#seniors', 'user:T0CARE/U0PRIYA', 'sent'],
          ['#seniors', 'user:T0CARE/U0OLIVER', 'sent'],
          ['#managers', 'channel:T0CARE/C0GENERAL', 'sent'],
        ].sort(),
      );
      const posted = [...reminders(), ...seniorDms('priya'), ...seniorDms('oliver'), ...managersPosts()];
      expect(posted.map((m) => String(m.metadata?.event_payload?.delivery_id)).sort()).toEqual(final.map((d) => String(d.id)).sort());
      expect(posted.map((m) => m.ts).sort()).toEqual(final.map((d) => d.slackTs).sort());
      // ...and audited once.
      expect(await audited()).toEqual(['managers', 'seniors', 'thread']);
      // The alert says every step, as it happened.
      const text = h.fake.visibleText(alert()!, { viewer: 'amelia' });
      expect(text).toContain('Reminder sent in thread');
      expect(text).toMatch(/Escalated to @priya, @oliver|Escalated to @oliver, @priya/);
      expect(text).toContain('#general');
    });
  });
}
