import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ComposedApp } from '../../src/compose.js';
import { PG_SKIPPED, TEST_DATABASE_URL } from '../helpers/pg.js';
import { onOnePostgresSchema, onOneSqliteFile } from './fixtures/two-instances.js';
import { deliveryActionId, deliveryKind, poll } from './fixtures/jobs-support.js';
import { command, linkDirectly, startHarness, webAppAction, type Harness } from './harness.js';

const START = new Date('2027-06-15T09:00:00Z');
const MIN = 60_000;

/** What a test reads of one action's escalation in the fake Slack. */
function readers(h: Harness, alertChannel = '#care-leads') {
  const ofAction = (kind: string, id: string) => (m: { metadata?: { event_type?: string; event_payload?: Record<string, unknown> } }) =>
    deliveryKind(m) === kind && deliveryActionId(m) === id;
  const alert = (id: string) => h.fake.messages(alertChannel).find(ofAction('urgent', id));
  return {
    alert,
    alertText: (id: string) => {
      const a = alert(id);
      return a ? h.fake.visibleText(a, { viewer: 'amelia' }) : '';
    },
    threadReminders: (id: string) => (alert(id)?.replies ?? []).filter(ofAction('escalation', id)),
    seniorDms: (user: string, id: string) => h.fake.dms(user).filter(ofAction('escalation', id)),
    managersPosts: (id: string) => h.fake.messages('#general').filter(ofAction('escalation', id)),
  };
}

async function escalate(app: ComposedApp): Promise<unknown> {
  const run = await app.jobs.runOnce('escalations');
  if (!run.ran) throw new Error('the escalation job did not run');
  const result = run.result as { error?: string } | undefined;
  if (result?.error) throw new Error(`the escalation job failed: ${result.error}`);
  return result;
}

/** A new urgent action made in the web app, alerted by a poll; `began`: when it became urgent (the care system's time). */
async function urgentAction(h: Harness, task: string, assignee: string | null = null): Promise<{ id: string; no: string; began: number }> {
  await h.setTime(new Date(h.now().getTime() + 5_000));
  const a = await webAppAction(h, { task, due: new Date(h.now().getTime() + 3 * 60 * MIN), urgent: true, assigned_to: assignee });
  await poll(h);
  return { id: a._id, no: a.action_no, began: Date.parse(String(a.modified)) };
}

const minutesAfter = (h: Harness, began: number, minutes: number) => h.setTime(new Date(began + minutes * MIN + 2_000));

async function setLadder(h: Harness): Promise<void> {
  await command(h, 'amelia', '/care escalation after 15');
  await command(h, 'amelia', '/care escalation steps thread,seniors,managers');
  expect((await command(h, 'amelia', '/care escalation managers <#C0GENERAL|general>')).text).toContain('Escalation set.');
  expect((await command(h, 'amelia', '/care escalation seniors Day <@U0PRIYA|priya> <@U0OLIVER|oliver>')).text).toContain('Day: @priya @oliver');
}

