import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appLives } from './fixtures/app-lives.js';
import { command, linkDirectly, startHarness, webAppAction, type Harness } from './harness.js';
import { apiRequests, digestsIn, digestTickAt, lineIds } from './fixtures/jobs-support.js';
import { confirmShowTasks } from './fixtures/show-tasks.js';

const text = (h: Harness, m: Parameters<Harness['fake']['visibleText']>[0], viewer = 'amelia') => h.fake.visibleText(m, { viewer });

describe('digests at the right local time across the UK clock changes', () => {
  let h: Harness;
  let setUpReply: string;
  beforeAll(async () => {
    h = await startHarness({ startAt: new Date('2027-03-26T12:00:00Z'), sandbox: { seed: 'empty' } });
    setUpReply = (await command(h, 'amelia', '/care digest here 08:00 daily', { channel: '#care-team' })).text;
    expect(setUpReply).toContain('Digest set');
    // 01:30 does not exist on the spring day and happens twice on the autumn day.
    expect((await command(h, 'amelia', '/care digest here 01:30 daily', { channel: '#care-leads' })).text).toContain('Digest set');
  });
  afterAll(async () => h?.close());

  const titles = (channel: string) => digestsIn(h, channel).map((m) => m.text);

  it('does not post today when it was set up after today’s time; the reply names the next one', async () => {
    expect(setUpReply).toContain('Next: tomorrow at 8:00 AM');
    await digestTickAt(h, '2027-03-26T12:00:30Z');
    await digestTickAt(h, '2027-03-26T23:59:00Z');
    expect(titles('#care-team')).toEqual([]);
    expect(titles('#care-leads')).toEqual([]);
  });

  it('spring: 08:00 is 08:00Z on Saturday and 07:00Z from Sunday, once a day, none skipped', async () => {
    const expectations: [string, number][] = [
      ['2027-03-27T07:59:00Z', 0],
      ['2027-03-27T08:00:00Z', 1],
      ['2027-03-27T08:00:40Z', 1],
      ['2027-03-27T12:00:00Z', 1],
      ['2027-03-28T00:59:00Z', 1], // 00:59 GMT
      ['2027-03-28T01:00:00Z', 1], // the clocks go forward: 02:00 BST
      ['2027-03-28T06:59:00Z', 1], // 07:59 BST
      ['2027-03-28T07:00:00Z', 2], // 08:00 BST
      ['2027-03-28T07:30:00Z', 2],
      ['2027-03-28T08:00:00Z', 2], // what 08:00 was yesterday: no second digest
      ['2027-03-29T06:59:59Z', 2],
      ['2027-03-29T07:00:00Z', 3],
      ['2027-03-29T08:00:00Z', 3],
    ];
    for (const [at, count] of expectations) {
      await digestTickAt(h, at);
      expect(titles('#care-team'), `#care-team digests after the tick at ${at}`).toHaveLength(count);
    }
    expect(titles('#care-team')).toEqual(['Nothing due for Saturday 27 March', 'Nothing due for Sunday 28 March', 'Nothing due for Monday 29 March']);
    // 01:30 on the 28th never showed on a London clock: that day's digest still went out once.
    expect(titles('#care-leads')).toEqual(['Nothing due for Saturday 27 March', 'Nothing due for Sunday 28 March', 'Nothing due for Monday 29 March']);
  });

  it('autumn: 08:00 is 07:00Z on Saturday and 08:00Z from Sunday; 01:30 twice on the clock still means one digest', async () => {
    const before = titles('#care-team').length;
    const beforeLeads = titles('#care-leads').length;
    // [instant, new #care-team digests, new #care-leads digests]; null: either (01:30 may be taken as BST or GMT)
    const expectations: [string, number, number | null][] = [
      ['2027-10-30T00:29:00Z', 0, 0], // 01:29 BST
      ['2027-10-30T00:30:00Z', 0, 1], // 01:30 BST
      ['2027-10-30T06:59:00Z', 0, 1], // 07:59 BST
      ['2027-10-30T07:00:00Z', 1, 1], // 08:00 BST
      ['2027-10-30T08:00:00Z', 1, 1],
      ['2027-10-31T00:00:00Z', 1, 1], // 01:00 BST
      ['2027-10-31T00:29:00Z', 1, 1],
      ['2027-10-31T00:30:00Z', 1, null], // 01:30 BST, the first 01:30
      ['2027-10-31T01:00:00Z', 1, null], // the clocks go back: 01:00 GMT
      ['2027-10-31T01:30:00Z', 1, 2], // 01:30 GMT, the second 01:30: by now, exactly once
      ['2027-10-31T02:00:00Z', 1, 2],
      ['2027-10-31T07:00:00Z', 1, 2], // 07:00 GMT: not yet
      ['2027-10-31T07:59:00Z', 1, 2],
      ['2027-10-31T08:00:00Z', 2, 2], // 08:00 GMT
      ['2027-10-31T09:00:00Z', 2, 2],
      ['2027-11-01T01:29:00Z', 2, 2],
      ['2027-11-01T01:30:00Z', 2, 3],
      ['2027-11-01T07:59:00Z', 2, 3],
      ['2027-11-01T08:00:00Z', 3, 3],
    ];
    for (const [at, team, leads] of expectations) {
      await digestTickAt(h, at);
      expect(titles('#care-team').length - before, `new #care-team digests after the tick at ${at}`).toBe(team);
      const newLeads = titles('#care-leads').length - beforeLeads;
      if (leads === null) expect(newLeads, `new #care-leads digests after the tick at ${at}`).toBeOneOf([1, 2]);
      else expect(newLeads, `new #care-leads digests after the tick at ${at}`).toBe(leads);
    }
    expect(titles('#care-team').slice(before)).toEqual([
      'Nothing due for Saturday 30 October',
      'Nothing due for Sunday 31 October',
      'Nothing due for Monday 1 November',
    ]);
  });
});

