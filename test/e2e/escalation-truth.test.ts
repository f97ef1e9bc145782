/**
 * Issue 32, "Escalation says only what happened": each step of the ladder names whom it reached, a step with
 * nobody to reach (no seniors named for the shift on, no managers' channel) says so in words on the alert and
 * in the managers' post, the admins are told once how to fix it (per missing setting, across ticks, actions and
 * instances), and History shows each step with its target or the reason it was skipped, unchanged by later
 * settings. Two instances on one database (a SQLite file, then PostgreSQL) run every escalation tick.
 * Clocks: from 2027-06-15 19:30 UTC (20:30 in London, BST: the Night shift, 19:00–07:00), moved step by step.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ComposedApp } from '../../src/compose.js';
import { createTestSchema, PG_SKIPPED, TEST_DATABASE_URL, type TestSchema } from '../helpers/pg.js';
import { anotherInstance } from './fixtures/app-instance.js';
import { deliveryActionId, deliveryKind, poll } from './fixtures/jobs-support.js';
import { urlWithSchema } from './fixtures/spawn-instance.js';
import { command, linkDirectly, startHarness, webAppAction, type Harness } from './harness.js';

const START = new Date('2027-06-15T19:30:00Z');
const MIN = 60_000;
// Times in posts are Slack dates, which the fake shows as "8:45 PM"; History's are "20:45".

/** Where the app keeps its data: a fresh SQLite file or a fresh PostgreSQL schema (each with its own data folder). */
type Database = () => Promise<{ dataDir: string; databaseUrl?: string; close(): Promise<void> }>;

