import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveryKind, digestsIn, digestTickAt } from './fixtures/jobs-support.js';
import { onPostgres } from './fixtures/on-postgres.js';
import { command, linkDirectly, startHarness, type Harness } from './harness.js';
import { homeShows as homeTabShows } from './steps.js';

/**
 * A care home's shifts (`/care shifts`), the Home tab's line about the shift on now, and digests and
 * summaries at each shift start: once per shift, at 07:00 and 19:00 London, across the clock changes.
 */

describe('/care shifts: everyone sees them, admins set them', () => {
  let h: Harness;
  const homeShows = (user: string, text: string) => homeTabShows(h, user, text);

  beforeAll(async () => {
    // Saturday 30 October 2027, 13:00 BST.
    h = await startHarness({ startAt: new Date('2027-10-30T12:00:00Z'), sandbox: { seed: 'empty' } });
  });
  afterAll(async () => h?.close());

  it('shows the default shifts and the one on now to anyone', async () => {
    const reply = await command(h, 'sophie', '/care shifts');
    expect(reply.text).toContain('Shifts (every day, Europe/London): Day 07:00–19:00, Night 19:00–07:00 (the default).');
    expect(reply.text).toContain('On now: Day shift — 07:00 to 19:00 · next: Night at 19:00.');
    expect(reply.text).toContain('Admins change them with /care shifts Day 07:00-19:00, Night 19:00-07:00');
  });

  it('a non-admin who tries to change them is told who can, and nothing changes', async () => {
    const reply = await command(h, 'sophie', '/care shifts Early 07:00-15:00, Late 15:00-23:00, Night 23:00-07:00');
    expect(reply.text).toMatch(/Only Care Actions admins can change the shifts: @amelia.*and the Slack workspace's admins and owners\./i);
    expect((await command(h, 'sophie', '/care shifts')).text).toContain('Day 07:00–19:00, Night 19:00–07:00 (the default)');
    expect((await h.app.store.listAudit()).filter((e) => e.verb === 'shifts.set')).toEqual([]);
  });

  it('bad input gets the sentence saying what is wrong, and what to type', async () => {
    expect((await command(h, 'amelia', '/care shifts Day 07:00')).text).toContain(
      '"Day 07:00" is not a shift: give a name, a start and an end, e.g. Day 07:00-19:00, Night 19:00-07:00.',
    );
    expect((await command(h, 'amelia', '/care shifts Day 07:00-19:00, Late 07:00-15:00')).text).toContain(
      'Two shifts start at 07:00; each shift change needs its own time.',
    );
    expect((await command(h, 'amelia', '/care shifts')).text).toContain('(the default)');
  });

  it('an admin sets them: the answer, the audit log and the Home tab show the new shifts', async () => {
    await h.driver.openHome('sophie');
    await homeShows('sophie', 'Day shift — 07:00 to 19:00 · next: Night at 19:00');
    const reply = await command(h, 'amelia', '/care shifts Early 7am-3pm, Late 2.30pm-10pm, Night 22:00-07:00');
    expect(reply.text).toContain('Shifts set: Early 07:00–15:00, Late 14:30–22:00, Night 22:00–07:00, every day (Europe/London).');
    expect(reply.text).toContain('On now: Early shift — 07:00 to 15:00 · next: Late at 14:30.');
    const audit = (await h.app.store.listAudit()).filter((e) => e.verb === 'shifts.set');
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      userId: 'U0AMELIA',
      details: { before: 'Day 07:00–19:00, Night 19:00–07:00', after: 'Early 07:00–15:00, Late 14:30–22:00, Night 22:00–07:00' },
    });
    expect((await command(h, 'sophie', '/care shifts')).text).toContain('On now: Early shift — 07:00 to 15:00 · next: Late at 14:30.');
    // 15:00 BST: the Late shift (from 14:30) is on.
    await h.setTime('2027-10-30T14:00:00Z');
    await h.driver.openHome('sophie');
    await homeShows('sophie', 'Late shift — 14:30 to 22:00 · next: Night at 22:00');
  });

  it('`default` goes back to Day and Night', async () => {
    const reply = await command(h, 'amelia', '/care shifts default');
    expect(reply.text).toContain('Shifts set: Day 07:00–19:00, Night 19:00–07:00 (the default), every day (Europe/London).');
    const audit = (await h.app.store.listAudit()).filter((e) => e.verb === 'shifts.set');
    expect(audit).toHaveLength(2);
    expect(audit.filter((e) => e.details.default === true)).toHaveLength(1);
    await h.setTime('2027-10-30T18:30:00Z'); // 19:30 BST
    await h.driver.openHome('sophie');
    await homeShows('sophie', 'Night shift — 19:00 to 07:00 · next: Day at 07:00');
  });

  it('a digest at a shift no one has is refused with the shifts there are', async () => {
    const reply = await command(h, 'amelia', '/care digest here at Late start', { channel: '#care-team' });
    expect(reply.text).toContain('No shift is called “Late”; the shifts are Day 07:00–19:00, Night 19:00–07:00.');
    expect(await h.app.store.getSubscription(h.fake.teamId, 'C0CARE')).toBeNull();
  });

  it('summaries come every day unless weekdays is typed, and can come at each shift start, once per shift', async () => {
    await h.setTime('2027-10-30T18:30:00Z'); // 19:30 BST: the Night shift is on
    await linkDirectly(h, 'sophie');
    expect((await command(h, 'sophie', '/care summary on')).text).toContain('Morning summary on: 07:30 every day (Europe/London)');
    const reply = await command(h, 'sophie', '/care summary shift-start');
    expect(reply.text).toContain('Morning summary on: at each shift start (Day 07:00, Night 19:00) every day (Europe/London)');
    expect(reply.text).toContain('It follows the home’s shifts');
    const summaries = () => h.fake.dms('sophie').filter((m) => deliveryKind(m) === 'summary');
    const tick = async (at: string) => {
      await h.setTime(at);
      const run = await h.app.jobs.runOnce('summaries');
      expect(run.ran).toBe(true);
    };
    await tick('2027-10-30T18:45:00Z'); // the Night shift began before it was set: the first is the next one
    expect(summaries()).toHaveLength(0);
    await tick('2027-10-31T06:59:00Z');
    expect(summaries()).toHaveLength(0);
    await tick('2027-10-31T07:00:00Z'); // 07:00 GMT, the morning after the clocks went back
    await tick('2027-10-31T07:01:00Z');
    expect(summaries()).toHaveLength(1);
    await tick('2027-10-31T19:00:00Z');
    await tick('2027-10-31T23:00:00Z');
    expect(summaries()).toHaveLength(2);
    expect(h.fake.visibleText(summaries()[1]!, { viewer: 'sophie' })).toContain('Your morning summary: at each shift start (Day 07:00, Night 19:00) every day');
    expect((await command(h, 'sophie', '/care summary weekdays')).text).toContain('at each shift start (Day 07:00, Night 19:00) on weekdays');
  });
});

