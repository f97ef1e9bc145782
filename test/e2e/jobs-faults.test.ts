/**
 * Exactly-once completion notices under faults: two app instances (child
 * processes) on one PostgreSQL schema, one killed with SIGKILL mid-run and
 * started again; 20% care API 5xx plus forced 429s; Slack 5xx and ratelimited
 * answers on chat.postMessage / conversations.open, and some posts answered
 * only after 12 s; the instances' clocks 60 s apart; the care system's clock
 * 30 minutes behind both; one person's email lookup failing for the whole run.
 * 100 actions completed (some with /care done in Slack, most in the web app): 200 notices through the same faults
 * (200 actions proved no more, and took half a minute longer).
 * At the end every expected DM is there exactly once, and the address that
 * could not be looked up is failed in the ledger with the reason, not pending.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createCareClient } from '../../src/care/index.js';
import { careWorkspace } from '../../dev/demo/care-workspace.js';
import { startSandbox, type RunningSandbox } from '../../dev/sandbox/index.js';
import { createSlackDriver, startSlackFake, type SlackFake } from '../../dev/slack-fake/index.js';
import { openStore, workspaceKey } from '../../src/store/index.js';
import { createTestSchema, databaseNowMs, PG_SKIPPED, TEST_DATABASE_URL, type TestSchema } from '../helpers/pg.js';
import { deliveryActionId, deliveryKind } from './fixtures/jobs-support.js';
import type { InstanceConfig } from './fixtures/instance.js';
import { spawnInstance, urlWithSchema, type ChildInstance } from './fixtures/spawn-instance.js';

const SIGNING_SECRET = 'faults-signing-secret';
const ACTIONS = 100;
const VIA_SLACK_EVERY = 10; // every 10th action is completed with /care done
/** The instance inside a poll is SIGKILLed after this many completions (of 10 a batch), and started again after RESTART_AT. */
const KILL_AT = 40;
const RESTART_AT = 60;
const RECIPIENTS = ['sophie', 'priya'] as const; // linked (Amelia, by email_to, cannot be looked up all run)
const AMELIA = 'amelia.hughes@brightwatercare.example';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

