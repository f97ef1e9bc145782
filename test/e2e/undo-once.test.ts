/**
 * Issue 23, item 8: "Undo works more than once". An Undo on a channel post is
 * spent once used (on every instance), and refused once the action changed
 * since the change it undoes; the clicker is told why, and nothing changes.
 * Clocks: 2027-06-15 09:00 UTC (10:00 in London).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveryActionId, deliveryKind, poll } from './fixtures/jobs-support.js';
import { command, linkDirectly, startHarness, webAppAction, type Harness } from './harness.js';

describe('Undo on a channel post works once, and not after the action changed (issue 23, item 8)', () => {
  let h: Harness;
  const care: Record<string, string> = {};
  const later = (ms = 5_000) => h.setTime(new Date(h.now().getTime() + ms));
  const alertIn = (actionId: string) =>
    h.fake.waitFor(() => h.fake.messages('#care-leads').find((m) => deliveryKind(m) === 'urgent' && deliveryActionId(m) === actionId), { timeoutMs: 10_000 });
  const seen = async (actionId: string) => h.fake.visibleText(await alertIn(actionId), { viewer: 'priya' });
  const completedIn = async (id: string): Promise<string | null> => (await h.control(`actions/${id}`)).completed;
  const told = (text: string) =>
    h.fake.waitFor(() => h.fake.ephemerals('priya', { channel: '#care-leads' }).find((e) => e.text.includes(text)), { timeoutMs: 10_000 });
  const audit = async (id: string) => (await h.app.store.listAudit({ actionId: id })).map((e) => `${e.verb} ${e.userId}`).reverse();

  /** An urgent action of Oliver's, alerted in #care-leads, completed there by Priya (the post then offers her Undo). */
  const completedByPriya = async (task: string) => {
    await later();
    const a = await webAppAction(h, { task, due: new Date('2027-06-15T16:00:00Z'), urgent: true, assigned_to: care.oliver! });
    await poll(h);
    await h.driver.clickButton('priya', { channel: '#care-leads', ts: (await alertIn(a._id)).ts, text: 'Complete', confirm: 'accept' });
    await h.fake.waitFor(async () => ((await seen(a._id)).includes('[Undo]') ? true : undefined), { timeoutMs: 10_000 });
    return a;
  };

  /**
   * While `work` runs and the post's redraws (issue 32) are tried, Slack refuses every update of the post: the
   * redraws are handed back to the poll's retry sweep, and the post stays as it was.
   */
  const slackRefusesRedrawsOf = async (ts: string, work: () => Promise<void>) => {
    h.fake.faults.failNext('chat.update', 1_000, { error: 'internal_error', args: { ts } });
    await work();
    await h.fake.waitFor(
      async () => {
        const rows = await h.app.store.listDeliveries({ kind: 'redraw' });
        return rows.length > redrawsBefore && rows.every((r) => r.state !== 'pending') ? true : undefined;
      },
      { timeoutMs: 20_000, message: 'the redraws were never handed back' },
    );
    redrawsBefore = (await h.app.store.listDeliveries({ kind: 'redraw' })).length;
    h.fake.faults.clear();
  };
  let redrawsBefore = 0;

  beforeAll(async () => {
    h = await startHarness({ startAt: new Date('2027-06-15T09:00:00Z'), sandbox: { seed: 'empty' } });
    for (const person of ['sophie', 'oliver', 'priya']) care[person] = await linkDirectly(h, person);
    await command(h, 'amelia', '/care digest here urgent-only', { channel: '#care-leads' });
    await poll(h);
  });
  afterAll(async () => h?.close());

  it('an Undo left on a post (Slack did not take the update) is spent: after Sophie completed it again, it does not reopen it again', async () => {
    const a = await completedByPriya('Check the fire doors on the first floor');
    const post = await alertIn(a._id);
    h.fake.faults.failNext('chat.update', 1, { error: 'internal_error', args: { ts: post.ts } }); // this post's update, not a DM's redraw
    await h.driver.clickButton('priya', { channel: '#care-leads', ts: post.ts, text: 'Undo' });
    await h.fake.waitFor(async () => ((await completedIn(a._id)) === null ? true : undefined), { timeoutMs: 10_000, message: 'Undo did not reopen it' });
    expect(await seen(a._id)).toContain('[Undo]'); // the post could not be updated: its Undo is still there

    await later();
    // Slack takes no update of the post meanwhile either: Sophie's completion is not drawn on it, its Undo stays.
    await slackRefusesRedrawsOf(post.ts, async () => {
      expect((await command(h, 'sophie', `/care done ${a.action_no}`)).text).toContain('Completed');
    });
    await h.driver.clickButton('priya', { channel: '#care-leads', ts: post.ts, text: 'Undo' });
    const refusal = await told('already used');
    expect(refusal.text).toContain('This Undo was already used: your change was undone once.');
    expect(refusal.text).toContain(`\`/care reopen ${a.action_no}\``);
    expect(await completedIn(a._id)).not.toBeNull(); // Sophie's completion stands
    expect(await audit(a._id)).toEqual(['action.complete U0PRIYA', 'action.reopen U0PRIYA', 'action.complete U0SOPHIE']);
    await h.fake.waitFor(async () => (!(await seen(a._id)).includes('[Undo]') ? true : undefined), { timeoutMs: 10_000, message: 'the spent Undo stayed' });
  });

  it("an Undo is refused once the action changed since (Sophie reopened and completed it again): it says why, and Sophie's completion stands", async () => {
    const a = await completedByPriya('Replace the batteries in the sensor mats');
    await later();
    // Slack takes no update of the post meanwhile: Sophie's changes are not drawn on it, Priya's Undo stays.
    await slackRefusesRedrawsOf((await alertIn(a._id)).ts, async () => {
      expect((await command(h, 'sophie', `/care reopen ${a.action_no}`)).text).toContain('Reopened');
      expect((await command(h, 'sophie', `/care done ${a.action_no}`)).text).toContain('Completed');
    });
    const sophies = await completedIn(a._id);

    await h.driver.clickButton('priya', { channel: '#care-leads', ts: (await alertIn(a._id)).ts, text: 'Undo' });
    const refusal = await told('Not undone');
    expect(refusal.text).toContain(
      `Not undone: #${a.action_no} has changed since you completed it, so Undo could wipe out someone else's change. The post now shows it as it is.`,
    );
    expect(await completedIn(a._id)).toBe(sophies);
    expect((await audit(a._id)).filter((e) => e.startsWith('action.reopen'))).toEqual(['action.reopen U0SOPHIE']);
    const post = await h.fake.waitFor(async () => (!(await seen(a._id)).includes('[Undo]') ? seen(a._id) : undefined), { timeoutMs: 10_000 });
    expect(post).toContain('Completed by @priya');
  });

  it('two Undo clicks at once: the action is reopened once, and the other click is told the Undo was used', async () => {
    const a = await completedByPriya('Sign off the hoist inspection');
    const ts = (await alertIn(a._id)).ts;
    await Promise.all([
      h.driver.clickButton('priya', { channel: '#care-leads', ts, text: 'Undo' }),
      h.driver.clickButton('priya', { channel: '#care-leads', ts, text: 'Undo' }),
    ]);
    await told('already used');
    await h.fake.waitFor(async () => ((await seen(a._id)).includes('Undone by @priya') ? true : undefined), { timeoutMs: 10_000 });
    // Whatever order the two clicks were answered in, the post ends saying what is true (the refused click
    // used to redraw it from its own older copy, bringing back "Completed by … · Undo").
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(await seen(a._id)).toContain('Undone by @priya');
    expect(await completedIn(a._id)).toBeNull();
    expect((await audit(a._id)).filter((e) => e.startsWith('action.reopen'))).toEqual(['action.reopen U0PRIYA']);
  });
});
