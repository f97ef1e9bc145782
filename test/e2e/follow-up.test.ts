import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ComposedApp } from '../../src/compose.js';
import { PG_SKIPPED, TEST_DATABASE_URL } from '../helpers/pg.js';
import { onOnePostgresSchema, onOneSqliteFile } from './fixtures/two-instances.js';
import { deliveryActionId, deliveryKind, poll } from './fixtures/jobs-support.js';
import { command, type Harness, linkDirectly, startHarness, webAppAction } from './harness.js';

const START = new Date('2027-06-15T09:00:00Z');
const MIN = 60_000;

type Message = { ts: string; metadata?: { event_type?: string; event_payload?: Record<string, unknown> } };
const ofAction = (kind: string, id: string) => (m: Message) => deliveryKind(m) === kind && deliveryActionId(m) === id;

function readers(h: Harness) {
  const alert = (id: string) => h.fake.messages('#care-leads').find(ofAction('urgent', id));
  return {
    alert,
    alertText: (id: string) => {
      const a = alert(id);
      return a ? h.fake.visibleText(a, { viewer: 'amelia' }) : '';
    },
    followUps: (user: string, id: string) => h.fake.dms(user).filter(ofAction('followup', id)),
    followUpText: (user: string, id: string) => {
      const dm = h.fake.dms(user).find(ofAction('followup', id));
      return dm ? h.fake.visibleText(dm, { viewer: user }) : '';
    },
    seniorDms: (user: string, id: string) => h.fake.dms(user).filter(ofAction('escalation', id)),
    managersPosts: (id: string) => h.fake.messages('#general').filter(ofAction('escalation', id)),
    handBacks: (id: string) => h.fake.messages('#care-leads').filter(ofAction('handback', id)),
  };
}

async function tick(app: ComposedApp): Promise<void> {
  const run = await app.jobs.runOnce('escalations');
  if (!run.ran) throw new Error('the escalation job did not run');
  const result = run.result as { error?: string } | undefined;
  if (result?.error) throw new Error(`the escalation job failed: ${result.error}`);
}

async function setLadder(h: Harness): Promise<void> {
  await command(h, 'amelia', '/care escalation after 15');
  await command(h, 'amelia', '/care escalation steps thread,seniors,managers');
  expect((await command(h, 'amelia', '/care escalation managers <#C0GENERAL|general>')).text).toContain('Escalation set.');
  expect((await command(h, 'amelia', '/care escalation seniors Day <@U0PRIYA|priya> <@U0OLIVER|oliver>')).text).toContain('Day: @priya @oliver');
}

/** A new urgent action made in the web app and alerted by a poll, then taken by `taker` from the alert; `taken`: when (the care system's time). */
async function takenAction(h: Harness, task: string, taker = 'sophie'): Promise<{ id: string; no: string; taken: number }> {
  await h.setTime(new Date(h.now().getTime() + 5_000));
  const a = await webAppAction(h, { task, due: new Date(h.now().getTime() + 3 * 60 * MIN), urgent: true, assigned_to: null });
  await poll(h);
  const r = readers(h);
  await h.setTime(new Date(h.now().getTime() + 2 * MIN));
  await h.driver.clickButton(taker, { channel: '#care-leads', ts: r.alert(a._id)!.ts, text: 'Take it' });
  await h.fake.waitFor(() => (r.alertText(a._id).includes(`Taken by @${taker}`) ? true : undefined), {
    timeoutMs: 10_000,
    message: 'the alert never said who took it',
  });
  await poll(h);
  const now = await h.control(`actions/${a._id}`);
  return { id: a._id, no: a.action_no, taken: Date.parse(String(now.modified)) };
}

const at = (h: Harness, from: number, minutes: number) => h.setTime(new Date(from + minutes * MIN + 2_000));