const sqliteFile: Database = async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'care-escalation-truth-'));
  return { dataDir, close: () => rm(dataDir, { recursive: true, force: true }) };
};
const postgres: Database = async () => {
  const schema: TestSchema = await createTestSchema(TEST_DATABASE_URL!, 'escalation_truth');
  const dataDir = await mkdtemp(join(tmpdir(), 'care-escalation-truth-pg-'));
  return {
    dataDir,
    databaseUrl: urlWithSchema(TEST_DATABASE_URL!, schema.name),
    close: async () => {
      await schema.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
};

function truthSuite(name: string, database: Database) {
  describe(`escalation says only what happened (${name}, two instances)`, () => {
    let h: Harness;
    let b: ComposedApp;
    let db: Awaited<ReturnType<Database>>;

    type Message = { metadata?: { event_type?: string; event_payload?: Record<string, unknown> } };
    const ofAction = (kind: string, id: string) => (m: Message) => deliveryKind(m) === kind && deliveryActionId(m) === id;
    const alert = (id: string) => h.fake.messages('#care-leads').find(ofAction('urgent', id));
    const alertText = (id: string) => {
      const a = alert(id);
      return a ? h.fake.visibleText(a, { viewer: 'amelia' }) : '';
    };
    const managersPosts = (id: string) => h.fake.messages('#general').filter(ofAction('escalation', id));
    const managersText = (id: string) => managersPosts(id).map((m) => h.fake.visibleText(m, { viewer: 'amelia' }));
    const seniorDms = (user: string, id: string) => h.fake.dms(user).filter(ofAction('escalation', id));
    /** The admins' notices that a step had nobody to reach. */
    const gapNotices = () => h.fake.dms('amelia').filter((m) => deliveryKind(m) === 'escalation-gap');
    const gapTexts = () => gapNotices().map((m) => h.fake.visibleText(m, { viewer: 'amelia' }));

    /** One escalation tick on both instances at once, then on each again. */
    async function tick(): Promise<void> {
      await Promise.all([h.app.jobs.runOnce('escalations'), b.jobs.runOnce('escalations')]);
      await b.jobs.runOnce('escalations');
      const run = await h.app.jobs.runOnce('escalations');
      const result = run.result as { error?: string } | undefined;
      if (result?.error) throw new Error(`the escalation job failed: ${result.error}`);
    }

    /** A new urgent action made in the web app, alerted by a poll; `began`: when it became urgent (the care system's time). */
    async function urgentAction(task: string): Promise<{ id: string; no: string; began: number }> {
      await h.setTime(new Date(h.now().getTime() + 5_000));
      const a = await webAppAction(h, { task, due: new Date(h.now().getTime() + 3 * 60 * MIN), urgent: true });
      await poll(h);
      expect(alert(a._id), 'the urgent alert').toBeDefined();
      return { id: a._id, no: a.action_no, began: Date.parse(String(a.modified)) };
    }

    /** Ticks at each of `minutes` after `began`. */
    async function ticksAt(began: number, minutes: number[]): Promise<void> {
      for (const m of minutes) {
        await h.setTime(new Date(began + m * MIN + 2_000));
        await tick();
      }
    }

    /** Amelia opens the action's card and clicks History: the modal's text as she reads it. */
    async function historyOf(actionNo: string): Promise<string> {
      await command(h, 'amelia', `/care show ${actionNo}`);
      await h.driver.clickButton('amelia', { ephemeral: true, channel: '#care-team', text: 'History' });
      return h.fake.waitFor(
        () => {
          const m = h.fake.openModal('amelia');
          const text = m ? h.fake.visibleText(m.view, { viewer: 'amelia' }) : '';
          return text.includes(`History of action #${actionNo}`) ? text : undefined;
        },
        { timeoutMs: 10_000, message: 'no history' },
      );
    }

    beforeAll(async () => {
      db = await database();
      const where = { dataDir: db.dataDir, ...(db.databaseUrl ? { databaseUrl: db.databaseUrl } : {}) };
      h = await startHarness({ startAt: START, ...where, sandbox: { seed: 'empty' }, jobs: { instanceId: 'instance-a' } });
      b = await anotherInstance(h, { ...where, instanceId: 'instance-b', sharedClock: true });
      for (const person of ['amelia', 'priya', 'oliver']) await linkDirectly(h, person);
      await command(h, 'amelia', '/care digest here urgent-only', { channel: '#care-leads' }); // private: task text shown
      await poll(h); // the first look
    });
    afterAll(async () => {
      await b?.stop();
      await h?.close();
      await db?.close();
    });
    beforeEach(async () => {
      while (h.fake.openModal('amelia')) await h.driver.modal('amelia').close();
    });

    const ids: Record<string, { id: string; no: string; began: number }> = {};

    it('with nothing named (the default): the alert says each step reached nobody and why; the admins are told once of each missing setting, across ticks, actions and instances', async () => {
      ids.first = await urgentAction('Mrs Patel has not had her insulin');
      ids.second = await urgentAction('Mr Jones fell in the lounge');
      for (const minutes of [15, 30, 45, 60]) {
        await h.setTime(new Date(ids.second.began + minutes * MIN + 2_000));
        await tick();
      }
      for (const a of [ids.first, ids.second]) {
        const text = alertText(a.id);
        expect(text).toMatch(/Reminder sent in thread at \d{1,2}:\d\d [AP]M/);
        expect(text).toMatch(/Nobody DMed at \d{1,2}:\d\d [AP]M: no seniors are named for the Night shift/);
        expect(text).toMatch(/Managers not told at \d{1,2}:\d\d [AP]M: no managers’ channel is set/);
        expect(text).not.toMatch(/Escalated to/);
      }
      // One notice per missing setting, however many actions met it and instances ran the ticks.
      expect(gapNotices()).toHaveLength(2);
      const [seniors, managers] = [gapTexts().find((t) => t.includes('seniors')), gapTexts().find((t) => t.includes('managers’ channel is set'))];
      expect(seniors).toContain('No seniors are named for the Night shift');
      expect(seniors).toContain('/care escalation seniors Night @person…');
      expect(managers).toContain('/care escalation managers #channel');
      expect(gapNotices().every((m) => !/insulin|Patel|Jones/.test(m.text ?? ''))).toBe(true);
    });

    it('managers’ channel set, no seniors named: the managers’ post says nobody was DMed and why, never that the seniors were asked', async () => {
      expect((await command(h, 'amelia', '/care escalation managers <#C0GENERAL|general>')).text).toContain('Escalation set.');
      const a = (ids.third = await urgentAction('Check on Mr Ahmed overnight'));
      await ticksAt(a.began, [15, 30, 45]);
      expect(managersPosts(a.id)).toHaveLength(1);
      const post = managersText(a.id)[0]!;
      expect(post).not.toMatch(/seniors on shift were asked|were asked first/);
      expect(post).toContain('no seniors are named for the Night shift, so nobody was DMed');
      expect(post).toContain('a reminder went to the alert’s thread in #care-leads');
      expect(post).not.toContain('Ahmed'); // #general is public and not opted in to task text
      expect(alertText(a.id)).toMatch(/Nobody DMed at \d{1,2}:\d\d [AP]M: no seniors are named for the Night shift · Escalated to #general at/);
      // The seniors' gap was told already: no second notice.
      expect(gapNotices()).toHaveLength(2);
    });

    it('History lists each step with whom it reached or why nobody, and naming seniors later rewrites none of it', async () => {
      expect((await command(h, 'amelia', '/care escalation seniors Night <@U0PRIYA|priya>')).text).toContain('Night: @priya');
      await tick();
      const third = await historyOf(ids.third!.no);
      expect(third).toMatch(/Escalated: reminder in the alert thread in #care-leads at \d\d:\d\d/);
      expect(third).toMatch(/Escalation: nobody DMed, no seniors are named for the Night shift at \d\d:\d\d/);
      expect(third).toMatch(/Escalated to #general \(the managers’ channel\) at \d\d:\d\d/);
      await h.driver.modal('amelia').close();
      const first = await historyOf(ids.first!.no);
      expect(first).toContain('Escalation: nobody DMed, no seniors are named for the Night shift');
      expect(first).toContain('Escalation: managers not told, no managers’ channel is set');
      expect(alertText(ids.third!.id)).toContain('Nobody DMed');
      expect(seniorDms('priya', ids.third!.id)).toHaveLength(0);
    });

    it('seniors named: their DMs and the managers’ post name them and their shift', async () => {
      await command(h, 'amelia', '/care escalation seniors Night <@U0PRIYA|priya> <@U0OLIVER|oliver>');
      const a = await urgentAction('Mrs Patel’s blood sugar is low');
      await ticksAt(a.began, [15, 30]);
      for (const senior of ['priya', 'oliver']) {
        expect(seniorDms(senior, a.id), `${senior}'s DMs`).toHaveLength(1);
        const dm = h.fake.visibleText(seniorDms(senior, a.id)[0]!, { viewer: senior });
        expect(dm).toContain('You are told as a senior on the Night shift');
        expect(dm).toContain('a reminder went to the alert’s thread in #care-leads');
      }
      await ticksAt(a.began, [45]);
      const post = managersText(a.id)[0]!;
      expect(post).toMatch(/the seniors of the Night shift \(@priya, @oliver\) were DMed at \d{1,2}:\d\d [AP]M/);
      expect(alertText(a.id)).toMatch(/Escalated to @priya, @oliver at \d{1,2}:\d\d [AP]M/);
      expect(await historyOf(a.no)).toContain('Escalated to @priya, @oliver (DM, the seniors of the Night shift)');
      expect(gapNotices()).toHaveLength(2);
    });

    it('a ladder without the seniors step: the managers’ post claims no seniors', async () => {
      await command(h, 'amelia', '/care escalation steps thread,managers');
      const a = await urgentAction('Call the GP about the rash');
      await ticksAt(a.began, [15, 30]);
      expect(managersPosts(a.id)).toHaveLength(1);
      const post = managersText(a.id)[0]!;
      expect(post).not.toMatch(/senior/i);
      expect(post).toContain('The managers’ channel is told: nobody has taken it. Before this: a reminder went to the alert’s thread in #care-leads');
      expect(seniorDms('priya', a.id)).toHaveLength(0);
    });
  });
}

truthSuite('SQLite file', sqliteFile);

if (!TEST_DATABASE_URL) it.skip(PG_SKIPPED, () => {});
else truthSuite('PostgreSQL', postgres);
