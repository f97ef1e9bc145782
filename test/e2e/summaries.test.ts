import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSchema, PG_SKIPPED, TEST_DATABASE_URL, type TestSchema } from '../helpers/pg.js';
import { deliveryKind, lineIds } from './fixtures/jobs-support.js';
import { urlWithSchema } from './fixtures/spawn-instance.js';
import { appLives } from './fixtures/app-lives.js';
import { command, linkDirectly, startHarness, webAppAction, type Harness } from './harness.js';
import { homeShows as homeTabShows, homeText as homeTabText } from './steps.js';

/**
 * Each person's own morning summary: `/care summary`, the Home tab's setting,
 * and the DM at their chosen time in their own Slack time zone, once per local day.
 */

/** The summaries the app sent a person (their DM with the app). */
const summariesOf = (h: Harness, user: string) => h.fake.dms(user).filter((m) => deliveryKind(m) === 'summary');
const seen = (h: Harness, user: string, m: Parameters<Harness['fake']['visibleText']>[0]) => h.fake.visibleText(m, { viewer: user });

/** Move both clocks to `at`, then run the summary job once (as the every-minute tick would). */
async function summaryTickAt(h: Harness, at: string): Promise<void> {
  await h.setTime(at);
  const run = await h.app.jobs.runOnce('summaries');
  if (!run.ran) throw new Error(`the summary job did not run at ${at}`);
  const result = run.result as { error?: string } | undefined;
  if (result?.error) throw new Error(`the summary job failed at ${at}: ${result.error}`);
}