describe('follow-up of taken urgent work (issue 33)', () => {
  let h: Harness;
  let r: ReturnType<typeof readers>;
  const care: Record<string, string> = {};

  beforeAll(async () => {
    h = await startHarness({ startAt: START, sandbox: { seed: 'empty' } });
    r = readers(h);
    for (const person of ['sophie', 'oliver', 'priya', 'amelia']) care[person] = await linkDirectly(h, person);
    await command(h, 'amelia', '/care digest here urgent-only', { channel: '#care-leads' }); // private: task text shown
    await poll(h);
    await setLadder(h);
  });
  afterAll(async () => h?.close());

  it('a taken action never completed: one DM to whoever took it after 30 minutes, then the seniors after another 30, shown on the alert', async () => {
    const a = await takenAction(h, 'Mrs Patel has not had her insulin');

    await at(h, a.taken, 29);
    await tick(h.app);
    expect(r.followUps('sophie', a.id)).toHaveLength(0);

    await at(h, a.taken, 30);
    await tick(h.app);
    await tick(h.app);
    const dms = r.followUps('sophie', a.id);
    expect(dms).toHaveLength(1);
    const text = r.followUpText('sophie', a.id);
    expect(text).toContain(`Still open: urgent action #${a.no}`);
    expect(text).toContain('insulin'); // her own DM: the task is shown
    for (const button of ['[Done]', '[Still on it]', '[Hand back]']) expect(text).toContain(button);
    // The lock-screen text names no resident and carries no task text.
    expect((dms[0] as { text?: string }).text).toBe(`Still open: urgent action #${a.no}`);
    // Nobody else is told yet.
    expect(r.seniorDms('priya', a.id)).toHaveLength(0);
    expect(r.managersPosts(a.id)).toHaveLength(0);

    await at(h, a.taken, 59);
    await tick(h.app);
    expect(r.seniorDms('priya', a.id)).toHaveLength(0);

    // Still open 30 minutes after the DM (sent a moment after minute 30): the ladder resumes from the seniors' step, at once.
    await at(h, a.taken, 61);
    await tick(h.app);
    await tick(h.app);
    for (const senior of ['priya', 'oliver']) {
      expect(r.seniorDms(senior, a.id), `${senior}'s escalation DMs`).toHaveLength(1);
      expect(h.fake.visibleText(r.seniorDms(senior, a.id)[0]!, { viewer: senior })).toContain(
        'it was taken but is still open, and its follow-up had no answer',
      );
    }
    expect(r.alertText(a.id)).toMatch(/Still open after the follow-up: Escalated to @priya, @oliver at \d\d:\d\d/);
    expect(r.managersPosts(a.id)).toHaveLength(0);
    // Then the managers, one step's time later; the follow-up DM is never sent again.
    await at(h, a.taken, 75);
    await tick(h.app);
    expect(r.managersPosts(a.id)).toHaveLength(0);
    await at(h, a.taken, 77);
    await tick(h.app);
    expect(r.managersPosts(a.id)).toHaveLength(1);
    await at(h, a.taken, 120);
    await tick(h.app);
    await poll(h);
    await tick(h.app);
    expect(r.followUps('sophie', a.id)).toHaveLength(1);
    expect(r.seniorDms('priya', a.id)).toHaveLength(1);
    expect(r.managersPosts(a.id)).toHaveLength(1);

    expect((await h.app.store.listAudit({ actionId: a.id, verb: 'followup.dm' })).map((e) => e.details.to)).toEqual([['U0SOPHIE']]);
    expect(await h.app.store.listAudit({ actionId: a.id, verb: 'followup.resume' })).toHaveLength(1);
    const steps = (await h.app.store.listAudit({ actionId: a.id, verb: 'escalate' })).reverse().map((e) => [e.details.step, e.details.again ?? null]);
    expect(steps).toEqual([
      ['seniors', 'followup'],
      ['managers', 'followup'],
    ]);
  });

  it('a taken action completed in time: nothing at all, no DM and no seniors', async () => {
    const b = await takenAction(h, 'Call the GP about the rash');
    await at(h, b.taken, 20);
    await h.control(`actions/${b.id}/complete`, {});
    await poll(h);
    for (const minutes of [30, 45, 60, 90]) {
      await at(h, b.taken, minutes);
      await tick(h.app);
    }
    expect(r.followUps('sophie', b.id)).toHaveLength(0);
    expect(r.seniorDms('priya', b.id)).toHaveLength(0);
    expect(r.managersPosts(b.id)).toHaveLength(0);
    expect(await h.app.store.listAudit({ actionId: b.id, verb: 'followup.dm' })).toEqual([]);
  });

  it('the DM is drawn again when the action is completed in the care system: it says so and its buttons go', async () => {
    const c = await takenAction(h, 'Replace the pressure mattress');
    await at(h, c.taken, 30);
    await tick(h.app);
    expect(r.followUpText('sophie', c.id)).toContain('[Done]');

    await at(h, c.taken, 40);
    await h.control(`actions/${c.id}/complete`, {});
    await poll(h);
    const redrawn = await h.fake.waitFor(() => (r.followUpText('sophie', c.id).includes('It was completed') ? r.followUpText('sophie', c.id) : undefined), {
      timeoutMs: 10_000,
      message: 'the follow-up DM never said it was completed',
    });
    expect(redrawn).toContain('It was completed in the care system');
    for (const button of ['[Done]', '[Still on it]', '[Hand back]']) expect(redrawn).not.toContain(button);
    // Completed: the ladder does not resume.
    await at(h, c.taken, 60);
    await tick(h.app);
    expect(r.seniorDms('priya', c.id)).toHaveLength(0);
    expect(r.followUps('sophie', c.id)).toHaveLength(1);
  });

  it('reassigned after the DM: the DM says whose it is now and loses its buttons; the new holder gets their own follow-up', async () => {
    const f = await takenAction(h, 'Take Mr Jones his inhaler');
    await at(h, f.taken, 30);
    await tick(h.app);
    expect(r.followUps('sophie', f.id)).toHaveLength(1);

    await at(h, f.taken, 40);
    await h.control(`actions/${f.id}`, { assigned_to: care.oliver }, 'PATCH');
    await poll(h);
    const moved = await h.fake.waitFor(() => (r.followUpText('sophie', f.id).includes('It is with') ? r.followUpText('sophie', f.id) : undefined), {
      timeoutMs: 10_000,
      message: 'the follow-up DM never said whose it is now',
    });
    expect(moved).toContain('It is with @oliver now');
    for (const button of ['[Done]', '[Still on it]', '[Hand back]']) expect(moved).not.toContain(button);

    // Sophie's follow-up ended with her hold: no resume at minute 61; Oliver is followed up 30 minutes after it became his.
    await at(h, f.taken, 61);
    await tick(h.app);
    expect(r.seniorDms('priya', f.id)).toHaveLength(0);
    expect(r.followUps('oliver', f.id)).toHaveLength(0);
    await at(h, f.taken, 71);
    await tick(h.app);
    expect(r.followUps('oliver', f.id)).toHaveLength(1);
    expect(r.followUps('sophie', f.id)).toHaveLength(1);
    expect(r.seniorDms('priya', f.id)).toHaveLength(0);
  });

  it('Hand back asks first (Cancel changes nothing), then unassigns it, alerts the channel again once, and the ladder resumes', async () => {
    const d = await takenAction(h, 'Check the hoist sling');
    await at(h, d.taken, 30);
    await tick(h.app);
    const dm = r.followUps('sophie', d.id)[0]!;

    const cancelled = await h.driver.clickButton('sophie', { dm: true, ts: dm.ts, text: 'Hand back', confirm: 'cancel' });
    expect(cancelled.cancelled).toBe(true);
    expect(h.fake.confirmations('sophie').at(-1)).toMatchObject({ title: `Hand back #${d.no}?`, confirmLabel: 'Hand back', answer: 'deny' });
    expect((await h.control(`actions/${d.id}`)).assigned_to).toBe(care.sophie);
    expect(r.handBacks(d.id)).toHaveLength(0);

    await at(h, d.taken, 35);
    await h.driver.clickButton('sophie', { dm: true, ts: dm.ts, text: 'Hand back', confirm: 'accept' });
    await h.fake.waitFor(async () => ((await h.control(`actions/${d.id}`)).assigned_to === null ? true : undefined), {
      timeoutMs: 10_000,
      message: 'not unassigned in the care system',
    });
    const told = await h.fake.waitFor(() => (r.followUpText('sophie', d.id).includes('You handed it back') ? r.followUpText('sophie', d.id) : undefined), {
      timeoutMs: 10_000,
      message: 'the DM never said it was handed back',
    });
    expect(told).not.toContain('[Hand back]');
    const again = await h.fake.waitFor(() => r.handBacks(d.id)[0], { timeoutMs: 10_000, message: 'the channel was not alerted again' });
    const againText = h.fake.visibleText(again, { viewer: 'amelia' });
    expect(againText).toContain('Handed back by @sophie');
    expect(againText).toContain('[Take it]');
    // The original alert shows it as nobody's again.
    await h.fake.waitFor(() => (r.alertText(d.id).includes('unassigned') ? true : undefined), { timeoutMs: 10_000, message: 'the alert still shows it taken' });

    // A second press changes nothing more; the channel is alerted once.
    await h.driver.clickButton('sophie', { dm: true, ts: dm.ts, text: 'Done' }).catch(() => undefined);
    await poll(h);
    expect(r.handBacks(d.id)).toHaveLength(1);
    expect(await h.app.store.listAudit({ actionId: d.id, verb: 'followup.hand-back' })).toHaveLength(1);

    // The ladder resumes one step's time (15 minutes) after the hand-back: the seniors, then the managers.
    await at(h, d.taken, 35 + 14);
    await tick(h.app);
    expect(r.seniorDms('priya', d.id)).toHaveLength(0);
    await at(h, d.taken, 35 + 16);
    await tick(h.app);
    expect(r.seniorDms('priya', d.id)).toHaveLength(1);
    expect(h.fake.visibleText(r.seniorDms('priya', d.id)[0]!, { viewer: 'priya' })).toContain('handed back');
    expect(r.alertText(d.id)).toMatch(/Handed back: Escalated to @priya, @oliver/);

    // History keeps it: the follow-up DM, the hand-back and the resumed step.
    await command(h, 'amelia', `/care show ${d.no}`, { channel: '#care-team' });
    await h.driver.clickButton('amelia', { ephemeral: true, channel: '#care-team', text: 'History' });
    const history = await h.fake.waitFor(
      () => {
        const m = h.fake.openModal('amelia');
        const text = m ? h.fake.visibleText(m.view, { viewer: 'amelia' }) : '';
        return text.includes(`History of action #${d.no}`) ? text : undefined;
      },
      { timeoutMs: 10_000, message: 'no history' },
    );
    expect(history).toContain('Still open: follow-up DM to @sophie');
    expect(history).toContain('Handed back by @sophie: unassigned');
    expect(history).toContain('Handed back: Escalated to @priya, @oliver (DM, the seniors of the Day shift)');
  });

  it('Still on it restarts the clock once; Done completes it as Complete does', async () => {
    const e = await takenAction(h, 'Fix the call bell in room 2');
    await at(h, e.taken, 30);
    await tick(h.app);
    const dm = r.followUps('sophie', e.id)[0]!;
    await at(h, e.taken, 50);
    await h.driver.clickButton('sophie', { dm: true, ts: dm.ts, text: 'Still on it' });
    const still = await h.fake.waitFor(() => (r.followUpText('sophie', e.id).includes('still on it at') ? r.followUpText('sophie', e.id) : undefined), {
      timeoutMs: 10_000,
      message: 'the DM never said she is still on it',
    });
    expect(still).not.toContain('[Still on it]');
    expect(still).toContain('[Done]');
    // 30 minutes after the DM: no seniors (the clock restarted at 50); 30 after Still on it, they are told.
    await at(h, e.taken, 60);
    await tick(h.app);
    expect(r.seniorDms('priya', e.id)).toHaveLength(0);

    await at(h, e.taken, 70);
    await h.driver.clickButton('sophie', { dm: true, ts: dm.ts, text: 'Done' });
    await h.fake.waitFor(async () => ((await h.control(`actions/${e.id}`)).completed ? true : undefined), {
      timeoutMs: 10_000,
      message: 'Done did not complete it',
    });
    await h.fake.waitFor(() => (r.alertText(e.id).includes('was completed by @sophie') ? true : undefined), {
      timeoutMs: 10_000,
      message: 'the alert never said who completed it',
    });
    expect(r.followUpText('sophie', e.id)).toContain('It was completed by @sophie');
    await at(h, e.taken, 80);
    await tick(h.app);
    expect(r.seniorDms('priya', e.id)).toHaveLength(0);
    expect((await h.app.store.listAudit({ actionId: e.id, verb: 'action.complete' })).map((x) => x.userId)).toEqual(['U0SOPHIE']);
  });
});

