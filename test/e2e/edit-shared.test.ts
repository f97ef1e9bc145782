/**
 * Issue 32, item 3: Edit on a shared post is a shared-post change. Priya moved
 * Amelia's urgent action to Ben Whitaker (a care user not in Slack) from its
 * alert in #care-leads: nothing asked, the post kept a stale "Undone by @priya",
 * and Amelia was never told. Now the form names the assignee, asks once before
 * saving what others will see, the post says "Edited by @priya: …" with Undo
 * (hers, once), Amelia is told it was taken away from her, a new assignee in
 * Slack gets the assignment DM, and the editor is told nothing. An Edit from
 * one's own card keeps today's flow, but the people whose action it was or is
 * are still told. On SQLite and on PostgreSQL (the DMs are deliveries).
 * Clocks: Tuesday 2026-11-24 10:00 UTC (10:00 in London, 05:00 in New York).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSchema, PG_SKIPPED, TEST_DATABASE_URL, type TestSchema } from '../helpers/pg.js';
import { parseApiDateTime } from '../../src/time/slack-date.js';
import { deliveryActionId, deliveryKind, poll } from './fixtures/jobs-support.js';
import { urlWithSchema } from './fixtures/spawn-instance.js';
import { DEMO_EMAIL_DOMAIN } from '../../dev/sandbox/seed-people.js';
import { careUserIdByEmail, command, linkDirectly, startHarness, webAppAction, type Harness } from './harness.js';

function editSuite(name: string, databaseUrl: () => string | undefined) {
  describe(`Edit on a channel post (issue 32, item 3; ${name})`, () => {
    let h: Harness;
    const care: Record<string, string> = {};
    let ben = '';
    const later = () => h.setTime(new Date(h.now().getTime() + 5_000));
    const alertIn = (actionId: string) =>
      h.fake.waitFor(() => h.fake.messages('#care-leads').find((m) => deliveryKind(m) === 'urgent' && deliveryActionId(m) === actionId), {
        timeoutMs: 10_000,
      });
    const seen = async (actionId: string) => h.fake.visibleText(await alertIn(actionId), { viewer: 'priya' });
    const seenWith = (actionId: string, words: string) =>
      h.fake.waitFor(async () => ((await seen(actionId)).includes(words) ? seen(actionId) : undefined), { timeoutMs: 10_000, message: `no "${words}"` });
    const dmsOf = (person: string, kind: string, actionId: string) =>
      h.fake.dms(person).filter((m) => deliveryKind(m) === kind && deliveryActionId(m) === actionId);
    const actionNow = (id: string) => h.control(`actions/${id}`);
    const editForm = (person: string) =>
      h.fake.waitFor(() => (h.fake.openModal(person)?.view.callback_id === 'care_action_modal' ? h.fake.openModal(person) : undefined), {
        timeoutMs: 10_000,
      });

    beforeAll(async () => {
      const url = databaseUrl();
      h = await startHarness({ startAt: new Date('2026-11-24T10:00:00Z'), sandbox: { seed: 'empty' }, ...(url ? { databaseUrl: url } : {}) });
      for (const person of ['amelia', 'sophie', 'oliver', 'priya']) care[person] = await linkDirectly(h, person);
      ben = await careUserIdByEmail(h, `ben.whitaker@${DEMO_EMAIL_DOMAIN}`); // on the rota, not in Slack
      await command(h, 'amelia', '/care digest here urgent-only', { channel: '#care-leads' });
      await poll(h);
    });
    afterAll(async () => h?.close());

    it('names the assignee and asks before saving; the post then says "Edited by @priya" with what changed and Undo, never a stale "Undone by"; Amelia is told it was taken away, Priya nothing', async () => {
      await later();
      const a = await webAppAction(h, {
        task: 'Check bedrails for Mrs Patel in room 4',
        due: new Date('2026-11-24T16:00:00Z'),
        urgent: true,
        assigned_to: care.amelia!,
      });
      await poll(h);
      const post = await alertIn(a._id);
      // An earlier Complete and its Undo left "Undone by @priya" on the post.
      await h.driver.clickButton('priya', { channel: '#care-leads', ts: post.ts, text: 'Complete', confirm: 'accept' });
      await seenWith(a._id, '[Undo]');
      await h.driver.clickButton('priya', { channel: '#care-leads', ts: post.ts, text: 'Undo' });
      await seenWith(a._id, 'Undone by @priya');
      await later();

      await h.driver.clickButton('priya', { channel: '#care-leads', ts: post.ts, text: 'Edit' });
      const form = await editForm('priya');
      const formText = h.fake.visibleText(form.view, { viewer: 'priya' });
      expect(formText).toContain('Assigned to Amelia Hughes.');
      expect(formText).toContain('Everyone in this channel will see what you change, with Undo for a few minutes');

      // Save with Ben as the assignee: asked first, naming the change; nothing is saved yet.
      const benPicked = {
        type: 'external_select',
        selected_option: { text: { type: 'plain_text', text: 'Ben Whitaker — not in Slack: they see it in the care system' }, value: ben },
      };
      await h.driver.dispatchOn('priya', { modal: true }, 'assignee', 'value', benPicked as never);
      const asked = await h.driver.modal('priya').submit();
      expect(asked.outcome).toBe('updated');
      const question = h.fake.visibleText(h.fake.openModal('priya')!.view, { viewer: 'priya' });
      expect(question).toContain('Save this change for everyone in this channel? assignee Amelia Hughes → Ben Whitaker.');
      expect((await actionNow(a._id)).assigned_to).toBe(care.amelia);

      // Save again: saved.
      expect((await h.driver.modal('priya').submit()).outcome).toBe('closed');
      await h.fake.waitFor(async () => ((await actionNow(a._id)).assigned_to === ben ? true : undefined), { timeoutMs: 10_000, message: 'not saved' });
      const edited = await seenWith(a._id, 'Edited by @priya');
      expect(edited).toContain('Edited by @priya: assignee Amelia Hughes → Ben Whitaker · Undo (for 5 minutes)');
      expect(edited).toContain('[Undo]');
      expect(edited).toContain(`Urgent action #${a.action_no}`);
      expect(edited).not.toContain('Undone by');

      // (Amelia was told of the Complete and its Undo before.)
      const takenAway = () => dmsOf('amelia', 'change', a._id).filter((m) => h.fake.visibleText(m, { viewer: 'amelia' }).includes('away from you'));
      const dm = await h.fake.waitFor(() => takenAway()[0], { timeoutMs: 10_000, message: 'Amelia was not told' });
      expect(h.fake.visibleText(dm, { viewer: 'amelia' })).toContain(`@priya took action #${a.action_no} away from you (now Ben Whitaker).`);
      await poll(h);
      await poll(h);
      expect(takenAway()).toHaveLength(1);
      expect(dmsOf('priya', 'change', a._id)).toEqual([]);
      expect(dmsOf('priya', 'assignment', a._id)).toEqual([]);
    });

    it('Undo puts back what the edit changed and says so, once; the assignee it comes back to is told, the editor is not', async () => {
      await later();
      const a = await webAppAction(h, { task: 'Order more thickener', due: new Date('2026-11-24T15:00:00Z'), urgent: true, assigned_to: care.sophie! });
      await poll(h);
      const post = await alertIn(a._id);
      await h.driver.clickButton('priya', { channel: '#care-leads', ts: post.ts, text: 'Edit' });
      await editForm('priya');
      await h.driver.modal('priya').fill('Assignee', 'Oliver Bennett').fill('Due time', '17:30').fill('Urgency', []).submit();
      const question = h.fake.visibleText(h.fake.openModal('priya')!.view, { viewer: 'priya' });
      expect(question).toContain('assignee Sophie Marsh → Oliver Bennett, due today at 3:00 PM → today at 5:30 PM, no longer urgent');
      expect((await h.driver.modal('priya').submit()).outcome).toBe('closed');
      const edited = await seenWith(a._id, 'Edited by @priya');
      expect(edited).toContain('Edited by @priya: assignee Sophie Marsh → Oliver Bennett, due today at 3:00 PM → today at 5:30 PM, no longer urgent');
      // No longer urgent: the alert no longer asks who is on it.
      expect(edited).not.toContain('[I’m on it]');
      expect(edited).not.toContain('[I can’t]');
      // Sophie: taken away; Oliver: assigned, by Priya.
      await h.fake.waitFor(() => dmsOf('sophie', 'change', a._id)[0], { timeoutMs: 10_000, message: 'Sophie was not told' });
      const assigned = await h.fake.waitFor(() => dmsOf('oliver', 'assignment', a._id)[0], { timeoutMs: 10_000, message: 'Oliver was not told' });
      expect(h.fake.visibleText(assigned, { viewer: 'oliver' })).toContain(`You were assigned action #${a.action_no} by @priya`);

      // Undo, while Slack fails to update the post: the edit is undone, and the post keeps its Undo.
      await later();
      h.fake.faults.failNext('chat.update', 1, { error: 'internal_error', args: { ts: post.ts } }); // this post's update, not a DM's redraw
      await h.driver.clickButton('priya', { channel: '#care-leads', ts: post.ts, text: 'Undo' });
      await h.fake.waitFor(async () => ((await actionNow(a._id)).assigned_to === care.sophie ? true : undefined), { timeoutMs: 10_000, message: 'not undone' });
      expect(await seen(a._id)).toContain('[Undo]');
      // Once: the second click undoes nothing more, and says so.
      await later();
      await h.driver.clickButton('priya', { channel: '#care-leads', ts: post.ts, text: 'Undo' });
      const refusal = await h.fake.waitFor(
        () => h.fake.ephemerals('priya', { channel: '#care-leads' }).find((e) => e.text.includes('This Undo was already used')),
        { timeoutMs: 10_000 },
      );
      expect(refusal.text).toContain(`use Edit on its card (\`/care show ${a.action_no}\`)`);
      const back = await actionNow(a._id);
      expect(parseApiDateTime(back.due)?.toISOString()).toBe('2026-11-24T15:00:00.000Z');
      expect(back.urgent).toBe(true);
      expect(back.task).toBe('Order more thickener');
      const undone = await seenWith(a._id, 'Undone by @priya');
      expect(undone).not.toContain('[Undo]');
      // Urgent again and nobody has answered: it asks again.
      expect(undone).toContain('[I’m on it]');
      expect(undone).not.toContain('Edited by');
      // Oliver: taken away again; Sophie: assigned again; Priya: nothing.
      await h.fake.waitFor(() => dmsOf('oliver', 'change', a._id)[0], { timeoutMs: 10_000, message: 'Oliver was not told of the undo' });
      expect(h.fake.visibleText(dmsOf('oliver', 'change', a._id)[0]!, { viewer: 'oliver' })).toContain('away from you (now Sophie Marsh)');
      await h.fake.waitFor(() => dmsOf('sophie', 'assignment', a._id)[0], { timeoutMs: 10_000, message: 'Sophie was not told of the undo' });
      await poll(h);
      expect(dmsOf('priya', 'change', a._id)).toEqual([]);
      const updates = (await h.app.store.listAudit({ actionId: a._id }))
        .filter((e) => e.verb === 'action.update')
        .map((e) => [e.userId, e.details.undo ?? false]);
      expect(updates.reverse()).toEqual([
        ['U0PRIYA', false],
        ['U0PRIYA', true],
      ]);
    });

    it('an edit that keeps the assignee tells them what changed; an edit of the task alone saves at once, and the post says so without Undo', async () => {
      await later();
      const a = await webAppAction(h, { task: 'Book the optician', due: new Date('2026-11-24T14:00:00Z'), urgent: true, assigned_to: care.oliver! });
      await poll(h);
      const post = await alertIn(a._id);
      await h.driver.clickButton('priya', { channel: '#care-leads', ts: post.ts, text: 'Edit' });
      await editForm('priya');
      await h.driver.modal('priya').fill('Due date', '2026-11-25').submit();
      expect((await h.driver.modal('priya').submit()).outcome).toBe('closed');
      const dm = await h.fake.waitFor(() => dmsOf('oliver', 'change', a._id)[0], { timeoutMs: 10_000, message: 'Oliver was not told' });
      // Oliver reads it in New York.
      expect(h.fake.visibleText(dm, { viewer: 'oliver' })).toContain(`@priya edited your action #${a.action_no}. It is now due tomorrow at 9:00 AM.`);

      // Only the task: saved at once, the post says who edited it, and no Undo (nothing it could put back).
      await later();
      await h.driver.clickButton('priya', { channel: '#care-leads', ts: post.ts, text: 'Edit' });
      await editForm('priya');
      expect((await h.driver.modal('priya').fill('Task', 'Book the optician for Mr Khan').submit()).outcome).toBe('closed');
      const edited = await h.fake.waitFor(async () => ((await seen(a._id)).includes('Edited by @priya: the task') ? seen(a._id) : undefined), {
        timeoutMs: 10_000,
        message: 'the post did not say who edited it',
      });
      expect(edited).not.toContain('[Undo]');
      await h.fake.waitFor(() => (dmsOf('oliver', 'change', a._id).length === 2 ? true : undefined), { timeoutMs: 10_000 });
      expect(h.fake.visibleText(dmsOf('oliver', 'change', a._id)[1]!, { viewer: 'oliver' })).toContain('The task changed.');
    });

    it("an Edit from one's own card asks nothing and says nothing on a post, but the old and new assignees are told; nobody is told of their own change", async () => {
      await later();
      const a = await webAppAction(h, { task: 'Replace the hoist battery', due: new Date('2026-11-24T18:00:00Z'), assigned_to: care.sophie! });
      await command(h, 'priya', `/care show ${a.action_no}`, { dm: true });
      await h.driver.clickButton('priya', { ephemeral: true, dm: true, text: 'Edit' });
      const form = await editForm('priya');
      expect(h.fake.visibleText(form.view, { viewer: 'priya' })).not.toContain('Everyone in this channel');
      expect((await h.driver.modal('priya').fill('Assignee', 'Oliver Bennett').submit()).outcome).toBe('closed');
      const dm = await h.fake.waitFor(() => dmsOf('sophie', 'change', a._id)[0], { timeoutMs: 10_000, message: 'Sophie was not told' });
      expect(h.fake.visibleText(dm, { viewer: 'sophie' })).toContain(`@priya took action #${a.action_no} away from you (now Oliver Bennett)`);
      await h.fake.waitFor(() => dmsOf('oliver', 'assignment', a._id)[0], { timeoutMs: 10_000, message: 'Oliver was not told' });

      // Oliver edits his own action: nobody is DMed about it.
      await later();
      await command(h, 'oliver', `/care show ${a.action_no}`, { dm: true });
      await h.driver.clickButton('oliver', { ephemeral: true, dm: true, text: 'Edit' });
      await editForm('oliver');
      expect((await h.driver.modal('oliver').fill('Due time', '19:00').submit()).outcome).toBe('closed');
      await h.fake.waitFor(async () => (parseApiDateTime((await actionNow(a._id)).due)?.toISOString() === '2026-11-25T00:00:00.000Z' ? true : undefined), {
        timeoutMs: 10_000,
        message: 'not saved',
      });
      await poll(h);
      expect(dmsOf('oliver', 'change', a._id)).toEqual([]);
      expect(dmsOf('priya', 'change', a._id)).toEqual([]);
    });
  });
}

editSuite('SQLite', () => undefined);

if (!TEST_DATABASE_URL) it.skip(PG_SKIPPED, () => {});
describe.skipIf(!TEST_DATABASE_URL)('on PostgreSQL', () => {
  let schema: TestSchema | undefined;
  let url: string | undefined;
  beforeAll(async () => {
    schema = await createTestSchema(TEST_DATABASE_URL!, 'edit_shared');
    url = urlWithSchema(TEST_DATABASE_URL!, schema.name);
  });
  afterAll(async () => schema?.drop());
  editSuite('PostgreSQL', () => url);
});