describe('/care summary and the DM at each person’s own 07:30', () => {
  let h: Harness;
  const a: Record<string, { _id: string; action_no: string }> = {};
  const tasks = {
    overdue: 'Overdue: ring the pharmacy about Mrs Patel',
    urgentToday: 'Urgent today: chase the GP letter for room 4',
    lateToday: 'Late today: lock the medicine room',
    earlyTomorrow: 'Tomorrow early: night check on room 9',
    urgentLater: 'Urgent later: book the hoist service',
    later: 'Later: order gloves',
    done: 'Done: fix the call bell',
    priyas: 'Priya’s own: update the rota',
  };

  beforeAll(async () => {
    // Tuesday 15 June 2027: 06:00 in London (BST), 01:00 in New York (EDT).
    h = await startHarness({ startAt: new Date('2027-06-15T05:00:00Z'), sandbox: { seed: 'empty' } });
    const sophie = await linkDirectly(h, 'sophie');
    await linkDirectly(h, 'oliver');
    const priya = await linkDirectly(h, 'priya');
    const mine = (task: string, due: string, urgent = false) => webAppAction(h, { task, due: new Date(due), assigned_to: sophie, urgent });
    a.overdue = await mine(tasks.overdue, '2027-06-14T10:00:00Z');
    a.urgentToday = await mine(tasks.urgentToday, '2027-06-15T16:00:00Z', true);
    a.lateToday = await mine(tasks.lateToday, '2027-06-15T22:30:00Z'); // 23:30 BST today
    a.earlyTomorrow = await mine(tasks.earlyTomorrow, '2027-06-15T23:30:00Z'); // 00:30 BST tomorrow
    a.urgentLater = await mine(tasks.urgentLater, '2027-06-18T09:00:00Z', true);
    a.later = await mine(tasks.later, '2027-06-18T09:00:00Z');
    a.done = await mine(tasks.done, '2027-06-14T09:00:00Z');
    await h.control(`actions/${a.done._id}/complete`, {});
    a.priyas = await webAppAction(h, { task: tasks.priyas, due: new Date('2027-06-14T09:00:00Z'), assigned_to: priya });
  });
  afterAll(async () => h?.close());

  it('tells people with no linked care account to link first, and keeps nothing', async () => {
    for (const line of ['/care summary', '/care summary 07:30', '/care summary off']) {
      expect((await command(h, 'visitor', line)).text, line).toContain('Only people with a linked care account can do that. Type /care link');
    }
    expect(await h.app.store.getSummarySetting(h.fake.teamId, 'U0VISITOR')).toBeNull();
  });

  it('turns it on, says the setting and when the next one comes, changes part of it, turns it off and on again', async () => {
    expect((await command(h, 'sophie', '/care summary')).text).toContain('You have no morning summary.');
    expect((await command(h, 'sophie', '/care summary')).text).toContain('every day at 07:30 your time');
    const on = (await command(h, 'sophie', '/care summary 7:30')).text;
    // A care home works every day: every day unless weekdays are asked for.
    expect(on).toContain('Morning summary on: 07:30 every day (Europe/London)');
    expect(on).toContain('overdue, due-today and urgent actions');
    expect(on).toContain('Next: today at 7:30 AM');
    expect((await command(h, 'sophie', '/care summary weekdays')).text).toContain('07:30 on weekdays (Europe/London)');
    expect((await command(h, 'sophie', '/care summary')).text).toContain('Your morning summary: 07:30 on weekdays (Europe/London)');
    expect((await command(h, 'sophie', '/care summary off')).text).toContain('Your morning summary is off.');
    expect((await command(h, 'sophie', '/care summary off')).text).toContain('Your morning summary was not on.');
    expect((await command(h, 'sophie', '/care summary')).text).toContain('Your morning summary is off.');
    expect((await command(h, 'sophie', '/care summary on')).text).toContain('Morning summary on: 07:30 on weekdays');
    expect((await command(h, 'sophie', '/care summary 7:30 weekdays')).text).toContain('Morning summary on: 07:30 on weekdays');
    const audit = await h.app.store.listAudit({ limit: 50 });
    const verbs = audit.filter((e) => e.userId === 'U0SOPHIE').map((e) => e.verb);
    expect(verbs.sort()).toEqual(['summary.off', 'summary.set', 'summary.set', 'summary.set', 'summary.set']);

    // Oliver's Slack time zone is New York: his 07:30 is New York's.
    const olivers = (await command(h, 'oliver', '/care summary 07:30 weekdays')).text;
    expect(olivers).toContain('07:30 on weekdays (America/New_York)');
    expect(olivers).toContain('Next: today at 7:30 AM'); // as Oliver's Slack shows it, in his zone (01:00 there)
    expect(await h.app.store.getSummarySetting(h.fake.teamId, 'U0OLIVER')).toMatchObject({ time: '07:30', days: 'weekdays', enabled: true });
  });

  it('sends it at 07:30 in each person’s own zone: London at 06:30Z, New York at 11:30Z, once each', async () => {
    const counts = () => [summariesOf(h, 'sophie').length, summariesOf(h, 'oliver').length];
    const expectations: [string, number, number][] = [
      ['2027-06-15T06:29:00Z', 0, 0], // 07:29 in London
      ['2027-06-15T06:30:00Z', 1, 0], // 07:30 in London, 02:30 in New York
      ['2027-06-15T06:30:40Z', 1, 0],
      ['2027-06-15T09:00:00Z', 1, 0],
      ['2027-06-15T11:29:00Z', 1, 0], // 07:29 in New York
      ['2027-06-15T11:30:00Z', 1, 1], // 07:30 in New York
      ['2027-06-15T15:00:00Z', 1, 1],
      ['2027-06-15T22:59:00Z', 1, 1], // 23:59 in London
    ];
    for (const [at, sophie, oliver] of expectations) {
      await summaryTickAt(h, at);
      expect(counts(), `summaries (Sophie, Oliver) after the tick at ${at}`).toEqual([sophie, oliver]);
    }
    // Nothing due for Oliver: a short line, so he knows it ran.
    const olivers = summariesOf(h, 'oliver')[0]!;
    expect(olivers.text).toBe('Nothing overdue or due today (Tuesday 15 June)');
    expect(seen(h, 'oliver', olivers)).toContain('Nothing overdue or due today');
    expect(seen(h, 'oliver', olivers)).toContain('07:30 on weekdays (America/New_York)');
  });

  it('lists their own overdue, due-today and urgent actions with task text, urgent first', () => {
    const dm = summariesOf(h, 'sophie')[0]!;
    const shown = seen(h, 'sophie', dm);
    expect(shown).toContain('Your care actions · Tuesday 15 June');
    expect(shown).toContain('1 overdue · 2 due today · 2 urgent');
    expect(lineIds(dm).sort()).toEqual([a.overdue!._id, a.urgentToday!._id, a.lateToday!._id, a.urgentLater!._id].sort());
    for (const t of [tasks.overdue, tasks.urgentToday, tasks.lateToday, tasks.urgentLater]) expect(shown).toContain(t);
    for (const t of [tasks.earlyTomorrow, tasks.later, tasks.done, tasks.priyas]) expect(shown).not.toContain(t);
    const at = (k: string) => shown.indexOf(tasks[k as keyof typeof tasks]);
    expect(at('overdue')).toBeLessThan(at('urgentToday'));
    expect(at('urgentToday')).toBeLessThan(at('lateToday'));
    expect(at('lateToday')).toBeLessThan(at('urgentLater'));
    expect(shown.match(/\[Complete\]/g)).toHaveLength(4);
    expect(shown).toContain('Your morning summary: 07:30 on weekdays (Europe/London)');
    // The notification text carries no task text.
    expect(dm.text).toBe('Your care actions for Tuesday 15 June: 1 overdue, 2 due today, 2 urgent');
  });

  it('its Complete button completes the action', async () => {
    const dm = summariesOf(h, 'sophie')[0]!;
    await h.driver.clickButton('sophie', { dm: true, text: 'Complete', ts: dm.ts });
    await h.fake.waitFor(async () => (await h.control(`actions/${a.overdue!._id}`)).completed, { timeoutMs: 15_000, message: 'the action was not completed' });
  });

  it('the next weekday brings the next one; the weekend none; turned off, none', async () => {
    await summaryTickAt(h, '2027-06-16T06:30:00Z'); // Wednesday 07:30 in London
    await summaryTickAt(h, '2027-06-16T11:30:00Z'); // Wednesday 07:30 in New York
    expect([summariesOf(h, 'sophie').length, summariesOf(h, 'oliver').length]).toEqual([2, 2]);
    expect(summariesOf(h, 'sophie')[1]!.text).toContain('Wednesday 16 June');
    await summaryTickAt(h, '2027-06-19T06:30:00Z'); // Saturday
    await summaryTickAt(h, '2027-06-19T11:30:00Z');
    expect([summariesOf(h, 'sophie').length, summariesOf(h, 'oliver').length]).toEqual([2, 2]);
    await command(h, 'oliver', '/care summary off');
    await summaryTickAt(h, '2027-06-21T06:30:00Z'); // Monday
    await summaryTickAt(h, '2027-06-21T11:30:00Z');
    expect([summariesOf(h, 'sophie').length, summariesOf(h, 'oliver').length]).toEqual([3, 2]);
  });
});