describe('/care escalation followup', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ startAt: START, sandbox: { seed: 'empty' } });
  });
  afterAll(async () => h?.close());

  it('is shown (default 30), changed and turned off by an admin, audited; a wrong argument says what to type', async () => {
    expect((await command(h, 'amelia', '/care escalation')).text).toContain('still open after 30 minutes gets one DM to whoever holds it');
    expect((await command(h, 'amelia', '/care escalation followup 45')).text).toContain('still open after 45 minutes');
    expect((await command(h, 'amelia', '/care escalation followup off')).text).toContain('Follow-up of taken work: off');
    expect(JSON.parse((await h.app.store.getHomeSetting(h.fake.teamId, 'escalation'))!.value).followupMinutes).toBeNull();
    expect((await h.app.store.listAudit({ verb: 'escalation.set' })).map((e) => e.details)).toEqual([{ followupMinutes: null }, { followupMinutes: 45 }]);
    expect((await command(h, 'amelia', '/care escalation followup 2')).text).toContain('whole number from 5 to 240 (not 2), or off');
    expect((await command(h, 'sophie', '/care escalation followup 20')).text).toContain('Only admins can do that.');
    expect((await command(h, 'amelia', '/care help')).text).toContain('followup');
  });
});

/** Two instances on one database, both running the escalation job at every minute that matters. */
function twoInstances(
  name: string,
  store: () => Promise<{ harness: Partial<Parameters<typeof startHarness>[0]>; second: (h: Harness) => Promise<ComposedApp>; done: () => Promise<void> }>,
) {
  describe(name, () => {
    let h: Harness;
    let b: ComposedApp;
    let done: () => Promise<void>;
    beforeAll(async () => {
      const s = await store();
      done = s.done;
      h = await startHarness({ startAt: START, sandbox: { seed: 'empty' }, jobs: { instanceId: 'instance-a' }, ...s.harness });
      for (const person of ['sophie', 'priya']) await linkDirectly(h, person);
      await command(h, 'amelia', '/care digest here urgent-only', { channel: '#care-leads' });
      await poll(h);
      await setLadder(h);
      b = await s.second(h);
    });
    afterAll(async () => {
      await b?.stop();
      await h?.close();
      await done?.();
    });

    it('the follow-up DM and the resumed seniors step exactly once between them', async () => {
      const r = readers(h);
      const a = await takenAction(h, 'Urgent: the lift is stuck');
      for (const minutes of [30, 61]) {
        await at(h, a.taken, minutes);
        await Promise.all([tick(h.app).catch(() => undefined), b.jobs.runOnce('escalations')]);
        await b.jobs.runOnce('escalations');
        await h.app.jobs.runOnce('escalations');
      }
      expect(r.followUps('sophie', a.id)).toHaveLength(1);
      expect(r.seniorDms('priya', a.id)).toHaveLength(1);
      expect(await h.app.store.listAudit({ actionId: a.id, verb: 'followup.dm' })).toHaveLength(1);
      expect(await h.app.store.listAudit({ actionId: a.id, verb: 'followup.resume' })).toHaveLength(1);
    });
  });
}

twoInstances('follow-up: two instances sharing one SQLite file', () => onOneSqliteFile('care-followup'));

if (!TEST_DATABASE_URL) it.skip(PG_SKIPPED, () => {});
else twoInstances('follow-up: two instances sharing one PostgreSQL database', () => onOnePostgresSchema(TEST_DATABASE_URL!, 'followup', 'care-followup'));