if (!TEST_DATABASE_URL) {
  describe('jobs under faults (two instances on PostgreSQL)', () => {
    it.skip(PG_SKIPPED, () => undefined);
  });
} else {
  const pgUrl = TEST_DATABASE_URL;
  describe('jobs under faults (two instances on PostgreSQL)', () => {
    // Undone in reverse in afterAll, which also runs when the test times out (no stray processes or schemas).
    const cleanup: (() => Promise<unknown>)[] = [];
    afterAll(async () => {
      for (const step of cleanup.reverse()) await step().catch(() => undefined);
    }, 120_000);

    it('delivers every completion notice exactly once through faults, slow posts, skewed clocks, a SIGKILL and a restart', { timeout: 480_000 }, async () => {
      const childLogs: string[] = [];
      try {
        // The care system's clock is 30 minutes behind the app's.
        const sandbox: RunningSandbox = await startSandbox({
          port: 0,
          seed: 'empty',
          controls: true,
          rateLimit: 0,
          startTime: new Date(Date.now() - 30 * 60_000),
        });
        cleanup.push(() => sandbox.stop());
        const fake: SlackFake = await startSlackFake({ workspace: careWorkspace(), rateLimits: false }); // a Slack without limits: this test is about faults
        cleanup.push(() => fake.close());
        const schema: TestSchema = await createTestSchema(pgUrl, 'jobs_faults');
        cleanup.push(() => schema.drop());
        const databaseUrl = urlWithSchema(pgUrl, schema.name);
        const dataDir = await mkdtemp(join(tmpdir(), 'care-faults-'));
        cleanup.push(() => rm(dataDir, { recursive: true, force: true }));
        const control = async (path: string, body?: unknown) => {
          const res = await fetch(`${sandbox.controlsUrl}/${path}`, {
            method: body === undefined ? 'GET' : 'POST',
            headers: { 'content-type': 'application/json' },
            ...(body === undefined ? {} : { body: JSON.stringify(body) }),
          });
          if (!res.ok) throw new Error(`control ${path}: ${res.status} ${await res.text()}`);
          return res.json() as Promise<any>;
        };

        // Short intervals so a dead instance's lease is taken over within seconds. A claim goes stale after
        // 30 s: longer than twice the slowest post (12 s), as the deliverer's no-second-post rule assumes.
        // The overlap (20 s; 5 min in production) must span a poll's own run: an action read during a second and
        // changed again within that second keeps its `modified`, and is re-read only while that second is in the overlap.
        // A failed poll (a care API fault outlasting the client's retries) waits a second or two, not a minute: the
        // back-off is scaled to the 1 s poll as the lease is, so the ledger's retries and stale claims are still swept.
        const jobs = { pollSeconds: 1, overlapMs: 20_000, staleAfterMs: 30_000, leaseMs: 4_000, backoff: { baseMs: 1_000, maxMs: 4_000 } };
        const common = {
          care: { baseUrl: sandbox.url, ...sandbox.credentials, rateLimitPerSecond: 50 },
          // 400 DMs to two people within minutes is more than Slack's limits allow: this test is about faults
          // (test/e2e/slack-limits.test.ts is the one under today's limits).
          slack: { apiUrl: fake.apiUrl, botToken: fake.botToken, signingSecret: SIGNING_SECRET, paced: false },
        };
        // Both instances are child processes on the same schema; whichever is mid-poll gets killed.
        // Instance b's clock is 60 s ahead of a's (claims and leases use the database's clock).
        const childConfig = (instanceId: string): InstanceConfig => ({
          ...common,
          databaseUrl,
          dataDir,
          instanceId,
          ...jobs,
          ...(instanceId.startsWith('instance-b') ? { clockOffsetMs: 60_000 } : {}),
        });
        const instances = new Map<string, ChildInstance>();
        const launch = async (instanceId: string) => {
          const child = await spawnInstance(childConfig(instanceId), { logs: childLogs });
          instances.set(instanceId, child);
          return child;
        };
        cleanup.push(async () => {
          for (const child of instances.values()) await child.stop();
        });
        await Promise.all([launch('instance-a'), launch('instance-b')]);
        // A store handle of the test's own (setup and final counts), and a driver per instance.
        const store = await openStore({ databaseUrl });
        cleanup.push(() => store.close());
        const care = createCareClient({ baseUrl: sandbox.url, ...sandbox.credentials, rateLimitPerSecond: 50 });
        cleanup.push(() => care.close());
        const driverFor = (child: ChildInstance) =>
          createSlackDriver({ fake, eventsUrl: `http://127.0.0.1:${child.port}/slack/events`, signingSecret: SIGNING_SECRET });

        // People and groups: Sophie and Priya linked (the groups' members), Amelia reached by email_to, Oliver linked.
        const careUser = async (email: string) =>
          (await care.users.list({ filters: { q: email }, attributes: ['_id', 'email'], per_page: 10 })).items.find((u) => u.email === email)!._id;
        // Oliver (in neither group) completes his own actions in Slack: whoever completes an action is told nothing of it.
        const oliverCare = await careUser('oliver.bennett@brightwatercare.example');
        for (const [slackUserId, email] of [
          ['U0SOPHIE', 'sophie.marsh@brightwatercare.example'],
          ['U0PRIYA', 'priya.sharma@brightwatercare.example'],
          ['U0OLIVER', 'oliver.bennett@brightwatercare.example'],
        ] as const) {
          await store.upsertLink({ teamId: fake.teamId, slackUserId, careUserId: await careUser(email), method: 'admin', linkedBy: 'U0AMELIA' });
        }
        const groups = await care.notificationGroups.collect({ attributes: ['_id', 'name'], per_page: 100, limit: 100 });
        const notify = ['Willow Bank seniors', 'Heather Lodge nurses'].map((n) => groups.find((g) => g.name === n)!._id);

        const actions: { _id: string; action_no: string }[] = [];
        for (let i = 0; i < ACTIONS; i += 20) {
          actions.push(
            ...(await Promise.all(
              Array.from({ length: Math.min(20, ACTIONS - i) }, (_, k) =>
                control('actions', {
                  task: `Fault drill ${i + k}`,
                  due: new Date(Date.now() + 86_400_000).toISOString(),
                  assigned_to: oliverCare,
                  notify_on_complete: notify,
                }),
              ),
            )),
          );
        }

        // Faults on: care API 20% 5xx and bursts of 429; Slack 5xx and ratelimited (Retry-After: 1) on the two calls a DM needs.
        await control('faults', { errorRate: 0.2, errorStatus: 503, force429: 3 });
        fake.faults.serverErrors(0.08, { methods: ['chat.postMessage', 'conversations.open'] });
        // Amelia (reached by email_to) cannot be looked up all run; six posts are answered only after 12 s.
        fake.faults.failNext('users.lookupByEmail', 1_000_000, { status: 500, args: { email: AMELIA } });
        fake.faults.failNext('chat.postMessage', 6, { delayMs: 12_000 });
        // For the first 15 s: a ratelimited answer now and then (never more than one waiting per method,
        // so retries get through) and a forced care API 429 every 3 s. The random 5xx stay on throughout.
        let ticks = 0;
        const throttle = setInterval(() => {
          if (++ticks > 15) return;
          const waiting = new Set(fake.faults.config.next.map((n) => n.method));
          for (const method of ['chat.postMessage', 'conversations.open']) {
            if (!waiting.has(method)) fake.faults.failNext(method, 1, { status: 429, error: 'ratelimited', retryAfterSec: 1 });
          }
          if (ticks % 3 === 0) void control('faults', { force429: 1 }).catch(() => undefined);
        }, 1_000);
        cleanup.push(async () => clearInterval(throttle));

        // Complete them: every 10th with /care done in Slack, the rest in the web app.
        let killed: string | undefined;
        // The killed instance's restart, started while the completions go on (a process takes seconds to start).
        let restarted: Promise<ChildInstance> | undefined;
        for (let i = 0; i < ACTIONS; i += 10) {
          const batch = actions.slice(i, i + 10);
          const alive = [...instances.entries()].find(([id]) => id !== killed)![1];
          const driver = driverFor(alive);
          await Promise.all(
            batch.map(async (action, k) => {
              if ((i + k) % VIA_SLACK_EVERY === 0) await driver.slash('oliver', `/care done ${action.action_no}`, { channel: '#care-team' });
              else await control(`actions/${action._id}/complete`, {});
            }),
          );
          if (i === KILL_AT) {
            // SIGKILL the instance that is inside a poll right now (it holds the changes-poll lease).
            const deadline = Date.now() + 15_000;
            while (!killed && Date.now() < deadline) {
              const lease = await store.getLease(workspaceKey('changes-poll', fake.teamId)); // one lease per kind and workspace
              // Leases run on the database's clock, not this process's (which test:clock moves).
              if (lease && lease.expiresAt > (await databaseNowMs(databaseUrl)) && instances.has(lease.holder)) killed = lease.holder;
              else await sleep(10);
            }
            expect(killed, 'an instance held the changes-poll lease').toBeDefined();
            await instances.get(killed!)!.kill();
            expect(await instances.get(killed!)!.exited).toBe('SIGKILL');
          }
          if (i === RESTART_AT) {
            restarted = launch(`${killed}-restarted`);
            restarted.catch(() => undefined); // awaited below; a failed start fails the test there
          }
          await sleep(150);
        }

        expect(await restarted, 'the killed instance started again').toBeDefined();

        // A /care done that failed for the person (care API down for all retries) is done in the web app instead.
        for (const action of actions) {
          const current = await control(`actions/${action._id}`);
          if (!current.completed) await control(`actions/${action._id}/complete`, {});
        }

        // Read the fake's live state (cheap, no copies): completion DMs per person and action.
        const imOf = (userId: string) => fake.state.channels.find((c) => c.is_im && c.user === userId)?.id;
        const delivered = () => {
          const byPerson = new Map<string, Map<string, number>>();
          for (const person of RECIPIENTS) {
            const counts = new Map<string, number>();
            const im = imOf(`U0${person.toUpperCase()}`);
            for (const m of (im && fake.state.messages[im]) || []) {
              if (deliveryKind(m) === 'completion') counts.set(deliveryActionId(m)!, (counts.get(deliveryActionId(m)!) ?? 0) + 1);
            }
            byPerson.set(person, counts);
          }
          return byPerson;
        };
        const total = () => [...delivered().values()].reduce((n, c) => n + c.size, 0);
        const expected = ACTIONS * RECIPIENTS.length;
        // A bound on waiting, not a speed target: on 2 busy cores with the rest of the suite this can take minutes.
        for (const deadline = Date.now() + 360_000; total() < expected; await sleep(500)) {
          if (Date.now() > deadline) throw new Error(`not every notice arrived under faults (${total()} of ${expected})`);
        }

        // Faults off (but Amelia's lookup, failing the whole run); let claims left by the killed instance go
        // stale and be settled, then look for late duplicates: once no claim is pending, every notice is sent in the
        // ledger and no post is on its way to Slack (a slowed one lands 12 s after it was sent), nothing is left
        // that could post again; a few more polls of both instances' retry sweeps, and the count is final.
        clearInterval(throttle);
        fake.faults.clear();
        fake.faults.failNext('users.lookupByEmail', 1_000_000, { status: 500, args: { email: AMELIA } });
        await control('faults', { reset: true });
        for (const deadline = Date.now() + 90_000; (await store.countDeliveries({ kind: 'completion', state: 'pending' })) > 0; await sleep(500)) {
          if (Date.now() > deadline) throw new Error('claims stayed pending');
        }
        const settled = async () =>
          (await store.countDeliveries({ kind: 'completion', state: 'pending' })) === 0 &&
          (await store.countDeliveries({ kind: 'completion', state: 'sent' })) >= ACTIONS * RECIPIENTS.length &&
          fake.callsInFlight() === 0;
        for (const deadline = Date.now() + 90_000; !(await settled()); await sleep(250)) {
          if (Date.now() > deadline) throw new Error('notices still unsettled, or posts still on their way to Slack');
        }
        await sleep(5 * jobs.pollSeconds * 1_000);

        const final = delivered();
        const duplicates: string[] = [];
        const lost: string[] = [];
        for (const person of RECIPIENTS) {
          const counts = final.get(person)!;
          for (const action of actions) {
            const n = counts.get(action._id) ?? 0;
            if (n === 0) lost.push(`${person}:${action.action_no}`);
            if (n > 1) duplicates.push(`${person}:${action.action_no}×${n}`);
          }
        }
        expect(duplicates).toEqual([]);
        expect(lost).toEqual([]);
        const deliveryIds = RECIPIENTS.flatMap((p) =>
          (fake.state.messages[imOf(`U0${p.toUpperCase()}`)!] ?? [])
            .filter((m) => deliveryKind(m) === 'completion')
            .map((m) => String(m.metadata!.event_payload!.delivery_id)),
        );
        expect(new Set(deliveryIds).size).toBe(deliveryIds.length);
        expect(await store.countDeliveries({ kind: 'completion', state: 'sent' })).toBe(ACTIONS * RECIPIENTS.length);

        // The address that could not be looked up held back no one, was never guessed at, and every one of its
        // deliveries ends failed with the reason an admin reads (retryable until its attempts are spent).
        expect((fake.state.messages[imOf('U0AMELIA') ?? ''] ?? []).filter((m) => deliveryKind(m) === 'completion')).toEqual([]);
        // Its rows stay retryable, so the retry sweep may hold one mid-attempt (pending) at any moment: read them
        // when none is (a bound on waiting, not a speed target).
        const readAddressRows = async () => (await store.listDeliveries({ kind: 'completion', limit: 10_000 })).filter((d) => d.recipient.startsWith('email:'));
        let addressRows = await readAddressRows();
        for (const deadline = Date.now() + 60_000; addressRows.some((d) => d.state === 'pending') && Date.now() < deadline; ) {
          await sleep(250);
          addressRows = await readAddressRows();
        }
        expect(new Set(addressRows.map((d) => d.actionId)).size).toBe(ACTIONS);
        expect(addressRows.filter((d) => d.state !== 'failed')).toEqual([]);
        expect(addressRows.filter((d) => !d.lastError?.includes('users.lookupByEmail'))).toEqual([]);

        // The faults really happened.
        const slackStatuses = fake.calls().map((c) => c.status);
        expect(slackStatuses.filter((s) => s === 429).length).toBeGreaterThan(0);
        expect(slackStatuses.filter((s) => s >= 500).length).toBeGreaterThan(0);
        expect(fake.calls('chat.postMessage').filter((c) => c.durationMs >= 12_000).length).toBeGreaterThan(0);
        const stats = await control('stats');
        expect(stats.byStatus['503'] ?? 0).toBeGreaterThan(0);
        expect(stats.byStatus['429'] ?? 0).toBeGreaterThan(0);
      } catch (err) {
        if (childLogs.length) process.stderr.write(`child instance logs (last 30):\n${childLogs.slice(-30).join('\n')}\n`);
        throw err;
      }
    });
  });
}