describe('a summary set after today’s time, and someone who moves time zone', () => {
  let h: Harness;
  beforeAll(async () => {
    // Tuesday 15 June 2027, 08:00 in London, 03:00 in New York.
    h = await startHarness({ startAt: new Date('2027-06-15T07:00:00Z'), sandbox: { seed: 'empty' } });
    await linkDirectly(h, 'sophie');
    await linkDirectly(h, 'oliver');
  });
  afterAll(async () => h?.close());

  it('set after today’s time: the first one is tomorrow, as the reply says', async () => {
    expect((await command(h, 'sophie', '/care summary 07:30 daily')).text).toContain('Next: tomorrow at 7:30 AM');
    await summaryTickAt(h, '2027-06-15T07:00:30Z');
    await summaryTickAt(h, '2027-06-15T20:00:00Z');
    expect(summariesOf(h, 'sophie')).toEqual([]);
    await summaryTickAt(h, '2027-06-16T06:30:00Z');
    expect(summariesOf(h, 'sophie')).toHaveLength(1);
    // Moved later after today's went out: not a second one today, and the reply says tomorrow.
    expect((await command(h, 'sophie', '/care summary 09:00')).text).toContain('Next: tomorrow at 9:00 AM');
    await summaryTickAt(h, '2027-06-16T08:00:00Z');
    expect(summariesOf(h, 'sophie')).toHaveLength(1);
  });

  it('someone who moves from New York to London gets it at 07:30 London time', async () => {
    await command(h, 'oliver', '/care summary 07:30 daily');
    await summaryTickAt(h, '2027-06-16T11:30:00Z'); // 07:30 in New York
    expect(summariesOf(h, 'oliver')).toHaveLength(1);
    h.fake.user('oliver')!.tz = 'Europe/London'; // Oliver's Slack now says London
    await summaryTickAt(h, '2027-06-17T06:29:00Z');
    expect(summariesOf(h, 'oliver')).toHaveLength(1);
    await summaryTickAt(h, '2027-06-17T06:30:00Z'); // 07:30 in London (02:30 in New York)
    expect(summariesOf(h, 'oliver')).toHaveLength(2);
    expect(seen(h, 'oliver', summariesOf(h, 'oliver')[1]!)).toContain('07:30 every day (Europe/London)');
    await summaryTickAt(h, '2027-06-17T11:30:00Z'); // what was 07:30 in New York: no second one
    expect(summariesOf(h, 'oliver')).toHaveLength(2);
  });
});