describe('escalation of urgent work (issue 27)', () => {
  let h: Harness;
  let r: ReturnType<typeof readers>;
  let quiet: { _id: string };
  const care: Record<string, string> = {};

  beforeAll(async () => {
    h = await startHarness({ startAt: START, sandbox: { seed: 'empty' } });
    r = readers(h);
    for (const person of ['sophie', 'oliver', 'priya']) care[person] = await linkDirectly(h, person);
    await command(h, 'amelia', '/care digest here urgent-only', { channel: '#care-leads' }); // private: task text shown
    // Urgent before the app's first look: known, never alerted, never escalated.
    quiet = await webAppAction(h, { task: 'Urgent since before the app', due: new Date('2027-06-15T12:00:00Z'), urgent: true });
    await poll(h);
    await setLadder(h);
  });
  afterAll(async () => h?.close());

  it('climbs the whole ladder, each step once at its time, to the right people, and the alert says so', async () => {
    const a = await urgentAction(h, 'Mrs Patel has not had her insulin');
    expect(r.alert(a.id)).toBeDefined();

    await minutesAfter(h, a.began, 14);
    await escalate(h.app);
    expect(r.threadReminders(a.id)).toHaveLength(0);

    await minutesAfter(h, a.began, 15);
    await escalate(h.app);
    await escalate(h.app);
    expect(r.threadReminders(a.id)).toHaveLength(1);
    const reminder = h.fake.visibleText(r.threadReminders(a.id)[0]!, { viewer: 'amelia' });
    expect(reminder).toContain(`urgent action #${a.no} has had no answer for 15 minutes`);
    expect(r.alertText(a.id)).toMatch(/Reminder sent in thread at \d\d:\d\d/);
    expect(r.seniorDms('priya', a.id)).toHaveLength(0);

    await minutesAfter(h, a.began, 30);
    await escalate(h.app);
    await escalate(h.app);
    for (const senior of ['priya', 'oliver']) {
      const dms = r.seniorDms(senior, a.id);
      expect(dms, `${senior}'s escalation DMs`).toHaveLength(1);
      const dm = dms[0]!;
      expect(h.fake.visibleText(dm, { viewer: senior })).toContain(`Urgent action #${a.no}* · unanswered for 30 minutes`.replace('*', ''));
      expect(h.fake.visibleText(dm, { viewer: senior })).toContain('[Take it]');
      // The lock-screen text names no resident and carries no task text.
      expect(dm.text).toBe(`Escalated: urgent action #${a.no}, unanswered for 30 minutes`);
    }
    expect(r.seniorDms('sophie', a.id)).toHaveLength(0);
    expect(r.alertText(a.id)).toMatch(/Escalated to @priya, @oliver at \d\d:\d\d/);
    expect(r.managersPosts(a.id)).toHaveLength(0);

    await minutesAfter(h, a.began, 45);
    await escalate(h.app);
    expect(r.managersPosts(a.id)).toHaveLength(1);
    const managers = h.fake.visibleText(r.managersPosts(a.id)[0]!, { viewer: 'amelia' });
    expect(managers).toContain(`#${a.no}`);
    expect(managers).toContain('unanswered for 45 minutes');
    expect(managers).not.toContain('insulin'); // #general is public and not opted in to task text
    expect(r.alertText(a.id)).toMatch(/Escalated to #general at \d\d:\d\d/);
    expect(r.alertText(a.id)).toContain('Reminder sent in thread');

    // Nothing more, however long it stays unanswered.
    await minutesAfter(h, a.began, 90);
    await escalate(h.app);
    await poll(h);
    await escalate(h.app);
    expect(r.threadReminders(a.id)).toHaveLength(1);
    expect(r.seniorDms('priya', a.id)).toHaveLength(1);
    expect(r.seniorDms('oliver', a.id)).toHaveLength(1);
    expect(r.managersPosts(a.id)).toHaveLength(1);

    const audit = (await h.app.store.listAudit({ actionId: a.id, verb: 'escalate' })).reverse();
    expect(audit.map((e) => e.details)).toEqual([
      expect.objectContaining({ step: 'thread', to: ['C0LEADS'] }),
      expect.objectContaining({ step: 'seniors', to: ['U0PRIYA', 'U0OLIVER'] }),
      expect.objectContaining({ step: 'managers', to: ['C0GENERAL'] }),
    ]);
    expect(JSON.stringify(audit)).not.toContain('insulin');
  });

  it('stops when someone takes it between two steps: no further step, and the alert says who took it', async () => {
    const b = await urgentAction(h, 'Call the GP about the rash');
    await minutesAfter(h, b.began, 15);
    await escalate(h.app);
    expect(r.threadReminders(b.id)).toHaveLength(1);

    await h.driver.clickButton('sophie', { channel: '#care-leads', ts: r.alert(b.id)!.ts, text: 'Take it' });
    await h.fake.waitFor(() => (r.alertText(b.id).includes('Taken by @sophie') ? true : undefined), {
      timeoutMs: 10_000,
      message: 'the alert never said who took it',
    });
    await poll(h);

    for (const minutes of [30, 45, 60]) {
      await minutesAfter(h, b.began, minutes);
      await escalate(h.app);
    }
    expect(r.seniorDms('priya', b.id)).toHaveLength(0);
    expect(r.seniorDms('oliver', b.id)).toHaveLength(0);
    expect(r.managersPosts(b.id)).toHaveLength(0);
    expect(r.alertText(b.id)).toContain('Taken by @sophie');
    expect(r.alertText(b.id)).toContain('Reminder sent in thread');
    expect((await h.app.store.listAudit({ actionId: b.id, verb: 'escalate' })).map((e) => e.details.step)).toEqual(['thread']);
  });

  it('a senior takes it from their DM: the managers are not told', async () => {
    const g = await urgentAction(h, 'Mr Ahmed needs two carers to stand');
    for (const minutes of [15, 30]) {
      await minutesAfter(h, g.began, minutes);
      await escalate(h.app);
    }
    const dm = r.seniorDms('priya', g.id)[0]!;
    expect(dm).toBeDefined();
    await h.driver.clickButton('priya', { dm: true, ts: dm.ts, text: 'Take it' });
    await h.fake.waitFor(async () => ((await h.control(`actions/${g.id}`)).assigned_to === care.priya ? true : undefined), {
      timeoutMs: 10_000,
      message: 'not taken from the DM',
    });
    await minutesAfter(h, g.began, 45);
    await escalate(h.app);
    await minutesAfter(h, g.began, 60);
    await escalate(h.app);
    expect(r.managersPosts(g.id)).toHaveLength(0);
    expect((await h.app.store.listAudit({ actionId: g.id, verb: 'escalate' })).map((e) => e.details.step).sort()).toEqual(['seniors', 'thread']);
  });

  it('an action already assigned when it became urgent still escalates: its assignee has not answered', async () => {
    const c = await urgentAction(h, 'Check the hoist sling', care.sophie!);
    await minutesAfter(h, c.began, 15);
    await escalate(h.app);
    expect(r.threadReminders(c.id)).toHaveLength(1);
  });

  it('stops when it is completed in the care system’s web app (seen by the poll)', async () => {
    const d = await urgentAction(h, 'Replace the pressure mattress');
    await minutesAfter(h, d.began, 15);
    await escalate(h.app);
    expect(r.threadReminders(d.id)).toHaveLength(1);
    await h.control(`actions/${d.id}/complete`, {});
    await poll(h);
    for (const minutes of [30, 45]) {
      await minutesAfter(h, d.began, minutes);
      await escalate(h.app);
    }
    expect(r.seniorDms('priya', d.id)).toHaveLength(0);
    expect(r.managersPosts(d.id)).toHaveLength(0);
  });

  it('stops when it is made not urgent, and never starts for an action urgent before the app first saw it', async () => {
    const e = await urgentAction(h, 'Fix the call bell in room 2');
    await h.setTime(new Date(e.began + 5 * MIN));
    await h.control(`actions/${e.id}`, { urgent: false }, 'PATCH');
    await poll(h);
    for (const minutes of [15, 30, 45]) {
      await minutesAfter(h, e.began, minutes);
      await escalate(h.app);
    }
    expect(r.threadReminders(e.id)).toHaveLength(0);
    expect(r.seniorDms('priya', e.id)).toHaveLength(0);
    expect(r.managersPosts(e.id)).toHaveLength(0);

    expect(h.fake.messages('#care-leads').filter((m) => deliveryActionId(m) === quiet._id)).toEqual([]);
    expect(h.fake.dms('priya').filter((m) => deliveryActionId(m) === quiet._id)).toEqual([]);
    expect(h.fake.messages('#general').filter((m) => deliveryActionId(m) === quiet._id)).toEqual([]);
    expect(await h.app.store.listAudit({ actionId: quiet._id, verb: 'escalate' })).toEqual([]);
  });

  it('skips the seniors when none are named for the shift on (the next step comes at once), and says so in the audit', async () => {
    await h.setTime('2027-06-15T19:30:00Z'); // 20:30 in London: the Night shift
    const f = await urgentAction(h, 'Check on Mr Jones overnight');
    await minutesAfter(h, f.began, 15);
    await escalate(h.app);
    expect(r.threadReminders(f.id)).toHaveLength(1);
    // Nobody to DM on the Night shift: the managers are told at once, in the seniors' place.
    await minutesAfter(h, f.began, 30);
    await escalate(h.app);
    expect(r.seniorDms('priya', f.id)).toHaveLength(0);
    expect(r.managersPosts(f.id)).toHaveLength(1);
    await minutesAfter(h, f.began, 45);
    await escalate(h.app);
    expect(r.managersPosts(f.id)).toHaveLength(1);
    const seniors = (await h.app.store.listAudit({ actionId: f.id, verb: 'escalate' })).find((e) => e.details.step === 'seniors');
    expect(seniors?.details).toMatchObject({ to: [], skipped: 'no seniors named for the Night shift' });
  });
});

describe('/care escalation: the ladder’s settings', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ startAt: START, sandbox: { seed: 'empty' } });
  });
  afterAll(async () => h?.close());

  it('shows the default ladder to an admin', async () => {
    const shown = (await command(h, 'amelia', '/care escalation')).text;
    expect(shown).toContain('1. after 15 minutes: a reminder in the urgent alert’s thread');
    expect(shown).toContain('2. after 30 minutes: a DM to the seniors on shift');
    expect(shown).toContain('3. after 45 minutes: a post in the managers’ channel');
    expect(shown).toContain('Day: nobody named');
    expect(shown).toContain('Night: nobody named');
  });

  it('changes each part, audited; the setting is one home setting the handover can read', async () => {
    expect((await command(h, 'amelia', '/care escalation after 20')).text).toContain('1. after 20 minutes');
    const steps = (await command(h, 'amelia', '/care escalation steps managers, thread')).text;
    expect(steps).toContain('1. after 20 minutes: a post in the managers’ channel');
    expect(steps).toContain('2. after 40 minutes: a reminder in the urgent alert’s thread');
    expect((await command(h, 'amelia', '/care escalation managers #care-team')).text).toContain('Managers’ channel: @care-team'.replace('@', '#'));
    expect((await command(h, 'amelia', '/care escalation seniors night <@U0PRIYA|priya>')).text).toContain('Night: @priya');
    expect((await command(h, 'amelia', '/care escalation off')).text).toContain('Escalation is off');
    const stored = JSON.parse((await h.app.store.getHomeSetting(h.fake.teamId, 'escalation'))!.value);
    expect(stored).toEqual({ afterMinutes: 20, steps: [], managersChannel: 'C0CARE', seniors: { Night: ['U0PRIYA'] } });
    const audit = await h.app.store.listAudit({ verb: 'escalation.set' });
    expect(audit).toHaveLength(5);
    expect(audit.every((e) => e.userId === 'U0AMELIA')).toBe(true);
  });

  it('answers a wrong argument with one sentence saying what to type', async () => {
    const said = async (line: string) => (await command(h, 'amelia', line)).text;
    expect(await said('/care escalation after 2')).toContain('whole number from 5 to 240 (not 2)');
    expect(await said('/care escalation after soon')).toContain('(not soon): e.g. /care escalation after 15');
    expect(await said('/care escalation steps thread,boss')).toContain("I don't know the step boss: the steps are thread, seniors and managers");
    expect(await said('/care escalation steps thread,thread')).toContain('Name each step once');
    expect(await said('/care escalation managers')).toContain('Name one channel for the managers');
    expect(await said('/care escalation managers #random')).toContain('I am not in <#C0RANDOM>'.replace('<#C0RANDOM>', '#random'));
    expect(await said('/care escalation seniors Evening <@U0PRIYA|priya>')).toContain('There is no shift called “Evening”. The shifts are Day, Night');
    expect(await said('/care escalation seniors Day')).toContain('Name the seniors of the Day shift with @');
    expect(await said('/care escalation sideways')).toContain("I don't know /care escalation sideways.");
  });

  it('two changes sent together both hold: the seniors of Day and of Night, typed one after the other without waiting', async () => {
    await command(h, 'amelia', '/care escalation steps thread,seniors,managers');
    const [day, night] = await Promise.all([
      command(h, 'amelia', '/care escalation seniors Day @oliver'),
      command(h, 'amelia', '/care escalation seniors Night @sophie'),
    ]);
    expect(day.text).toContain('Day: @oliver');
    expect(night.text).toContain('Night: @sophie');
    const shown = (await command(h, 'amelia', '/care escalation')).text;
    expect(shown).toContain('Day: @oliver');
    expect(shown).toContain('Night: @sophie');
  });

  it('refuses someone who is not an admin, changing nothing', async () => {
    const before = await h.app.store.getHomeSetting(h.fake.teamId, 'escalation');
    for (const line of ['/care escalation', '/care escalation after 30', '/care escalation steps thread'])
      expect((await command(h, 'sophie', line)).text).toContain('Only admins can do that.');
    expect(await h.app.store.getHomeSetting(h.fake.teamId, 'escalation')).toEqual(before);
  });
});