describe('changing the shifts mid-shift', () => {
  let h: Harness;
  beforeAll(async () => {
    // Monday 1 November 2027, 06:00 GMT.
    h = await startHarness({ startAt: new Date('2027-11-01T06:00:00Z'), sandbox: { seed: 'empty' } });
    expect((await command(h, 'amelia', '/care digest here shift-start', { channel: '#care-team' })).text).toContain('Digest set');
  });
  afterAll(async () => h?.close());

  it('does not post the digest of the shift on again under its new name; the next shift start posts as usual', async () => {
    await digestTickAt(h, '2027-11-01T07:00:00Z');
    expect(digestsIn(h, '#care-team')).toHaveLength(1);
    await h.setTime('2027-11-01T10:00:00Z');
    expect((await command(h, 'amelia', '/care shifts Early 07:00-15:00, Late 15:00-23:00, Night 23:00-07:00')).text).toContain(
      'On now: Early shift — 07:00 to 15:00',
    );
    await digestTickAt(h, '2027-11-01T10:00:30Z');
    await digestTickAt(h, '2027-11-01T14:59:00Z');
    expect(digestsIn(h, '#care-team')).toHaveLength(1);
    await digestTickAt(h, '2027-11-01T15:00:00Z');
    await digestTickAt(h, '2027-11-01T15:01:00Z');
    expect(digestsIn(h, '#care-team')).toHaveLength(2);
  });
});