describe('a 01:30 summary across the UK clock changes', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ startAt: new Date('2027-03-26T12:00:00Z'), sandbox: { seed: 'empty' } });
    await linkDirectly(h, 'sophie');
    // 01:30 does not exist in London on 28 March and happens twice on 31 October.
    expect((await command(h, 'sophie', '/care summary 01:30 daily')).text).toContain('Next: tomorrow at 1:30 AM');
  });
  afterAll(async () => h?.close());

  const titles = () => summariesOf(h, 'sophie').map((m) => m.text);

  it('spring: the day the clocks go forward it still comes, once', async () => {
    const expectations: [string, number][] = [
      ['2027-03-27T01:29:00Z', 0],
      ['2027-03-27T01:30:00Z', 1], // 01:30 GMT
      ['2027-03-27T12:00:00Z', 1],
      ['2027-03-28T00:59:00Z', 1], // 00:59 GMT
      ['2027-03-28T01:00:00Z', 1], // the clocks go forward: 02:00 BST; 01:30 never shows
      ['2027-03-28T01:30:00Z', 2], // 02:30 BST
      ['2027-03-28T02:30:00Z', 2],
      ['2027-03-28T22:59:00Z', 2],
      ['2027-03-29T00:29:00Z', 2], // 01:29 BST
      ['2027-03-29T00:30:00Z', 3], // 01:30 BST
      ['2027-03-29T01:30:00Z', 3],
    ];
    for (const [at, count] of expectations) {
      await summaryTickAt(h, at);
      expect(titles(), `summaries after the tick at ${at}`).toHaveLength(count);
    }
    expect(titles().map((t) => t.replace(/^.*\(/, ''))).toEqual(['Saturday 27 March)', 'Sunday 28 March)', 'Monday 29 March)']);
  });

  it('autumn: 01:30 twice on the clock still means one summary', async () => {
    const before = titles().length;
    // [instant, new summaries]; null: either (01:30 may be taken as BST or GMT)
    const expectations: [string, number | null][] = [
      ['2027-10-30T00:29:00Z', 0], // 01:29 BST
      ['2027-10-30T00:30:00Z', 1], // 01:30 BST
      ['2027-10-30T12:00:00Z', 1],
      ['2027-10-31T00:00:00Z', 1], // 01:00 BST
      ['2027-10-31T00:29:00Z', 1],
      ['2027-10-31T00:30:00Z', null], // 01:30 BST, the first 01:30
      ['2027-10-31T01:00:00Z', null], // the clocks go back: 01:00 GMT
      ['2027-10-31T01:30:00Z', 2], // 01:30 GMT, the second 01:30: by now, exactly once
      ['2027-10-31T02:00:00Z', 2],
      ['2027-10-31T23:59:00Z', 2],
      ['2027-11-01T01:29:00Z', 2],
      ['2027-11-01T01:30:00Z', 3], // 01:30 GMT
    ];
    for (const [at, count] of expectations) {
      await summaryTickAt(h, at);
      const added = titles().length - before;
      if (count === null) expect(added, `new summaries after the tick at ${at}`).toBeOneOf([1, 2]);
      else expect(added, `new summaries after the tick at ${at}`).toBe(count);
    }
    expect(
      titles()
        .slice(before)
        .map((t) => t.replace(/^.*\(/, '')),
    ).toEqual(['Saturday 30 October)', 'Sunday 31 October)', 'Monday 1 November)']);
  });
});

