/**
 * Issue 36: Take it is claimed once. Fifty linked carers press Take it on one urgent alert at the same moment:
 * one press wins (one PATCH to the care API, one assign row in the action's history, the alert says it was taken
 * by the carer the care system now has as its assignee); the other 49 are each told privately who took it, and
 * their presses do not edit the alert (at most the winner's one chat.update).
 * Clocks: one test clock for the care system, Slack and the app (the harness's), held still during the presses.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { careWorkspace } from '../../dev/demo/care-workspace.js';
import { buildSeed, DEFAULT_SEED_VALUE } from '../../dev/sandbox/seed.js';
import type { FakeMessage } from '../../dev/slack-fake/index.js';
import { createTestSchema, TEST_DATABASE_URL, type TestSchema } from '../helpers/pg.js';
import { deliveryActionId, deliveryKind, poll } from './fixtures/jobs-support.js';
import { urlWithSchema } from './fixtures/spawn-instance.js';
import { command, linkDirectly, startHarness, webAppAction, type Harness } from './harness.js';
import { composeApp, type ComposedApp } from '../../src/compose.js';
import { memoryLogger } from '../../src/logging/logger.js';
import { createSlackDriver, type SlackDriver } from '../../dev/slack-fake/index.js';

const START = new Date('2027-06-15T09:00:00Z');
const MIN = 60_000;
const CARERS = 50;
const carer = (i: number) => `carer${i}`;
const carerSlackId = (i: number) => `U0CARER${i}`;

/** The demo care system with fifty more carers (the sandbox's data file), so fifty Slack people can link. */
async function careDataWithCarers(dir: string): Promise<string> {
  const data = buildSeed('empty', DEFAULT_SEED_VALUE, START.getTime());
  const at = START.toISOString().replace(/\.\d{3}Z$/, 'Z');
  for (let i = 0; i < CARERS; i++) {
    data.users.push({
      _id: `c0ffee${String(i).padStart(18, '0')}`,
      created: at,
      modified: at,
      email: `${carer(i)}@brightwatercare.example`,
      first_name: 'Carer',
      last_name: `Number${i}`,
      location_role: 'carer',
      locations: [],
      mobile: null,
    } as (typeof data.users)[number]);
  }
  const file = join(dir, 'care-data.json');
  await writeFile(file, JSON.stringify({ format: 'care-sandbox/1', savedAt: START.toISOString(), clockOffsetMs: 0, data }));
  return file;
}

/** The care workspace with the fifty carers in it, all in #care-leads. */
function workspaceWithCarers() {
  const w = careWorkspace();
  for (let i = 0; i < CARERS; i++) {
    w.users.push({ id: carerSlackId(i), name: carer(i), realName: `Carer Number${i}`, email: `${carer(i)}@brightwatercare.example`, tz: 'Europe/London' });
  }
  const leads = w.channels.find((c) => c.name === 'care-leads')!;
  leads.members = [...leads.members, ...Array.from({ length: CARERS }, (_, i) => carerSlackId(i))];
  return w;
}

const SIGNING_SECRET = 'second-instance-secret';

/** A second app instance on the harness's database, care system, Slack and clock, with a driver of its own. */
async function secondInstance(h: Harness, databaseUrl: string): Promise<{ app: ComposedApp; driver: SlackDriver; dataDir: string }> {
  const dataDir = await mkdtemp(join(tmpdir(), 'take-once-b-'));
  const app = await composeApp({
    slack: { botToken: h.fake.botToken, signingSecret: SIGNING_SECRET, apiUrl: h.fake.apiUrl, lookupFailureTtlMs: 0, paced: true, distribution: 'internal' },
    care: { baseUrl: h.sandbox.url, ...h.sandbox.credentials, rateLimitPerSecond: 50 },
    store: { dataDir, databaseUrl, sharedClock: () => h.now().getTime() },
    timezone: 'Europe/London',
    adminSlackUserIds: ['U0AMELIA'],
    logger: memoryLogger('info'),
    now: () => h.now(),
    jobs: { instanceId: 'instance-b' },
  });
  const { port } = await app.start(0);
  return { app, dataDir, driver: createSlackDriver({ fake: h.fake, eventsUrl: `http://127.0.0.1:${port}/slack/events`, signingSecret: SIGNING_SECRET }) };
}

const DATABASES = [
  ['SQLite', false],
  ['PostgreSQL', true],
] as const;