describe('digest content', () => {
  let h: Harness;
  const a: Record<string, { _id: string; action_no: string }> = {};
  const tasks = {
    overdue: 'Overdue: call the pharmacy about Mrs Patel',
    urgentToday: 'Urgent: chase the GP letter for room 4',
    lateToday: 'Late today: lock the medicine room',
    earlyTomorrow: 'Tomorrow early: night check on room 9',
    urgentLater: 'Urgent later: book the hoist service',
    later: 'Later: order gloves',
    done: 'Done: fix the call bell',
  };
  beforeAll(async () => {
    // Tuesday 15 June 2027, 08:30 in London (BST).
    h = await startHarness({ startAt: new Date('2027-06-15T07:30:00Z'), sandbox: { seed: 'empty' } });
    const sophie = await linkDirectly(h, 'sophie');
    a.overdue = await webAppAction(h, { task: tasks.overdue, due: new Date('2027-06-14T10:00:00Z'), assigned_to: sophie });
    a.urgentToday = await webAppAction(h, { task: tasks.urgentToday, due: new Date('2027-06-15T16:00:00Z'), urgent: true });
    a.lateToday = await webAppAction(h, { task: tasks.lateToday, due: new Date('2027-06-15T22:30:00Z') }); // 23:30 BST today
    a.earlyTomorrow = await webAppAction(h, { task: tasks.earlyTomorrow, due: new Date('2027-06-15T23:30:00Z') }); // 00:30 BST tomorrow, same UTC date
    a.urgentLater = await webAppAction(h, { task: tasks.urgentLater, due: new Date('2027-06-18T09:00:00Z'), urgent: true });
    a.later = await webAppAction(h, { task: tasks.later, due: new Date('2027-06-18T09:00:00Z') });
    a.done = await webAppAction(h, { task: tasks.done, due: new Date('2027-06-14T09:00:00Z') });
    await h.control(`actions/${a.done._id}/complete`, {});
    await command(h, 'amelia', '/care digest here 09:00 weekdays', { channel: '#care-team' });
    await command(h, 'amelia', '/care digest here 09:00 weekdays --show-tasks', { channel: '#general' });
    await confirmShowTasks(h, 'amelia', '#general'); // a public channel: the second step
    await command(h, 'amelia', '/care digest here 09:00 weekdays', { channel: '#care-leads' });
    await h.control('stats/reset', {});
    await digestTickAt(h, '2027-06-15T08:00:00Z');
  });
  afterAll(async () => h?.close());

  it('reads the API once for three channels with the same filter', async () => {
    expect(digestsIn(h, '#care-team')).toHaveLength(1);
    expect(digestsIn(h, '#general')).toHaveLength(1);
    expect(digestsIn(h, '#care-leads')).toHaveLength(1);
    expect(await apiRequests(h, 'GET /v1/actions')).toBe(1);
  });

  it('lists overdue, due today (in London, not UTC) and urgent actions, urgent first, with counts, due times, mentions and safe buttons', () => {
    const digest = digestsIn(h, '#care-leads')[0]!;
    const shown = text(h, digest);
    expect(shown).toContain('Care actions · Tuesday 15 June');
    expect(shown).toContain('1 overdue · 2 due today · 2 urgent · 3 unassigned');
    expect(shown).toContain('@sophie · 1 overdue · 0 due today');
    expect(lineIds(digest).sort()).toEqual([a.overdue!._id, a.urgentToday!._id, a.lateToday!._id, a.urgentLater!._id].sort());
    expect(digest.replies).toEqual([]); // four actions: all in the channel message, no thread
    for (const key of ['earlyTomorrow', 'later', 'done']) expect(shown).not.toContain(`#${a[key]!.action_no} `);
    // Urgent first (by due time), then the longest overdue, then due soonest.
    const at = (k: string) => shown.indexOf(`#${a[k]!.action_no}`);
    expect(at('urgentToday')).toBeLessThan(at('urgentLater'));
    expect(at('urgentLater')).toBeLessThan(at('overdue'));
    expect(at('overdue')).toBeLessThan(at('lateToday'));
    // Due times are Slack date tokens (each reader sees their own zone); linked assignees are mentioned.
    expect(JSON.stringify(digest.blocks)).toContain('<!date^');
    expect(JSON.stringify(digest.blocks)).toContain('<@U0SOPHIE>');
    // Task text shown here: Complete (with a confirmation) on Sophie's, Take it on the unassigned ones.
    expect(shown.match(/\[Complete\]/g)).toHaveLength(1);
    expect(shown.match(/\[Take it\]/g)).toHaveLength(3);
    expect(JSON.stringify(digest.blocks)).toContain('"confirm"');
  });

  it('hides task text in a public channel, and shows it with --show-tasks (confirmed) and in a private channel', () => {
    const hidden = text(h, digestsIn(h, '#care-team')[0]!);
    expect(hidden).toContain('task text hidden in this channel');
    // No blind Complete where the task cannot be read: View (to the clicker alone) instead.
    expect(hidden).not.toContain('[Complete]');
    expect(hidden.match(/\[View\]/g)).toHaveLength(1);
    expect(hidden.match(/\[Take it\]/g)).toHaveLength(3);
    expect(hidden).toContain(`#${a.urgentToday!.action_no}`);
    for (const t of Object.values(tasks)) expect(hidden).not.toContain(t);
    for (const channel of ['#general', '#care-leads']) {
      const shown = text(h, digestsIn(h, channel)[0]!);
      for (const t of [tasks.overdue, tasks.urgentToday, tasks.lateToday, tasks.urgentLater]) expect(shown).toContain(t);
      for (const t of [tasks.earlyTomorrow, tasks.later, tasks.done]) expect(shown).not.toContain(t);
    }
  });

  it('its Complete button asks first, then completes the action and says who did it', async () => {
    const digest = digestsIn(h, '#care-leads')[0]!;
    const first = (digest.blocks ?? []).find((b) => (b as { accessory?: { action_id?: string } }).accessory?.action_id === 'care_complete') as {
      block_id: string;
    };
    const actionId = first.block_id.replace(/^line_/, '');
    const cancelled = await h.driver.clickButton('sophie', { channel: '#care-leads', text: 'Complete', ts: digest.ts, confirm: 'cancel' });
    expect(cancelled.cancelled).toBe(true);
    expect((await h.control(`actions/${actionId}`)).completed).toBeFalsy();
    await h.driver.clickButton('sophie', { channel: '#care-leads', text: 'Complete', ts: digest.ts, confirm: 'accept' });
    await h.fake.waitFor(async () => (await h.control(`actions/${actionId}`)).completed, { timeoutMs: 15_000, message: 'the action was not completed' });
    await h.fake.waitFor(() => JSON.stringify(digestsIn(h, '#care-leads')[0]!.blocks).includes('Completed by <@'), {
      timeoutMs: 15_000,
      message: 'the digest does not say who completed it',
    });
  });
});