describe('a summary missed while the app was down', () => {
  const life = appLives('care-e2e-summary-');

  it('goes out once on start the same local day, never the next day', async () => {
    // Monday 14 June 2027, 07:00 in London: set for 07:30, then the app goes down.
    await life('2027-06-14T06:00:00Z', async (h) => {
      await linkDirectly(h, 'sophie');
      await command(h, 'sophie', '/care summary 07:30');
    });
    // Back at 09:00: the 07:30 summary goes out at start, once.
    await life('2027-06-14T08:00:00Z', async (h) => {
      h.app.jobs.start();
      await h.fake.waitFor(() => summariesOf(h, 'sophie').length === 1, { timeoutMs: 15_000, message: 'the missed summary was not sent at start' });
      expect(summariesOf(h, 'sophie')[0]!.text).toContain('Monday 14 June');
      await h.app.jobs.runOnce('summaries');
      expect(summariesOf(h, 'sophie')).toHaveLength(1);
    });
    // Another restart the same evening: already sent.
    await life('2027-06-14T19:00:00Z', async (h) => {
      await summaryTickAt(h, '2027-06-14T19:00:30Z');
      expect(summariesOf(h, 'sophie')).toEqual([]);
    });
    // Down all of Tuesday; back on Wednesday at 06:00: nothing for Tuesday, Wednesday's at 07:30.
    await life('2027-06-16T05:00:00Z', async (h) => {
      await summaryTickAt(h, '2027-06-16T05:00:30Z');
      expect(summariesOf(h, 'sophie')).toEqual([]);
      await summaryTickAt(h, '2027-06-16T06:30:00Z');
      expect(summariesOf(h, 'sophie').map((m) => m.text)).toEqual(['Nothing overdue or due today (Wednesday 16 June)']);
    });
  });
});

if (!TEST_DATABASE_URL) it.skip(PG_SKIPPED, () => {});

describe.skipIf(!TEST_DATABASE_URL)('two instances on one PostgreSQL', () => {
  let schema: TestSchema;
  let a: Harness;
  let b: Harness;
  beforeAll(async () => {
    schema = await createTestSchema(TEST_DATABASE_URL!, 'summaries');
    const databaseUrl = urlWithSchema(TEST_DATABASE_URL!, schema.name);
    const startAt = new Date('2027-06-15T05:00:00Z');
    a = await startHarness({ startAt, databaseUrl, sandbox: { seed: 'empty' }, jobs: { instanceId: 'instance-a' } });
    b = await startHarness({ startAt, databaseUrl, sandbox: { seed: 'empty' }, jobs: { instanceId: 'instance-b' } });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await schema?.drop();
  });

  it('send one summary between them, whichever ticks first and however often', async () => {
    await linkDirectly(a, 'sophie');
    await command(a, 'sophie', '/care summary 07:30');
    const both = () => summariesOf(a, 'sophie').length + summariesOf(b, 'sophie').length;
    for (const at of ['2027-06-15T06:30:00Z', '2027-06-15T06:31:00Z', '2027-06-15T09:00:00Z']) {
      await Promise.all([a.setTime(at), b.setTime(at)]);
      await Promise.all([a.app.jobs.runOnce('summaries'), b.app.jobs.runOnce('summaries')]);
      await b.app.jobs.runOnce('summaries');
      await a.app.jobs.runOnce('summaries');
      expect(both(), `summaries sent by both instances after the ticks at ${at}`).toBe(1);
    }
  });
});

