/**
 * "Who completed": a completion made through Slack names the person on the
 * card, in the completion notices and in the audit; one made in the care
 * system's web app says "in the care system".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveryActionId, deliveryKind, poll } from './fixtures/jobs-support.js';
import { command, linkDirectly, startHarness, webAppAction, type Harness } from './harness.js';

const START = new Date('2026-03-10T09:00:00Z');

describe('who completed it', () => {
  let h: Harness;
  let nurses: string;
  const care: Record<string, string> = {};
  const notices = (person: string, actionId: string) => h.fake.dms(person).filter((m) => deliveryKind(m) === 'completion' && deliveryActionId(m) === actionId);

  beforeAll(async () => {
    h = await startHarness({ startAt: START, sandbox: { seed: 'empty' } });
    for (const person of ['sophie', 'priya']) care[person] = await linkDirectly(h, person);
    nurses = (await h.app.care.notificationGroups.collect({ attributes: ['_id', 'name'], limit: 100 })).find((g) => g.name === 'Heather Lodge nurses')!._id; // Priya
    await poll(h);
  });
  afterAll(async () => h?.close());

  it('a completion through Slack says who: on the card, in the notice and in the audit', async () => {
    const a = await webAppAction(h, {
      task: 'Change the dressing on room 4',
      due: new Date('2026-03-10T12:00:00Z'),
      assigned_to: care.sophie!,
      notify_on_complete: [nurses],
    });
    const reply = await command(h, 'sophie', `/care done ${a.action_no}`);
    expect(reply.text).toMatch(/State\nCompleted .* by @sophie/);
    const notice = await h.fake.waitFor(() => notices('priya', a._id)[0], { timeoutMs: 10_000, message: 'Priya was not told' });
    expect(h.fake.visibleText(notice, { viewer: 'priya' })).toContain(`Action #${a.action_no} was completed by @sophie`);
    const [entry] = (await h.app.store.listAudit({ actionId: a._id })).filter((e) => e.verb === 'action.complete');
    expect(entry).toMatchObject({ userId: 'U0SOPHIE', details: { completedBy: 'U0SOPHIE', via: 'slack' } });
    // The card shown later (by anyone) still says who.
    expect((await command(h, 'priya', `/care show ${a.action_no}`)).text).toMatch(/Completed .* by @sophie/);
    await poll(h);
    expect(notices('priya', a._id)).toHaveLength(1);
  });

  it('a completion in the web app says "in the care system", also after a Slack completion was reopened', async () => {
    const a = await webAppAction(h, { task: 'Sign the visitors book audit', due: new Date('2026-03-10T12:00:00Z'), notify_on_complete: [nurses] });
    expect((await command(h, 'sophie', `/care done ${a.action_no}`)).text).toContain('by @sophie');
    expect((await command(h, 'sophie', `/care reopen ${a.action_no}`)).text).toContain('Reopened');
    await h.setTime(new Date(h.now().getTime() + 5_000)); // a later second: a completion of its own
    await h.control(`actions/${a._id}/complete`, {});
    await poll(h);
    await h.fake.waitFor(() => (notices('priya', a._id).length >= 2 ? true : undefined), { timeoutMs: 10_000, message: 'the second completion was not told' });
    const last = notices('priya', a._id).at(-1)!;
    expect(h.fake.visibleText(last, { viewer: 'priya' })).toContain(`Action #${a.action_no} was completed in the care system`);
    const card = (await command(h, 'priya', `/care show ${a.action_no}`)).text;
    expect(card).toMatch(/Completed .* in the care system/);
    expect(card).not.toContain('by @sophie');
  });
});
