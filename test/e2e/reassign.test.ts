/**
 * Reassign all of someone's open work (sickness, a shift swap), admins only:
 * `/care reassign` and the Team view's "Reassign work". A confirmation counts
 * what moves; the moves run through the care client under the care API's 10
 * requests a second, with progress in the modal; the end says exactly what
 * moved and what did not; each person affected who is in Slack gets one
 * summary DM (no DM per action).
 * Clock: Tuesday 10 March 2026, 09:00 UTC = 09:00 in London (GMT).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_USERS } from '../../dev/sandbox/index.js';
import { deliveryKind, poll } from './fixtures/jobs-support.js';
import { careUserIdByEmail, command, type Harness, linkDirectly, startHarness, webAppAction } from './harness.js';

const START = new Date('2026-03-10T09:00:00Z');
const HOUR = 3_600_000;

describe('reassigning someone’s open work', () => {
  let h: Harness;
  const care: Record<string, string> = {};

  const modalText = (user: string) => {
    const m = h.fake.openModal(user);
    return m ? h.fake.visibleText(m.view, { viewer: user }) : '';
  };
  const waitForModal = (user: string, words: string, timeoutMs = 15_000) =>
    h.fake.waitFor(() => (modalText(user).includes(words) ? modalText(user) : undefined), {
      timeoutMs,
      message: `no modal saying “${words}” (it says: ${modalText(user)})`,
    });
  const summaries = (user: string) => h.fake.dms(user).filter((m) => deliveryKind(m) === 'reassign-summary');
  const assignmentDms = (user: string) => h.fake.dms(user).filter((m) => deliveryKind(m) === 'assignment');
  /** `n` actions of `careUserId`: the first `overdue` due before now, the next `today` later today, the rest on later days. */
  const workOf = async (careUserId: string, n: number, overdue: number, today: number, label: string) => {
    const made = [];
    for (let i = 0; i < n; i++) {
      const due =
        i < overdue
          ? new Date(START.getTime() - (i + 1) * HOUR)
          : i < overdue + today
            ? new Date(START.getTime() + (i + 1) * HOUR)
            : new Date(START.getTime() + (2 + (i % 5)) * 24 * HOUR);
      made.push(await webAppAction(h, { task: `${label} ${i + 1}`, due, assigned_to: careUserId }));
    }
    return made;
  };

  beforeAll(async () => {
    // The care API's own limit (10 a second) and the app's client paced to it.
    h = await startHarness({ startAt: START, sandbox: { seed: 'empty', rateLimit: 10 }, careRateLimitPerSecond: 10 });
    for (const person of ['sophie', 'priya', 'oliver', 'amelia']) care[person] = await linkDirectly(h, person);
    care.ben = await careUserIdByEmail(h, DEMO_USERS.find((u) => u.first_name === 'Ben')!.email);
  });
  afterAll(async () => h?.close());

  it('moves 25 actions in one go: counted first, progress shown, all 25 moved in the care system, one summary DM each', async () => {
    const work = await workOf(care.sophie!, 25, 3, 5, 'Rota check');
    await poll(h); // the app's first look: these assignments are known, not news
    await h.control('stats/reset', {});

    await h.driver.slash('amelia', '/care reassign @sophie to @priya', { channel: '#care-team' });
    const question = await waitForModal('amelia', 'Move 25 open actions');
    expect(question).toContain('Move 25 open actions from @sophie to @priya? 3 overdue, 5 due today, 17 due later.');
    // Nothing has moved before the admin says so.
    expect((await h.control(`actions/${work[0]!._id}`)).assigned_to).toBe(care.sophie);

    await h.driver.modal('amelia').submit();
    const result = await waitForModal('amelia', 'moved from', 60_000);
    expect(result).toContain('25 moved from @sophie to @priya; all 25 done.');

    // Progress was shown as it went.
    const shown = h.fake.calls('views.update').map((c) => JSON.stringify(c.args.view));
    expect(shown.some((v) => v.includes('moved 10 of 25'))).toBe(true);
    expect(shown.some((v) => v.includes('moved 20 of 25'))).toBe(true);

    // The care system has all 25 with Priya, and the care API was never pushed past its limit.
    for (const a of work) expect((await h.control(`actions/${a._id}`)).assigned_to).toBe(care.priya);
    expect((await h.control('stats')).byStatus['429'] ?? 0).toBe(0);

    // Each move audited, by action, without task text.
    const audit = (await h.app.store.listAudit({ limit: 500 })).filter((e) => e.verb === 'reassign');
    expect(new Set(audit.map((e) => e.actionId))).toEqual(new Set(work.map((a) => a._id)));
    expect(JSON.stringify(audit)).not.toContain('Rota check');

    // One summary DM to each person affected; none per action, not even after the changes poll looks.
    const priyaSummary = await h.fake.waitFor(() => summaries('priya')[0], { timeoutMs: 10_000 });
    await h.fake.waitFor(() => summaries('sophie')[0], { timeoutMs: 10_000 });
    await poll(h);
    await poll(h);
    expect(summaries('priya')).toHaveLength(1);
    expect(summaries('sophie')).toHaveLength(1);
    expect(assignmentDms('priya')).toHaveLength(0);
    expect(h.fake.visibleText(priyaSummary, { viewer: 'priya' })).toContain('@amelia moved 25 open actions from @sophie to you');
    expect(h.fake.visibleText(summaries('sophie')[0]!, { viewer: 'sophie' })).toContain('@amelia moved 25 of your open actions to @priya');
    // The notification text names no task.
    expect(priyaSummary.text).not.toContain('Rota check');
  }, 120_000);

  it('says exactly which could not be moved (one deleted, one completed in the care system), to a carer not in Slack', async () => {
    const work = await workOf(care.oliver!, 6, 1, 2, 'Window check');
    await poll(h);
    await h.driver.slash('amelia', '/care reassign @oliver to Ben Whitaker today', { channel: '#care-team' });
    const question = await waitForModal('amelia', 'Move 3 open actions');
    expect(question).toContain('Move 3 open actions from @oliver to Ben Whitaker? 1 overdue, 2 due today.');
    expect(question).toContain('Ben Whitaker is not in Slack: they will see the work in the care system.');
    // Meanwhile, in the care system's own web app: one deleted, one completed.
    await h.control(`actions/${work[0]!._id}`, {}, 'DELETE');
    await h.control(`actions/${work[1]!._id}/complete`, {});

    await h.driver.modal('amelia').submit();
    const result = await waitForModal('amelia', 'moved from', 30_000);
    expect(result).toContain(
      `1 moved from @oliver to Ben Whitaker; 2 could not be moved: #${work[0]!.action_no} (deleted in the care system), #${work[1]!.action_no} (completed meanwhile).`,
    );
    expect((await h.control(`actions/${work[2]!._id}`)).assigned_to).toBe(care.ben);
    // Later work ("today" only) stays with Oliver.
    for (const a of work.slice(3)) expect((await h.control(`actions/${a._id}`)).assigned_to).toBe(care.oliver);
    // Oliver is told once; Ben has no Slack.
    const told = await h.fake.waitFor(() => summaries('oliver')[0], { timeoutMs: 10_000 });
    expect(h.fake.visibleText(told, { viewer: 'oliver' })).toContain('@amelia moved 1 of your open actions to Ben Whitaker');
    expect(h.fake.visibleText(told, { viewer: 'oliver' })).toContain(`#${work[2]!.action_no}`);
  }, 60_000);

  it('refuses someone who is not an admin with one sentence, and moves nothing', async () => {
    const { text } = await command(h, 'sophie', '/care reassign @priya to @oliver');
    expect(text).toBe('Only admins can reassign someone’s work. Ask a workspace admin to do it (/care admins lists them).');
    expect(h.fake.openModal('sophie')).toBeUndefined();
  });

  it('an unknown name is one sentence naming close matches', async () => {
    while (h.fake.openModal('amelia')) await h.driver.modal('amelia').close();
    await h.driver.slash('amelia', '/care reassign @oliver to Ben Whitakr', { channel: '#care-team' });
    const said = await waitForModal('amelia', 'No one on the rota');
    expect(said).toContain('No one on the rota is called “Ben Whitakr”. Did you mean Ben Whitaker');
    expect(said).toContain('Type their name as the care system has it, their care user Id, or pick them with @.');
  });

  it('the Team view offers Reassign work per carer: pick anyone on the rota, confirm, moved', async () => {
    while (h.fake.openModal('amelia')) await h.driver.modal('amelia').close();
    const work = await workOf(care.priya!, 2, 1, 1, 'Fridge temperature');
    await poll(h);
    await h.driver.openHome('amelia');
    await h.fake.waitFor(() => (h.fake.visibleText(h.fake.home('amelia')!, { viewer: 'amelia' }).includes('Reassign work') ? true : undefined), {
      timeoutMs: 15_000,
    });
    await h.driver.dispatchOn('amelia', { home: true }, `team_carer_${care.priya}`, 'care_reassign_work');
    await waitForModal('amelia', 'Move open actions of');
    await h.driver.modal('amelia').fill('Move them to', care.ben!).submit();
    // Priya's 27 now (25 from Sophie and these 2); all move.
    const question = await waitForModal('amelia', 'Move 27 open actions');
    expect(question).toContain('Move 27 open actions from @priya to Ben Whitaker?');
    await h.driver.modal('amelia').submit();
    const result = await waitForModal('amelia', 'moved from', 60_000);
    expect(result).toContain('27 moved from @priya to Ben Whitaker; all 27 done.');
    for (const a of work) expect((await h.control(`actions/${a._id}`)).assigned_to).toBe(care.ben);
  }, 120_000);

  it('an admin who closes the modal mid-way is told the result in one DM', async () => {
    while (h.fake.openModal('amelia')) await h.driver.modal('amelia').close();
    const left = await h.app.care.actions.collect({ filters: { assigned_to: care.oliver!, completed: 'no' }, attributes: ['_id'], limit: 100 });
    expect(left.length).toBeGreaterThan(0);
    // Every run ends with a result DM to the admin (with Undo): the earlier runs' are there already.
    const results = () => h.fake.dms('amelia').filter((m) => deliveryKind(m) === 'reassign-result');
    const before = results().length;
    await h.driver.slash('amelia', '/care reassign @oliver to @sophie', { channel: '#care-team' });
    await waitForModal('amelia', `Move ${left.length} open action`);
    await h.driver.modal('amelia').submit();
    await h.driver.modal('amelia').close();
    const dm = await h.fake.waitFor(() => results()[before], { timeoutMs: 20_000 });
    expect(h.fake.visibleText(dm, { viewer: 'amelia' })).toContain(`${left.length} moved from @oliver to @sophie; all ${left.length} done.`);
    expect(results()).toHaveLength(before + 1);
    for (const a of left) expect((await h.control(`actions/${a._id}`)).assigned_to).toBe(care.sophie);
  }, 60_000);
});