describe('the Home tab shows the setting and changes it', () => {
  let h: Harness;
  const homeText = (user: string) => homeTabText(h, user);
  const homeShows = (user: string, text: string) => homeTabShows(h, user, text);
  const openForm = (user: string) =>
    h.fake.waitFor(() => (h.fake.openModal(user)?.view.callback_id === 'care_summary_modal' ? h.fake.openModal(user) : undefined), {
      timeoutMs: 10_000,
      message: 'the summary form did not open',
    });

  beforeAll(async () => {
    h = await startHarness({ startAt: new Date('2027-06-15T05:00:00Z'), sandbox: { seed: 'empty' } });
    await linkDirectly(h, 'sophie');
  });
  afterAll(async () => h?.close());

  it('off at first, with Turn on; the form turns it on at the time and days chosen', async () => {
    await h.driver.openHome('sophie');
    await homeShows('sophie', 'Morning summary: off');
    expect(homeText('sophie')).toContain('[Turn on]');
    await h.driver.clickButton('sophie', { home: true, text: 'Turn on' });
    const form = await openForm('sophie');
    expect(h.fake.visibleText(form.view, { viewer: 'sophie' })).toContain('Europe/London');
    // It starts at every day: a care home works at weekends too.
    expect(JSON.stringify(form.view.blocks)).toContain('"initial_option":{"text":{"type":"plain_text","text":"Every day"');
    const result = await h.driver.modal('sophie').fill('Time', '06:15').submit();
    expect(result.outcome).toBe('closed');
    await homeShows('sophie', 'Morning summary: 06:15 every day (Europe/London)');
    expect(homeText('sophie')).toContain('[Change] [Turn off]');
    expect(await h.app.store.getSummarySetting(h.fake.teamId, 'U0SOPHIE')).toMatchObject({ time: '06:15', days: 'daily', enabled: true });
  });

  it('Change opens the form with the current setting; the command and the Home tab agree', async () => {
    await h.driver.clickButton('sophie', { home: true, text: 'Change' });
    const form = await openForm('sophie');
    const inputs = JSON.stringify(form.view.blocks);
    expect(inputs).toContain('"initial_time":"06:15"');
    expect(inputs).toContain('"initial_option":{"text":{"type":"plain_text","text":"Every day"');
    await h.driver.modal('sophie').fill('Days', 'Weekdays (Monday to Friday)').submit();
    await homeShows('sophie', 'Morning summary: 06:15 on weekdays (Europe/London)');
    expect((await command(h, 'sophie', '/care summary')).text).toContain('06:15 on weekdays (Europe/London)');
    await command(h, 'sophie', '/care summary 07:00 daily');
    await homeShows('sophie', 'Morning summary: 07:00 every day (Europe/London)');
  });

  it('Turn off turns it off, and the Home tab says so', async () => {
    await h.driver.clickButton('sophie', { home: true, text: 'Turn off' });
    await homeShows('sophie', 'Morning summary: off');
    expect((await command(h, 'sophie', '/care summary')).text).toContain('Your morning summary is off.');
    await summaryTickAt(h, '2027-06-15T06:00:00Z');
    expect(summariesOf(h, 'sophie')).toEqual([]);
  });

  it('someone with no linked account sees no summary setting on Home', async () => {
    await h.driver.openHome('visitor');
    await homeShows('visitor', 'not linked');
    expect(homeText('visitor')).not.toContain('Morning summary');
  });

  it('refuses a form whose hidden data was not issued to that person, and changes nothing', async () => {
    const forge = (metadata: string) =>
      h.driver.sendPayload('view_submission', 'care_summary_modal', 'U0SOPHIE', {
        type: 'view_submission',
        user: { id: 'U0SOPHIE', name: 'sophie', team_id: 'T0CARE' },
        team: { id: 'T0CARE', domain: 'brightwater' },
        api_app_id: 'A0CAREAPP',
        trigger_id: h.fake.issueTrigger('U0SOPHIE'),
        view: {
          id: 'VFORGED',
          type: 'modal',
          callback_id: 'care_summary_modal',
          team_id: 'T0CARE',
          private_metadata: metadata,
          blocks: [],
          state: {
            values: {
              summary_time: { value: { type: 'timepicker', selected_time: '05:00' } },
              summary_days: { value: { type: 'radio_buttons', selected_option: { value: 'daily' } } },
            },
          },
        },
        response_urls: [],
      });
    const priyas = h.app.deps.signedMetadata.encode({ from: 'home' }, { teamId: 'T0CARE', userId: 'U0PRIYA', form: 'care_summary_modal' });
    for (const metadata of ['', 'v1.e30.AAAA', priyas]) {
      const answer = await forge(metadata);
      expect(answer.status).toBe(200);
      expect(JSON.stringify(answer.json)).toContain('This form arrived damaged or expired');
    }
    expect(await h.app.store.getSummarySetting(h.fake.teamId, 'U0SOPHIE')).toMatchObject({ time: '07:00', enabled: false });
  });
});
