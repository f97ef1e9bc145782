/**
 * `/care evidence`: an admin gets a CSV of the actions due in a range in their DM, through Slack's
 * external upload flow (the fake's upload_url), with the headline figures as its message. 500 actions
 * across the UK's autumn clock change (25 Oct 2026, 02:00 BST -> 01:00 GMT): some completed through
 * Slack, some in the care system's web app, some by the care system itself (its tagged actions).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Action } from '../../src/care/index.js';
import { durationText } from '../../src/services/evidence/evidence-figures.js';
import { parseApiDateTime } from '../../src/time/slack-date.js';
import { careWorkspace } from '../../dev/demo/care-workspace.js';
import { command, linkDirectly, startHarness, webAppAction, type Harness } from './harness.js';
import { parseCsv } from '../helpers/csv.js';

const START = new Date('2026-10-24T10:00:00Z');
const EXPORT_AT = '2026-11-06T10:00:00Z';
const SEEDED = 496;
const TRICKY_TASK = '=HYPERLINK("http://evil.example","click"), then "check", the hoist';

const ms = (v: string | null | undefined) => parseApiDateTime(v)?.getTime() ?? null;

describe('evidence export', () => {
  let h: Harness;
  const crafted: Record<'slackLate' | 'webLate' | 'slackOnTime' | 'tricky', { _id: string; action_no: string }> = {} as never;
  let sophieName: string;
  let priyaName: string;

  /** Sets the world's clock and waits for nothing: what happens next happens then. */
  const at = (iso: string) => h.setTime(new Date(iso));

  /** Types the command and waits for the file in the person's DM: the newest one. */
  async function exportAs(user: string, line: string) {
    const before = h.fake.files({ dm: user }).length;
    const reply = await command(h, user, line, { channel: '#care-team' }, 60_000);
    const file = await h.fake.waitFor(() => h.fake.files({ dm: user })[before], { timeoutMs: 60_000, message: 'no file in the DM' });
    const message = h.fake.dms(user).find((m) => m.ts === file.shares[file.channels[0]!]);
    return { reply, file, rows: parseCsv(file.text), message: h.fake.visibleText(message!, { viewer: user }) };
  }

  beforeAll(async () => {
    h = await startHarness({ startAt: START, sandbox: { seed: SEEDED } });
    await linkDirectly(h, 'sophie');
    await linkDirectly(h, 'priya');
    sophieName = h.driver.user('sophie').real_name;
    priyaName = h.driver.user('priya').real_name;
    // Due 01:30 BST; completed through Slack at 01:29:30 GMT, an hour of instants later (both clocks read 01:30).
    crafted.slackLate = await webAppAction(h, { task: 'Night check, room 2', due: new Date('2026-10-25T00:30:00Z') });
    // Due 01:45 BST; completed in the web app at 01:29:45 GMT: 45 minutes late, not "15 minutes early".
    crafted.webLate = await webAppAction(h, { task: 'Night check, room 3', due: new Date('2026-10-25T00:45:00Z') });
    crafted.slackOnTime = await webAppAction(h, { task: 'Morning meds round', due: new Date('2026-10-26T09:00:00Z') });
    crafted.tricky = await webAppAction(h, { task: TRICKY_TASK, due: new Date('2026-10-26T12:00:00Z') });
    await at('2026-10-25T01:29:30Z');
    expect((await command(h, 'sophie', `/care done ${crafted.slackLate.action_no}`)).text).toContain('by @sophie');
    await at('2026-10-25T01:29:45Z');
    await h.control(`actions/${crafted.webLate._id}/complete`, {});
    await at('2026-10-26T07:59:30Z');
    expect((await command(h, 'priya', `/care done ${crafted.slackOnTime.action_no}`)).text).toContain('by @priya');
    await at(EXPORT_AT);
  }, 120_000);
  afterAll(async () => h?.close());

  it('sends an admin all 500 actions due in the range as a CSV in their DM, lateness right across the clock change, figures right', async () => {
    const { reply, file, rows, message } = await exportAs('amelia', '/care evidence from 2026-09-01 to 2026-12-31');
    expect(reply.text).toBe('I have sent you the evidence export in a DM: 500 actions first due or completed 1 Sept 2026 to 31 Dec 2026.');
    expect(file.name).toBe('care-evidence-2026-09-01-to-2026-12-31.csv');
    // Through today's flow: an upload URL, the bytes, a completion into the DM; never files.upload.
    expect(h.fake.calls('files.upload')).toHaveLength(0);
    expect(h.fake.calls('files.completeUploadExternal').at(-1)?.args.channel_id).toBe(file.channels[0]);
    const [header, ...body] = rows;
    expect(header).toEqual([
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
      'Answers',
      'Staff',
    ]);
    expect(body).toHaveLength(500);
    const byNo = new Map(body.map((r) => [r[0]!, r]));

    const slackLate = byNo.get(crafted.slackLate.action_no)!;
    // Never rescheduled: the first due time is the due time at completion.
    expect([slackLate[3], slackLate[4]]).toEqual(['2026-10-25T01:30:00+01:00', '2026-10-25T01:30:00+01:00']);
    expect(slackLate[5]).toMatch(/^2026-10-25T01:29:\d\d\+00:00$/);
    expect(slackLate.slice(6, 11)).toEqual([sophieName, '60', 'completed late', 'Slack', '0']);
    const webLate = byNo.get(crafted.webLate.action_no)!;
    expect([webLate[3], webLate[5]!.slice(0, 17)]).toEqual(['2026-10-25T01:45:00+01:00', '2026-10-25T01:29:']);
    expect(webLate.slice(6, 10)).toEqual(['unknown', '45', 'completed late', 'web app']);
    expect(byNo.get(crafted.slackOnTime.action_no)!.slice(3, 10)).toEqual([
      '2026-10-26T09:00:00+00:00',
      '2026-10-26T09:00:00+00:00',
      expect.stringMatching(/^2026-10-26T07:59:\d\d\+00:00$/),
      priyaName,
      '0',
      'on time',
      'Slack',
    ]);
    // Still open, due 12 days before the export: overdue by the minutes between the instants (the clock ran on a little).
    const tricky = byNo.get(crafted.tricky.action_no)!;
    expect([tricky[5], tricky[6], tricky[8], tricky[9]]).toEqual(['', '', 'still open, overdue', '']);
    const overdueAtExport = (Date.parse(EXPORT_AT) - Date.parse('2026-10-26T12:00:00Z')) / 60_000; // 15,720: 10 d 22 h, not 10 d 23 h
    expect(Number(tricky[7]) - overdueAtExport).toBeGreaterThanOrEqual(0);
    expect(Number(tricky[7]) - overdueAtExport).toBeLessThanOrEqual(2);
    expect(file.text).not.toContain('HYPERLINK');

    // Every row against the care system's own data (read over its API): who, through what, how late.
    const actions: Action[] = await h.app.care.actions.collect({
      attributes: ['_id', 'action_no', 'due', 'completed', 'tag', 'location', 'urgent', 'assigned_to'],
      per_page: 100,
      limit: 1000,
    });
    expect(actions).toHaveLength(500);
    const locations = new Map(
      (await h.app.care.locations.collect({ filters: { suspended: 'unset' }, attributes: ['_id', 'name'], limit: 100 })).map((l) => [l._id, l.name!]),
    );
    const slackDone = new Set([crafted.slackLate.action_no, crafted.slackOnTime.action_no]);
    const late: number[] = [];
    let completed = 0;
    let careSystem = 0;
    const perLocation = new Map<string, number>();
    for (const a of actions) {
      const row = byNo.get(a.action_no!)!;
      const due = ms(a.due)!;
      const done = ms(a.completed);
      const location = a.location ? locations.get(a.location)! : 'no location';
      perLocation.set(location, (perLocation.get(location) ?? 0) + 1);
      expect(row[1], a.action_no!).toBe(location);
      expect(row[12], a.action_no!).toBe(a.urgent ? 'yes' : 'no');
      expect(row[11] === '', a.action_no!).toBe(!a.assigned_to);
      if (done === null) {
        expect(row[9]).toBe('');
        continue;
      }
      completed += 1;
      const minutesLate = done > due ? Math.ceil((done - due) / 60_000) : 0;
      if (done > due) late.push(minutesLate);
      expect(row[7], a.action_no!).toBe(String(minutesLate));
      if (slackDone.has(a.action_no!)) expect(row[9]).toBe('Slack');
      else if (a.tag) {
        careSystem += 1;
        expect([row[6], row[9]]).toEqual(['the care system', 'care system']);
      } else expect([row[6], row[9]]).toEqual(['unknown', 'web app']);
    }
    expect(careSystem).toBeGreaterThan(0); // the seed has the care system's own reviews among the completed
    late.sort((x, y) => x - y);
    const mid = Math.floor(late.length / 2);
    const median = late.length % 2 ? late[mid]! : Math.ceil((late[mid - 1]! + late[mid]!) / 2);
    const onTime = completed - late.length;
    expect(message).toContain(
      `500 actions: ${completed} completed, ${Math.floor((onTime * 100) / completed)}% of them on time by their first due time (${onTime}); ${late.length} completed late`,
    );
    expect(median).toBeGreaterThan(0);
    expect(message).toContain(`${late.length} completed late, median ${durationText(median)} late;`);
    for (const [name, count] of perLocation) expect(message).toContain(`${name} ${count} (`);
    expect(message).toContain('Task text is not included; add --with-tasks to include it.');
    expect(message).toContain('[file: care-evidence-2026-09-01-to-2026-12-31.csv]');
  }, 120_000);

  it('puts task text in the file only with --with-tasks, and says so; a formula-like task is made harmless', async () => {
    const { rows, message, reply } = await exportAs('amelia', '/care evidence from 2026-10-26 to 2026-10-26 --with-tasks');
    expect(reply.text).toContain(', with task text.');
    expect(rows[0]!.at(-1)).toBe('Task');
    const tricky = rows.find((r) => r[0] === crafted.tricky.action_no)!;
    expect(tricky.at(-1)).toBe(`'${TRICKY_TASK}`);
    expect(message).toContain('Task text is included in the file (--with-tasks).');
    // The DM's text itself (the notification) carries no task.
    expect(message).not.toContain('HYPERLINK');
  }, 60_000);

  it('exports one location when named', async () => {
    const name = [...new Set((await exportAs('amelia', '/care evidence from 2026-09-01 to 2026-12-31')).rows.slice(1).map((r) => r[1]!))].find(
      (n) => n !== 'no location',
    )!;
    const { rows, message } = await exportAs('amelia', `/care evidence location ${name} from 2026-09-01 to 2026-12-31`);
    expect(rows.length).toBeGreaterThan(1);
    expect(new Set(rows.slice(1).map((r) => r[1]))).toEqual(new Set([name]));
    expect(message).toContain(`at ${name} (times in Europe/London)`);
  }, 60_000);

  it('refuses someone who is not an admin with one sentence, and sends them nothing', async () => {
    const reply = await command(h, 'sophie', '/care evidence');
    expect(reply.text).toBe('Only Care Actions admins can export evidence; ask one of your workspace’s admins to run /care evidence for you.');
    expect(h.fake.files({ dm: 'sophie' })).toEqual([]);
  });

  it('answers a bad date, a reversed range and an unknown location with one clear sentence', async () => {
    const files = h.fake.files({ dm: 'amelia' }).length;
    expect((await command(h, 'amelia', '/care evidence from 2026-02-30')).text).toMatch(
      /^2026-02-30 after from is not a date: give it as YYYY-MM-DD, e.g. from 2026-11-06\. \/care evidence \[from YYYY-MM-DD\]/,
    );
    expect((await command(h, 'amelia', '/care evidence from 2026-10-31 to 2026-10-01')).text).toMatch(
      /^The range ends \(2026-10-01\) before it starts \(2026-10-31\)/,
    );
    expect((await command(h, 'amelia', '/care evidence from 31/10/2026')).text).toMatch(/^31\/10\/2026 after from is not a date/);
    expect((await command(h, 'amelia', '/care evidence location Nowhere Manor')).text).toMatch(/^No location is called “Nowhere Manor”\. The locations are: /);
    expect(h.fake.files({ dm: 'amelia' })).toHaveLength(files);
  });
});

describe('evidence export in an install made before the app asked for files:write', () => {
  let h: Harness;
  beforeAll(async () => {
    const workspace = careWorkspace();
    h = await startHarness({
      startAt: START,
      sandbox: { seed: 20 },
      workspace: { ...workspace, bot: { ...workspace.bot, scopes: workspace.bot.scopes.filter((s) => s !== 'files:write') } },
    });
  }, 60_000);
  afterAll(async () => h?.close());

  it('tells the admin what permission is missing and how to grant it', async () => {
    const reply = await command(h, 'amelia', '/care evidence', { channel: '#care-team' }, 30_000);
    expect(reply.text).toBe(
      'Slack did not let me send you the file: this workspace’s install of Care Actions is missing the files:write permission. Reinstall the app (Add to Slack) to grant it, then try again.',
    );
    expect(h.fake.files({ dm: 'amelia', all: true })).toEqual([]);
    expect(h.fake.calls('files.getUploadURLExternal').at(-1)?.result).toMatchObject({ ok: false, error: 'missing_scope' });
  }, 30_000);
});
