/**
 * "Told when it is done": whoever created an action through Slack gets a DM
 * when it is completed (not when they completed it themselves), once, saying
 * who completed it: a Slack person, someone in the care system's web app, or
 * the care system itself. On SQLite and on PostgreSQL.
 * Clocks: 2026-03-10 09:00 UTC = 09:00 in London (GMT).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestSchema, PG_SKIPPED, TEST_DATABASE_URL, type TestSchema } from '../helpers/pg.js';
import { deliveryActionId, deliveryKind, poll } from './fixtures/jobs-support.js';
import { urlWithSchema } from './fixtures/spawn-instance.js';
import { command, linkDirectly, startHarness, type Harness } from './harness.js';
import { createInSlack as createSlackAction } from './steps.js';

const START = new Date('2026-03-10T09:00:00Z');

function creatorSuite(name: string, databaseUrl: () => string | undefined) {
  describe(`creator's completion DM (${name})`, () => {
    let h: Harness;
    const creatorDms = (person: string, actionId: string) =>
      h.fake.dms(person).filter((m) => deliveryKind(m) === 'creator' && deliveryActionId(m) === actionId);
    const later = () => h.setTime(new Date(h.now().getTime() + 5_000));

    const createInSlack = (user: string, task: string, assignee?: string) => createSlackAction(h, user, task, assignee ? { assignee } : {});

    beforeAll(async () => {
      const url = databaseUrl();
      h = await startHarness({ startAt: START, sandbox: { seed: 'empty' }, ...(url ? { databaseUrl: url } : {}) });
      for (const person of ['amelia', 'sophie', 'priya']) await linkDirectly(h, person);
      await poll(h); // the changes cursor is set
    });
    afterAll(async () => h?.close());
    beforeEach(async () => {
      for (const u of ['amelia', 'sophie', 'priya']) while (h.fake.openModal(u)) await h.driver.modal(u).close();
      await later();
    });

    it('Amelia creates an action through Slack, Sophie completes it in Slack: Amelia is told once, who did it', async () => {
      const a = await createInSlack('amelia', 'Order more dressings for room 4', 'Sophie Marsh');
      await later();
      expect((await command(h, 'sophie', `/care done ${a.action_no}`)).text).toContain('by @sophie');
      const dm = await h.fake.waitFor(() => creatorDms('amelia', a._id)[0], { timeoutMs: 10_000, message: 'Amelia was not told' });
      const seen = h.fake.visibleText(dm, { viewer: 'amelia' });
      expect(seen).toContain(`Action #${a.action_no} that you created was completed by @sophie`);
      expect(seen).toContain('Order more dressings for room 4'); // her own DM: the card, with the task
      expect(dm.text).not.toContain('dressings'); // the notification text carries no task text
      await poll(h);
      await poll(h);
      expect(creatorDms('amelia', a._id)).toHaveLength(1);
      expect(creatorDms('sophie', a._id)).toHaveLength(0);
    });

    it('no DM when the creator completes it themselves (in Slack)', async () => {
      const a = await createInSlack('amelia', 'Sign the fridge temperature log');
      await later();
      expect((await command(h, 'amelia', `/care done ${a.action_no}`)).text).toContain('by @amelia');
      await poll(h);
      await poll(h);
      expect(creatorDms('amelia', a._id)).toHaveLength(0);
      expect(await h.app.store.listDeliveries({ kind: 'creator', actionId: a._id })).toEqual([]);
    });

    it('her own action completed by someone else in Slack: one DM (the assignee’s “completed your action”), not a second', async () => {
      const a = await createInSlack('amelia', 'Ring the optician', 'Amelia Hughes');
      await later();
      await command(h, 'sophie', `/care done ${a.action_no}`);
      const told = await h.fake.waitFor(() => h.fake.dms('amelia').find((m) => deliveryKind(m) === 'change' && deliveryActionId(m) === a._id), {
        timeoutMs: 10_000,
        message: 'Amelia was not told',
      });
      expect(h.fake.visibleText(told, { viewer: 'amelia' })).toContain(`@sophie completed your action #${a.action_no}`);
      await poll(h);
      await poll(h);
      expect(h.fake.dms('amelia').filter((m) => deliveryActionId(m) === a._id)).toHaveLength(1);
    });

    it('a completion in the web app, found by the poll, says "in the care system", once', async () => {
      const a = await createInSlack('amelia', 'Book the chiropodist', 'Sophie Marsh');
      await later();
      await h.control(`actions/${a._id}/complete`, {});
      await poll(h);
      const dm = await h.fake.waitFor(() => creatorDms('amelia', a._id)[0], { timeoutMs: 10_000, message: 'Amelia was not told' });
      expect(h.fake.visibleText(dm, { viewer: 'amelia' })).toContain(`Action #${a.action_no} that you created was completed in the care system`);
      await poll(h);
      expect(creatorDms('amelia', a._id)).toHaveLength(1);
    });

    it('a DM whose posts Slack failed at first is still sent, once (the ledger)', async () => {
      const a = await createInSlack('amelia', 'Test the fire alarm', 'Sophie Marsh');
      await later();
      await h.control(`actions/${a._id}/complete`, {});
      h.fake.faults.failNext('chat.postMessage', 3, 'internal_error');
      await poll(h);
      await poll(h);
      await h.fake.waitFor(() => creatorDms('amelia', a._id)[0], { timeoutMs: 10_000, message: 'Amelia was not told' });
      await poll(h);
      expect(creatorDms('amelia', a._id)).toHaveLength(1);
      const [row, ...more] = await h.app.store.listDeliveries({ kind: 'creator', actionId: a._id });
      expect(more).toEqual([]);
      expect(row).toMatchObject({ state: 'sent' });
    });

    it('a poll that reads the completion while a Slack completion of it is under way waits for it (no "in the care system" too soon)', async () => {
      const a = await createInSlack('amelia', 'Defrost the kitchen freezer', 'Sophie Marsh');
      await later();
      // Sophie's Complete is under way: marked, the care system has completed it, the audit row not yet written.
      await h.app.store.setCursor(`completing:${a._id}@${h.fake.teamId}`, String(h.now().getTime()));
      await h.control(`actions/${a._id}/complete`, {});
      await poll(h);
      expect(creatorDms('amelia', a._id)).toHaveLength(0);
      // It never finished (the instance stopped): a minute later the poll's overlap reads it again and tells her.
      await h.setTime(new Date(h.now().getTime() + 61_000));
      await poll(h);
      const dm = await h.fake.waitFor(() => creatorDms('amelia', a._id)[0], { timeoutMs: 10_000, message: 'Amelia was not told' });
      expect(h.fake.visibleText(dm, { viewer: 'amelia' })).toContain('completed in the care system');
    });

    it('completed again after a reopen: told again, once for each completion', async () => {
      const a = await createInSlack('amelia', 'Check the hoist battery', 'Sophie Marsh');
      await later();
      await command(h, 'sophie', `/care done ${a.action_no}`);
      await h.fake.waitFor(() => creatorDms('amelia', a._id)[0], { timeoutMs: 10_000, message: 'Amelia was not told' });
      await later();
      await command(h, 'sophie', `/care reopen ${a.action_no}`);
      await later();
      await h.control(`actions/${a._id}/complete`, {});
      await poll(h);
      await poll(h);
      const dms = creatorDms('amelia', a._id).map((m) => h.fake.visibleText(m, { viewer: 'amelia' }));
      expect(dms).toHaveLength(2);
      expect(dms[0]).toContain('completed by @sophie');
      expect(dms[1]).toContain('completed in the care system');
    });

    it('an action the care system generated and completed itself: "completed by the care system" (no creator in Slack, no DM to one)', async () => {
      const nurses = (await h.app.care.notificationGroups.collect({ attributes: ['_id', 'name'], limit: 100 })).find((g) => g.name === 'Heather Lodge nurses')!; // Priya
      const a = await h.control('generated-actions', {
        task: 'Six-monthly care plan review',
        due: new Date('2026-03-10T16:00:00Z').toISOString(),
        notify_on_complete: [nurses._id],
        tag: 'care_plan_review',
      });
      await poll(h);
      await later();
      await h.control(`actions/${a._id}/auto-complete`, {});
      await poll(h);
      const notice = await h.fake.waitFor(() => h.fake.dms('priya').find((m) => deliveryKind(m) === 'completion' && deliveryActionId(m) === a._id), {
        timeoutMs: 10_000,
        message: 'Priya was not told',
      });
      expect(h.fake.visibleText(notice, { viewer: 'priya' })).toContain(`Action #${a.action_no} was completed by the care system`);
      expect((await command(h, 'priya', `/care show ${a.action_no}`)).text).toMatch(/Completed .* by the care system/);
      expect(await h.app.store.listDeliveries({ kind: 'creator', actionId: a._id })).toEqual([]);
      // Its History says the same.
      await h.driver.clickButton('priya', { ephemeral: true, channel: '#care-team', text: 'History' });
      const history = await h.fake.waitFor(
        () => {
          const m = h.fake.openModal('priya');
          const text = m ? h.fake.visibleText(m.view, { viewer: 'priya' }) : '';
          return text.includes('History of action') ? text : undefined;
        },
        { timeoutMs: 10_000, message: 'no history' },
      );
      expect(history).toMatch(/Created by the care system at \d\d:\d\d\nCompleted by the care system at \d\d:\d\d/);
      await h.driver.modal('priya').close();
    });
  });
}

creatorSuite('SQLite', () => undefined);

if (!TEST_DATABASE_URL) it.skip(PG_SKIPPED, () => {});
describe.skipIf(!TEST_DATABASE_URL)('on PostgreSQL', () => {
  let schema: TestSchema | undefined;
  let url: string | undefined;
  beforeAll(async () => {
    schema = await createTestSchema(TEST_DATABASE_URL!, 'creator_notices');
    url = urlWithSchema(TEST_DATABASE_URL!, schema.name);
  });
  afterAll(async () => schema?.drop());
  creatorSuite('PostgreSQL', () => url);
});