describe('a digest too long for one message', () => {
  let h: Harness;
  const ids = new Set<string>();
  const stale = new Set<string>();
  beforeAll(async () => {
    // Tuesday 15 June 2027, 11:00 in London.
    h = await startHarness({ startAt: new Date('2027-06-15T10:00:00Z'), sandbox: { seed: 'empty' } });
    const sophie = await linkDirectly(h, 'sophie');
    const oliver = await linkDirectly(h, 'oliver');
    // 300 actions: 20 overdue since May, 80 overdue since yesterday, 150 due today, 50 urgent this week
    // (70 urgent in all); a third each for Sophie, Oliver and nobody.
    const make = (i: number) => {
      const due =
        i < 20
          ? new Date(Date.UTC(2027, 4, 1, 8, i % 60))
          : i < 100
            ? new Date(Date.UTC(2027, 5, 14, 8, i % 60))
            : i < 250
              ? new Date(Date.UTC(2027, 5, 15, 12, i % 60))
              : new Date(Date.UTC(2027, 5, 17, 9, i % 60));
      const assigned_to = [sophie, oliver, null][i % 3];
      return webAppAction(h, { task: `Task ${i}: ${'check the records carefully '.repeat(6)}`, due, urgent: i >= 230, assigned_to });
    };
    for (let i = 0; i < 300; i += 20) {
      const made = await Promise.all(Array.from({ length: 20 }, (_, k) => make(i + k)));
      for (const [k, m] of made.entries()) {
        ids.add(m._id);
        if (i + k < 20) stale.add(m._id);
      }
    }
    await command(h, 'amelia', '/care digest here 11:30 weekdays', { channel: '#care-leads' });
    await command(h, 'amelia', '/care digest here 11:30 weekdays', { channel: '#care-team' });
    await h.control('stats/reset', {});
    await digestTickAt(h, '2027-06-15T10:30:00Z');
  });
  afterAll(async () => h?.close());

  it('posts the counts, a line per carer and the top ten in the channel, and accounts for every action once in the thread, within Block Kit limits', () => {
    const failed = h.fake.calls('chat.postMessage').filter((c) => !(c.result as { ok?: boolean })?.ok);
    expect(failed.map((c) => (c.result as { error?: string })?.error)).toEqual([]);
    for (const channel of ['#care-leads', '#care-team']) {
      const [digest, ...others] = digestsIn(h, channel);
      expect(others).toEqual([]);
      expect(digest!.blocks!.length).toBeLessThanOrEqual(50);
      const shown = text(h, digest!);
      expect(shown).toContain('100 overdue · 150 due today · 70 urgent · 100 unassigned');
      expect(shown).toContain('@sophie · 34 overdue (7 over 30 days) · 50 due today');
      expect(shown).toContain('@oliver · 33 overdue (7 over 30 days) · 50 due today');
      expect(shown).toContain('Most pressing (10 of 300)');
      expect(lineIds(digest!)).toHaveLength(10);
      // One message per section (continued when long), each an item at a time, never split.
      const heads = digest!.replies.map((r) => text(h, r).split('\n')[0]);
      // The top ten are the first ten urgent ones (due today 12:00-12:09): 4 of Sophie's, 3 of Oliver's, 3 unassigned.
      expect(heads).toEqual([
        ':warning: Overdue (67)', // 53 listed, and 7 + 7 older than 30 days in two summary rows
        ':warning: Overdue (continued)',
        ':calendar: Due today (93)', // 90 listed, "…and 3 more"
        ':calendar: Due today (continued)',
        ':rotating_light: Urgent, due this week (33)',
        ':inbox_tray: Unassigned (97)', // 90 listed, "…and 1 more", 6 older than 30 days in one row
        ':inbox_tray: Unassigned (continued)',
      ]);
      expect(text(h, digest!.replies[0]!)).toContain('@sophie: 7 older than 30 days: /care due overdue @sophie');
      expect(text(h, digest!.replies[3]!)).toContain('…and 3 more not listed here: each carer’s own list: /care due today @name');
      expect(text(h, digest!.replies[5]!)).toContain('6 older than 30 days, unassigned: the care system lists them');
      let more = 0;
      let summarised = 0;
      const inThread = digest!.replies.flatMap((r) => {
        expect(r.blocks!.length).toBeLessThanOrEqual(50);
        const t = text(h, r);
        for (const m of t.matchAll(/…and (\d+) more not listed here/g)) more += Number(m[1]);
        for (const m of t.matchAll(/(\d+) older than 30 days/g)) summarised += Number(m[1]);
        return lineIds(r);
      });
      const rows = [...lineIds(digest!), ...inThread];
      expect(new Set(rows).size).toBe(rows.length);
      expect(rows.filter((id) => stale.has(id))).toEqual([]);
      expect(summarised).toBe(20);
      expect(rows.length + more + summarised).toBe(300);
      for (const id of rows) expect(ids.has(id)).toBe(true);
    }
  });

  it('shares one paged query (per_page=100) between the channels', async () => {
    expect(await apiRequests(h, 'GET /v1/actions')).toBe(3);
  });
});