describe.each(DATABASES)('Take it pressed by fifty at once on %s (two instances on PostgreSQL; issue 36)', (_name, postgres) => {
  let h: Harness;
  let schema: TestSchema | undefined;
  /** PostgreSQL: a second instance on the same database takes every other press. */
  let b: { app: ComposedApp; driver: SlackDriver; dataDir: string } | undefined;
  const slackIdOf = new Map<string, string>(); // care user Id -> Slack user Id
  const carers = Array.from({ length: CARERS }, (_, i) => carer(i));

  beforeAll(async () => {
    if (postgres && !TEST_DATABASE_URL) return;
    let databaseUrl: string | undefined;
    if (postgres) {
      schema = await createTestSchema(TEST_DATABASE_URL!, 'take_it_once');
      databaseUrl = urlWithSchema(schema.url, schema.name);
    }
    const dataFile = await careDataWithCarers(await mkdtemp(join(tmpdir(), 'take-once-')));
    h = await startHarness({
      startAt: START,
      sandbox: { seed: 'empty', dataFile },
      workspace: workspaceWithCarers(),
      ...(databaseUrl ? { databaseUrl } : {}),
    });
    for (let i = 0; i < CARERS; i++) slackIdOf.set(await linkDirectly(h, carer(i)), carerSlackId(i));
    await command(h, 'amelia', '/care digest here urgent-only', { channel: '#care-leads' });
    await poll(h); // the first look
    if (databaseUrl) b = await secondInstance(h, databaseUrl);
  }, 120_000);
  afterAll(async () => {
    await b?.app.stop();
    if (b) await rm(b.dataDir, { recursive: true, force: true });
    await h?.close();
    await schema?.drop();
  });

  it.skipIf(postgres && !TEST_DATABASE_URL)(
    'one press wins: 1 PATCH, 1 assign row, the alert says who the care system has; 49 are told privately who took it',
    { timeout: 120_000 },
    async () => {
      await h.setTime(new Date(h.now().getTime() + 5_000));
      const a = await webAppAction(h, { task: 'Check the bed rails in room 4', due: new Date(h.now().getTime() + 3 * 60 * MIN), urgent: true });
      await poll(h);
      const alert = () => h.fake.messages('#care-leads').find((m: FakeMessage) => deliveryKind(m) === 'urgent' && deliveryActionId(m) === a._id)!;
      const alertText = () => h.fake.visibleText(alert(), { viewer: 'amelia' });
      expect(alertText()).toContain('[Take it]');
      const ts = alert().ts;
      await h.setTime(new Date(h.now().getTime() + 2_000));
      await h.control('stats/reset', {});
      const updatesBefore = h.fake.calls('chat.update').filter((c) => c.args.ts === ts && c.result.ok === true).length;

      // Every other press reaches the second instance, where there is one (PostgreSQL).
      const driverOf = (i: number) => (b && i % 2 === 1 ? b.driver : h.driver);
      const presses = await Promise.all(carers.map((c, i) => driverOf(i).clickButton(c, { channel: '#care-leads', ts, text: 'Take it' })));
      expect(presses.filter((p) => !p.cancelled)).toHaveLength(CARERS); // all fifty reached the app (acks are Slack's 3 s, not this test's)

      // The care system has one assignee: the winner.
      // (Each press is answered at once, and the take is made after: wait for the care system to have an assignee.)
      const after = await h.fake.waitFor(
        async () => {
          const now = await h.control(`actions/${a._id}`);
          return now.assigned_to ? now : undefined;
        },
        { timeoutMs: 10_000, message: 'nobody took it' },
      );
      const winner = slackIdOf.get(String(after.assigned_to));
      expect(winner, `assigned to ${after.assigned_to}`).toBeDefined();
      const winnerName = carer(carers.findIndex((_, i) => carerSlackId(i) === winner));
      await h.fake.waitFor(() => (alertText().includes(`Taken by @${winnerName}`) ? true : undefined), {
        timeoutMs: 10_000,
        message: `the alert never said ${winnerName} took it: ${alertText()}`,
      });
      // Every loser is told who took it, privately, within 3 s of the presses being answered ("<@x> took it first", or
      // "Someone took it meanwhile: it is assigned to <@x> now" for a press that read the action after the take).
      const losers = carers.filter((c) => c !== winnerName);
      expect(losers).toHaveLength(CARERS - 1);
      const told = () => losers.filter((c) => h.fake.ephemerals(c).some((e) => e.text.includes(`<@${winner}>`) && e.text.includes('took it')));
      await h.fake.waitFor(() => (told().length === losers.length ? true : undefined), {
        timeoutMs: 3_000,
        message: `only ${told().length} of ${losers.length} were told who took it`,
      });
      expect(h.fake.ephemerals(winnerName).filter((e) => e.text.includes('took it'))).toHaveLength(0);
      await poll(h); // anything left behind by a press is finished (it would show below)

      const stats = await h.control('stats');
      const patches = Object.values(stats.byRoute['PATCH /v1/actions/:id'] ?? {}).reduce((n: number, c) => n + Number(c), 0);
      expect(patches).toBe(1);
      const assigns = await h.app.store.listAudit({ actionId: a._id, verb: 'action.assign' });
      expect(assigns).toHaveLength(1);
      expect(assigns[0]!.userId).toBe(winner);
      expect(alertText()).toContain(`Taken by @${winnerName}`);
      expect(alertText()).toContain(`· @${winnerName}`); // the assignee the care system has
      const updates = h.fake.calls('chat.update').filter((c) => c.args.ts === ts && c.result.ok === true).length - updatesBefore;
      expect(updates).toBeLessThanOrEqual(1);
    },
  );
});