/** A digest at each shift start across both UK clock changes of 2027: once at 07:00 and once at 19:00 London. */
function shiftStartDigests(label: string, database: () => { databaseUrl?: string }) {
  describe(`a digest at each shift start (${label})`, () => {
    let h: Harness;
    beforeAll(async () => {
      // Saturday 27 March 2027, 12:00 GMT; the clocks go forward at 01:00 GMT on Sunday.
      h = await startHarness({ startAt: new Date('2027-03-27T12:00:00Z'), sandbox: { seed: 'empty' }, ...database() });
    });
    afterAll(async () => h?.close());

    it('is set with `shift-start`, and the answer says when', async () => {
      const reply = await command(h, 'amelia', '/care digest here shift-start', { channel: '#care-team' });
      expect(reply.text).toContain('Digest set for this channel: at each shift start (Day 07:00, Night 19:00) every day (Europe/London), all actions.');
      expect(reply.text).toContain('Next: today at 7:00 PM');
    });

    it('posts once per shift at 07:00 and 19:00 London, the nights the clocks go forward and back included', async () => {
      const expectations: [string, number][] = [
        ['2027-03-27T12:00:30Z', 0], // the Day shift began before it was set up
        ['2027-03-27T18:59:00Z', 0],
        ['2027-03-27T19:00:00Z', 1], // 19:00 GMT
        ['2027-03-27T19:00:40Z', 1],
        ['2027-03-28T01:00:00Z', 1], // the clocks go forward: 02:00 BST
        ['2027-03-28T05:59:00Z', 1], // 06:59 BST
        ['2027-03-28T06:00:00Z', 2], // 07:00 BST
        ['2027-03-28T07:00:00Z', 2], // what 07:00 was yesterday: no second one
        ['2027-03-28T17:59:00Z', 2],
        ['2027-03-28T18:00:00Z', 3], // 19:00 BST
        ['2027-03-28T19:00:00Z', 3],
        // Saturday 30 October 2027: the clocks go back at 01:00 GMT on Sunday.
        ['2027-10-30T06:00:00Z', 4], // 07:00 BST
        ['2027-10-30T17:59:00Z', 4],
        ['2027-10-30T18:00:00Z', 5], // 19:00 BST
        ['2027-10-31T00:30:00Z', 5], // 01:30 BST
        ['2027-10-31T01:30:00Z', 5], // 01:30 GMT, the second 01:30
        ['2027-10-31T06:00:00Z', 5], // what 07:00 was yesterday
        ['2027-10-31T06:59:00Z', 5],
        ['2027-10-31T07:00:00Z', 6], // 07:00 GMT
        ['2027-10-31T07:00:30Z', 6],
        ['2027-10-31T18:59:00Z', 6],
        ['2027-10-31T19:00:00Z', 7], // 19:00 GMT
        ['2027-10-31T23:00:00Z', 7],
      ];
      for (const [at, count] of expectations) {
        await digestTickAt(h, at);
        expect(digestsIn(h, '#care-team'), `#care-team digests after the tick at ${at}`).toHaveLength(count);
      }
      // Each went out at its shift's start, as Slack timed the post.
      expect(digestsIn(h, '#care-team').map((m) => new Date(Math.round(Number(m.ts) * 1000)).toISOString().slice(0, 16))).toEqual([
        '2027-03-27T19:00',
        '2027-03-28T06:00',
        '2027-03-28T18:00',
        '2027-10-30T06:00',
        '2027-10-30T18:00',
        '2027-10-31T07:00',
        '2027-10-31T19:00',
      ]);
      const ledger = await h.app.store.listDeliveries({ kind: 'digest', limit: 50, order: 'asc' });
      expect(ledger.map((d) => d.occurrence)).toEqual([
        '2027-03-27/Night',
        '2027-03-28/Day',
        '2027-03-28/Night',
        '2027-10-30/Day',
        '2027-10-30/Night',
        '2027-10-31/Day',
        '2027-10-31/Night',
      ]);
    });

    it('`/care digest list` says at each shift start', async () => {
      expect((await command(h, 'amelia', '/care digest list', { channel: '#care-team' })).text).toContain(
        'at each shift start (Day 07:00, Night 19:00) every day (Europe/London)',
      );
    });
  });
}

shiftStartDigests('SQLite', () => ({}));

onPostgres('shifts', (store) => shiftStartDigests('PostgreSQL', store));