describe('empty days, quiet digests and the admin commands', () => {
  let h: Harness;
  beforeAll(async () => {
    // Tuesday 15 June 2027, 07:00 in London.
    h = await startHarness({ startAt: new Date('2027-06-15T06:00:00Z'), sandbox: { seed: 'empty' } });
  });
  afterAll(async () => h?.close());

  it('refuses people who are not admins', async () => {
    for (const line of ['/care digest here', '/care digest off', '/care digest list', '/care digest now', '/care route Maintenance <#C0CARE|care-team>']) {
      expect((await command(h, 'sophie', line, { channel: '#care-team' })).text, line).toContain('Only admins can do that.');
    }
    expect(await h.app.store.listSubscriptions()).toEqual([]);
  });

  it('an empty day posts a short “nothing due” line, or nothing with --quiet', async () => {
    expect((await command(h, 'amelia', '/care digest here 07:30 weekdays --quiet', { channel: '#care-team' })).text).toContain(
      'Digest set for this channel: 07:30 on weekdays (Europe/London)',
    );
    await command(h, 'amelia', '/care digest here 07:30 weekdays', { channel: '#care-leads' });
    await digestTickAt(h, '2027-06-15T06:30:00Z');
    expect(digestsIn(h, '#care-team')).toEqual([]);
    const [nothing] = digestsIn(h, '#care-leads');
    expect(text(h, nothing!)).toContain('Nothing overdue or due today.');
  });

  it('/care digest now posts at once (or says it stays quiet); /care digest list shows the set-up', async () => {
    expect((await command(h, 'amelia', '/care digest now', { channel: '#care-team' })).text).toContain('stays quiet when empty');
    expect(digestsIn(h, '#care-team')).toEqual([]);
    expect((await command(h, 'amelia', '/care digest now', { channel: '#care-leads' })).text).toContain('Digest posted.');
    expect(digestsIn(h, '#care-leads')).toHaveLength(2);
    expect((await command(h, 'amelia', '/care digest now', { channel: '#general' })).text).toContain('This channel has no digest');
    const list = (await command(h, 'amelia', '/care digest list', { channel: '#general' })).text;
    expect(list).toContain('#care-team: 07:30 on weekdays (Europe/London)');
    expect(list).toContain('#care-leads: 07:30 on weekdays (Europe/London)');
  });

  it('posts on weekdays only, and /care digest off stops a channel', async () => {
    await digestTickAt(h, '2027-06-16T06:30:00Z'); // Wednesday
    expect(digestsIn(h, '#care-leads')).toHaveLength(3);
    expect((await command(h, 'amelia', '/care digest off', { channel: '#care-leads' })).text).toContain('no more digests');
    expect((await command(h, 'amelia', '/care digest off', { channel: '#care-leads' })).text).toContain('had no digest');
    await digestTickAt(h, '2027-06-17T06:30:00Z');
    expect(digestsIn(h, '#care-leads')).toHaveLength(3);
    const list = (await command(h, 'amelia', '/care digest list', { channel: '#general' })).text;
    expect(list).toContain('#care-team');
    expect(list).not.toContain('#care-leads');
    // Saturday: a weekday digest stays silent even when there is something to say.
    await command(h, 'amelia', '/care digest here 07:30 weekdays', { channel: '#care-leads' });
    await webAppAction(h, { task: 'Weekend check', due: new Date('2027-06-19T09:00:00Z') });
    await digestTickAt(h, '2027-06-19T07:00:00Z');
    expect(digestsIn(h, '#care-leads')).toHaveLength(3);
    await digestTickAt(h, '2027-06-21T06:30:00Z'); // Monday: the weekend's action is overdue
    expect(digestsIn(h, '#care-leads')).toHaveLength(4);
    expect(text(h, digestsIn(h, '#care-leads')[3]!)).toContain('1 overdue');
  });

  it('set without naming the days, a digest comes every day, weekends too: a care home works every day', async () => {
    const reply = (await command(h, 'amelia', '/care digest here 07:30', { channel: '#general' })).text;
    expect(reply).toContain('Digest set for this channel: 07:30 every day (Europe/London)');
    await digestTickAt(h, '2027-06-26T06:30:00Z'); // Saturday, 07:30 in London
    await digestTickAt(h, '2027-06-27T06:30:00Z'); // Sunday
    const days = digestsIn(h, '#general').map((m) => m.text);
    expect(days).toHaveLength(2);
    expect(days[0]).toContain('Saturday 26 June');
    expect(days[1]).toContain('Sunday 27 June');
  });
});

