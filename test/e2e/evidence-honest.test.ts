/**
 * Honest evidence (issue 32): a snooze or a due edit never makes late work on time, nor moves an action out
 * of the month it was first due in. #13-like: an urgent action due 5 Oct, still open 40 days later, snoozed
 * "+1 hour" from its card in Slack and completed: the October export lists it, late by the 40 days from its
 * first due time, with one reschedule. A due edited in the care system's web app, seen by the poll, is a
 * reschedule too. On SQLite and on PostgreSQL (the due history is a table of the store).
 * Clocks: 2026-10-05 08:00 UTC = 09:00 in London (BST); 2026-11-14 09:00 UTC = 09:00 (GMT).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSchema, PG_SKIPPED, TEST_DATABASE_URL, type TestSchema } from '../helpers/pg.js';
import { parseCsv } from '../helpers/csv.js';
import { parseApiDateTime } from '../../src/time/slack-date.js';
import { poll } from './fixtures/jobs-support.js';
import { urlWithSchema } from './fixtures/spawn-instance.js';
import { command, linkDirectly, startHarness, webAppAction, type Harness } from './harness.js';

const START = new Date('2026-10-05T08:00:00Z');
const FIRST_DUE = new Date('2026-10-05T09:00:00Z'); // 10:00 BST
const LATER = '2026-11-14T09:00:00Z'; // 40 days on

function honestSuite(name: string, databaseUrl: () => string | undefined) {
  describe(`evidence that a snooze cannot change (${name})`, () => {
    let h: Harness;
    let snoozed: { _id: string; action_no: string };
    let edited: { _id: string; action_no: string };
    let sophieCareName: string;

    async function exportAs(user: string, line: string) {
      const before = h.fake.files({ dm: user }).length;
      await command(h, user, line, { channel: '#care-team' }, 60_000);
      const file = await h.fake.waitFor(() => h.fake.files({ dm: user })[before], { timeoutMs: 60_000, message: 'no file in the DM' });
      const message = h.fake.dms(user).find((m) => m.ts === file.shares[file.channels[0]!]);
      const [header, ...rows] = parseCsv(file.text);
      const row = (no: string) => {
        const r = rows.find((x) => x[0] === no);
        return r ? Object.fromEntries(header!.map((c, i) => [c, r[i]!])) : undefined;
      };
      return { header: header!, row, message: h.fake.visibleText(message!, { viewer: user }) };
    }

    beforeAll(async () => {
      const url = databaseUrl();
      h = await startHarness({ startAt: START, sandbox: { seed: 'empty' }, ...(url ? { databaseUrl: url } : {}) });
      const sophie = await linkDirectly(h, 'sophie');
      sophieCareName = (await h.app.care.users.retrieve(sophie)).first_name!;
      snoozed = await webAppAction(h, { task: 'Review the falls risk assessment', due: FIRST_DUE, assigned_to: sophie, urgent: true });
      edited = await webAppAction(h, { task: 'Replace the bed sensor mat', due: new Date('2026-10-06T09:00:00Z') });
      await poll(h); // the app's first look: both seen as they are
      await h.setTime('2026-10-06T08:00:00Z');
      // Moved to 20 November in the care system's web app; the poll sees it.
      await h.control(`actions/${edited._id}`, { due: '2026-11-20T09:00:00Z' }, 'PATCH');
      await poll(h);

      await h.setTime(LATER);
      // Sophie snoozes it from its card ("+1 hour": an hour from now, it being overdue), then completes it.
      await command(h, 'sophie', `/care show ${snoozed.action_no}`);
      await h.driver.selectOption('sophie', { ephemeral: true, channel: '#care-team', control: 'Snooze…', option: '+1 hour' });
      await h.fake.waitFor(
        async () => (parseApiDateTime((await h.control(`actions/${snoozed._id}`)).due)?.toISOString() === '2026-11-14T10:00:00.000Z' ? true : undefined),
        {
          timeoutMs: 10_000,
          message: 'not snoozed',
        },
      );
      await h.setTime('2026-11-14T09:10:00Z');
      expect((await command(h, 'sophie', `/care done ${snoozed.action_no}`)).text).toContain('by @sophie');
      await h.control(`actions/${edited._id}/complete`, {});
      await poll(h);
      await h.setTime('2026-11-15T09:00:00Z');
    }, 120_000);
    afterAll(async () => h?.close());

    it('the October export lists the snoozed action, late by its first due time, with one reschedule, its assignee and urgency', async () => {
      const { header, row, message } = await exportAs('amelia', '/care evidence from 2026-10-01 to 2026-10-31');
      expect(header.slice(0, 14)).toEqual([
        'Number',
        'Location',
        'Created',
        'First due',
        'Due at completion',
        'Completed',
        'Completed by',
        'Minutes late',
        'Lateness',
        'Completed through',
        'Reschedules',
        'Assigned to',
        'Urgent',
        'Safeguarding',
      ]);
      const r = row(snoozed.action_no);
      expect(r, 'the October export no longer lists it').toBeDefined();
      expect(r!['First due']).toBe('2026-10-05T10:00:00+01:00');
      expect(r!['Due at completion']).toBe('2026-11-14T10:00:00+00:00');
      expect(r!.Completed).toMatch(/^2026-11-14T09:10:\d\d\+00:00$/);
      // 5 Oct 09:00 UTC to 14 Nov 09:10 UTC: 40 days and 10 minutes.
      const minutes = Number(r!['Minutes late']);
      expect(minutes - (40 * 24 * 60 + 10)).toBeGreaterThanOrEqual(0);
      expect(minutes - (40 * 24 * 60 + 10)).toBeLessThanOrEqual(1);
      expect(r!.Lateness).toBe('completed late');
      expect(r!.Reschedules).toBe('1');
      expect(r!['Assigned to']).toContain(sophieCareName);
      expect(r!.Urgent).toBe('yes');
      expect(message).toContain('2 actions: 2 completed, 0% of them on time by their first due time (0); 2 completed late');
    }, 60_000);

    it('a due edited in the care system, seen by the poll, counts as a reschedule and lateness runs from the first due', async () => {
      const { row } = await exportAs('amelia', '/care evidence from 2026-10-01 to 2026-10-31');
      const r = row(edited.action_no)!;
      expect([r['First due'], r['Due at completion'], r.Lateness, r.Reschedules, r['Assigned to'], r.Urgent]).toEqual([
        '2026-10-06T10:00:00+01:00',
        '2026-11-20T09:00:00+00:00',
        'completed late',
        '1',
        '',
        'no',
      ]);
    }, 60_000);

    it('the November export lists the snoozed action too (completed then), and not as on time', async () => {
      const { row } = await exportAs('amelia', '/care evidence from 2026-11-01 to 2026-11-30');
      expect(row(snoozed.action_no)?.Lateness).toBe('completed late');
    }, 60_000);
  });
}

honestSuite('SQLite', () => undefined);

if (!TEST_DATABASE_URL) it.skip(PG_SKIPPED, () => {});
describe.skipIf(!TEST_DATABASE_URL)('on PostgreSQL', () => {
  let schema: TestSchema | undefined;
  let url: string | undefined;
  beforeAll(async () => {
    schema = await createTestSchema(TEST_DATABASE_URL!, 'evidence_honest');
    url = urlWithSchema(TEST_DATABASE_URL!, schema.name);
  });
  afterAll(async () => schema?.drop());
  honestSuite('PostgreSQL', () => url);
});