/** Two instances on one database, both running the escalation job at every step. */
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
      await linkDirectly(h, 'priya');
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

    it('each step exactly once between them, even when one forgets it took a step', async () => {
      const r = readers(h);
      const a = await urgentAction(h, 'Urgent: the lift is stuck');
      for (const minutes of [15, 30, 45]) {
        await minutesAfter(h, a.began, minutes);
        await Promise.all([escalate(h.app).catch(() => undefined), b.jobs.runOnce('escalations')]);
        await b.jobs.runOnce('escalations');
        await h.app.jobs.runOnce('escalations');
      }
      expect(r.threadReminders(a.id)).toHaveLength(1);
      expect(r.seniorDms('priya', a.id)).toHaveLength(1);
      expect(r.seniorDms('oliver', a.id)).toHaveLength(1);
      expect(r.managersPosts(a.id)).toHaveLength(1);

      // An instance that sent a step but died before remembering it: the other finds it in the ledger and sends nothing again.
      await h.app.store.setCursor(`escalation:${a.id}@${h.fake.teamId}`, '');
      await b.jobs.runOnce('escalations');
      await h.app.jobs.runOnce('escalations');
      expect(r.threadReminders(a.id)).toHaveLength(1);
      expect(r.seniorDms('priya', a.id)).toHaveLength(1);
      expect(r.managersPosts(a.id)).toHaveLength(1);
      expect((await h.app.store.listAudit({ actionId: a.id, verb: 'escalate' })).map((e) => e.details.step).sort()).toEqual(['managers', 'seniors', 'thread']);
    });
  });
}

twoInstances('two instances sharing one SQLite file', () => onOneSqliteFile('care-escalate'));

if (!TEST_DATABASE_URL) it.skip(PG_SKIPPED, () => {});
else twoInstances('two instances sharing one PostgreSQL database', () => onOnePostgresSchema(TEST_DATABASE_URL!, 'escalation', 'care-escalate'));