describe('a digest missed while the app was down', () => {
  const life = appLives('care-e2e-missed-');

  it('is posted once on start the same day, and never the next day', async () => {
    // Monday 14 June 2027, 07:00 in London: set up for 08:00, then the app goes down.
    await life('2027-06-14T06:00:00Z', async (h) => {
      await command(h, 'amelia', '/care digest here 08:00 weekdays', { channel: '#care-team' });
    });
    // Back at 10:30: the 08:00 digest goes out at start, once.
    await life('2027-06-14T09:30:00Z', async (h) => {
      h.app.jobs.start();
      await h.fake.waitFor(() => digestsIn(h, '#care-team').length === 1, { timeoutMs: 15_000, message: 'the missed digest was not posted at start' });
      expect(digestsIn(h, '#care-team')[0]!.text).toBe('Nothing due for Monday 14 June');
      await h.app.jobs.runOnce('digests');
      expect(digestsIn(h, '#care-team')).toHaveLength(1);
    });
    // Another restart the same evening: already posted.
    await life('2027-06-14T19:00:00Z', async (h) => {
      await digestTickAt(h, '2027-06-14T19:00:30Z');
      expect(digestsIn(h, '#care-team')).toEqual([]);
    });
    // Down all of Tuesday; back on Wednesday at 07:00: nothing for Tuesday, Wednesday's at 08:00.
    await life('2027-06-16T06:00:00Z', async (h) => {
      await digestTickAt(h, '2027-06-16T06:00:30Z');
      expect(digestsIn(h, '#care-team')).toEqual([]);
      await digestTickAt(h, '2027-06-16T07:00:00Z');
      expect(digestsIn(h, '#care-team').map((m) => m.text)).toEqual(['Nothing due for Wednesday 16 June']);
    });
  });
});
