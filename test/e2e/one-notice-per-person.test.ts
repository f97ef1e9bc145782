/**
 * One notice per person per completion (issue 32), whatever roles they hold: a creator who is also in the
 * action's notification group gets one DM (as its creator), and whoever completed it gets none about their
 * own completion. Through Slack (the fast path, then the poll's re-reads) and in the care system's web app
 * (the poll). On SQLite and on PostgreSQL (the delivery ledger).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSchema, PG_SKIPPED, TEST_DATABASE_URL, type TestSchema } from '../helpers/pg.js';
import { deliveryActionId, deliveryKind, poll } from './fixtures/jobs-support.js';
import { urlWithSchema } from './fixtures/spawn-instance.js';
import { command, linkDirectly, startHarness, webAppAction, type Harness } from './harness.js';
import { createInSlack } from './steps.js';

const START = new Date('2026-03-10T09:00:00Z');

function oneNoticeSuite(name: string, databaseUrl: () => string | undefined) {
  describe(`one notice per person per completion (${name})`, () => {
    let h: Harness;
    let groupId: string;
    const about = (person: string, actionId: string) => h.fake.dms(person).filter((m) => deliveryActionId(m) === actionId);
    const later = () => h.setTime(new Date(h.now().getTime() + 5_000));

    beforeAll(async () => {
      const url = databaseUrl();
      h = await startHarness({ startAt: START, ...(url ? { databaseUrl: url } : {}) });
      const priyaCare = await linkDirectly(h, 'priya');
      await linkDirectly(h, 'sophie');
      await linkDirectly(h, 'amelia');
      const groups = await h.app.care.notificationGroups.collect({ attributes: ['_id', 'users'], per_page: 100, limit: 100 });
      groupId = groups.find((g) => g.users?.includes(priyaCare))!._id;
      await poll(h); // the first look and the changes cursor
    });
    afterAll(async () => h?.close());

    it('Priya created it in Slack and is in its notification group; Sophie completes it in Slack: Priya gets one DM, as its creator', async () => {
      const a = await createInSlack(h, 'priya', 'Collect the prescription from the pharmacy', { assignee: 'Sophie Marsh' });
      await h.control(`actions/${a._id}`, { notify_on_complete: [groupId] }, 'PATCH');
      await later();
      expect((await command(h, 'sophie', `/care done ${a.action_no}`)).text).toContain('by @sophie');
      const dm = await h.fake.waitFor(() => about('priya', a._id)[0], { timeoutMs: 10_000, message: 'Priya was not told' });
      await poll(h);
      await poll(h);
      expect(about('priya', a._id)).toHaveLength(1);
      expect(deliveryKind(dm)).toBe('creator');
      expect(h.fake.visibleText(dm, { viewer: 'priya' })).toContain(`Action #${a.action_no} that you created was completed by @sophie`);
    });

    it('the same, completed in the care system’s web app and found by the poll: one DM', async () => {
      const a = await createInSlack(h, 'priya', 'Book the hearing test', { assignee: 'Sophie Marsh' });
      await h.control(`actions/${a._id}`, { notify_on_complete: [groupId] }, 'PATCH');
      await poll(h);
      await later();
      await h.control(`actions/${a._id}/complete`, {});
      await poll(h);
      await poll(h);
      expect(about('priya', a._id).map(deliveryKind)).toEqual(['creator']);
    });

    it('Priya created it, it is hers and she is in its group; Sophie completes it in Slack: one DM, “completed your action”', async () => {
      const a = await createInSlack(h, 'priya', 'Ring the GP about the repeat prescription', { assignee: 'Priya Sharma' });
      await h.control(`actions/${a._id}`, { notify_on_complete: [groupId] }, 'PATCH');
      await later();
      expect((await command(h, 'sophie', `/care done ${a.action_no}`)).text).toContain('by @sophie');
      const dm = await h.fake.waitFor(() => about('priya', a._id)[0], { timeoutMs: 10_000, message: 'Priya was not told' });
      await poll(h);
      await poll(h);
      expect(about('priya', a._id).map(deliveryKind)).toEqual(['change']);
      expect(h.fake.visibleText(dm, { viewer: 'priya' })).toContain(`@sophie completed your action #${a.action_no}`);
    });

    it('Priya, in the notification group, completes it herself in Slack: no group notice about her own completion', async () => {
      const a = await webAppAction(h, { task: 'Restock the dressing trolley', due: new Date(h.now().getTime() + 3600_000), notify_on_complete: [groupId] });
      await poll(h);
      await later();
      expect((await command(h, 'priya', `/care done ${a.action_no}`)).text).toContain('by @priya');
      await poll(h);
      await poll(h);
      expect(about('priya', a._id)).toEqual([]);
      expect((await h.app.store.listDeliveries({ actionId: a._id })).filter((d) => d.recipient.endsWith(`/${h.driver.user('priya').id}`))).toEqual([]);
    });
  });
}

oneNoticeSuite('SQLite', () => undefined);

if (!TEST_DATABASE_URL) it.skip(PG_SKIPPED, () => {});
describe.skipIf(!TEST_DATABASE_URL)('on PostgreSQL', () => {
  let schema: TestSchema | undefined;
  let url: string | undefined;
  beforeAll(async () => {
    schema = await createTestSchema(TEST_DATABASE_URL!, 'one_notice');
    url = urlWithSchema(TEST_DATABASE_URL!, schema.name);
  });
  afterAll(async () => schema?.drop());
  oneNoticeSuite('PostgreSQL', () => url);
});
