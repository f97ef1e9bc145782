import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_EMAIL_DOMAIN } from '../../dev/sandbox/index.js';
import { careUserIdByEmail, command, linkDirectly, startHarness, webAppAction, type Harness } from './harness.js';
import { digestsIn, digestTickAt, lineIds } from './fixtures/jobs-support.js';

/**
 * A channel digest as a care-home manager reads it: the counts, who has what,
 * the ten that matter most, and the rest in a thread by section; and a thread
 * cut short by a failed post is finished on the next run, nothing twice.
 */
describe('the channel digest, as a manager reads it', () => {
  let h: Harness;
  const no: Record<string, string> = {};
  // Monday 14 June 2027, 08:30 in London (BST).
  const at = (iso: string) => new Date(iso);
  beforeAll(async () => {
    h = await startHarness({ startAt: at('2027-06-14T07:30:00Z'), sandbox: { seed: 'empty' } });
    const sophie = await linkDirectly(h, 'sophie');
    const oliver = await linkDirectly(h, 'oliver');
    const priya = await linkDirectly(h, 'priya');
    const daniel = await careUserIdByEmail(h, `daniel.okafor@${DEMO_EMAIL_DOMAIN}`); // not in Slack
    const make = async (key: string, due: string, assigned_to: string | null, urgent = false) => {
      no[key] = (await webAppAction(h, { task: `Task ${key}`, due: at(due), assigned_to, urgent })).action_no;
    };
    // Sophie: an urgent one overdue since yesterday, two more overdue, two due today, twelve left since April.
    await make('sophieUrgent', '2027-06-13T09:00:00Z', sophie, true);
    await make('sophie1', '2027-06-10T09:00:00Z', sophie);
    await make('sophie2', '2027-06-12T09:00:00Z', sophie);
    await make('sophieToday1', '2027-06-14T10:00:00Z', sophie);
    await make('sophieToday2', '2027-06-14T15:00:00Z', sophie);
    for (let i = 0; i < 12; i++) await make(`sophieOld${i}`, `2027-04-${String(10 + i).padStart(2, '0')}T09:00:00Z`, sophie);
    // Oliver: six overdue (the oldest a week ago), one due today.
    for (let i = 0; i < 6; i++) await make(`oliver${i}`, `2027-06-${String(7 + i).padStart(2, '0')}T08:00:00Z`, oliver);
    await make('oliverToday', '2027-06-14T12:00:00Z', oliver);
    // Daniel (no Slack account): two overdue, one due today, three left since April.
    await make('daniel1', '2027-06-09T11:00:00Z', daniel);
    await make('daniel2', '2027-06-11T11:00:00Z', daniel);
    await make('danielToday', '2027-06-14T16:00:00Z', daniel);
    for (let i = 0; i < 3; i++) await make(`danielOld${i}`, `2027-04-0${1 + i}T09:00:00Z`, daniel);
    // Priya: an urgent one due on Thursday.
    await make('priyaUrgent', '2027-06-17T09:00:00Z', priya, true);
    // Nobody's: two overdue, an urgent one due today, one left since April.
    await make('nobody1', '2027-06-08T10:00:00Z', null);
    await make('nobody2', '2027-06-13T10:00:00Z', null);
    await make('nobodyUrgent', '2027-06-14T11:00:00Z', null, true);
    await make('nobodyOld', '2027-03-01T10:00:00Z', null);
    // Not today's business: due next month.
    await make('later', '2027-07-14T10:00:00Z', sophie);
    await command(h, 'amelia', '/care digest here 08:45 weekdays', { channel: '#care-team' }); // public: task text hidden
    await command(h, 'amelia', '/care digest here 08:45 weekdays', { channel: '#care-leads' }); // private: shown
    await digestTickAt(h, '2027-06-14T07:45:00Z');
  });
  afterAll(async () => h?.close());

  const read = (m: Parameters<Harness['fake']['visibleText']>[0]) => h.fake.visibleText(m, { viewer: 'amelia' });
  /** An action's row as read: its line, the task line where shown, and its button (`[View]`). */
  const rowOf = (text: string, key: string) => {
    const lines = text.split('\n');
    const from = lines.findIndex((l) => l.includes(`#${no[key]} `));
    if (from < 0) return undefined;
    const to = lines.findIndex((l, i) => i >= from && l.startsWith('['));
    return lines.slice(from, to + 1).join(' ');
  };

  it('the channel message: the date, the counts, a line per carer, and the ten that matter most', () => {
    const [digest, ...others] = digestsIn(h, '#care-team');
    expect(others).toEqual([]);
    const lines = read(digest!).split('\n');
    expect(lines.slice(0, 6)).toEqual([
      'Care actions · Monday 14 June',
      '29 overdue · 5 due today · 3 urgent · 4 unassigned · task text hidden in this channel: View shows it to you alone',
      'By carer',
      '• @sophie · 15 overdue (12 over 30 days) · 2 due today',
      '• @oliver · 6 overdue · 1 due today',
      '• Daniel Okafor · 5 overdue (3 over 30 days) · 1 due today',
    ]);
    expect(read(digest!)).toContain('Most pressing (10 of 35)');
    // Urgent first (by due time), then the longest overdue; nothing from April, nothing of next month.
    const order = ['sophieUrgent', 'nobodyUrgent', 'priyaUrgent', 'oliver0', 'oliver1', 'nobody1', 'oliver2', 'daniel1', 'oliver3', 'sophie1'];
    const shownNos = lines.flatMap((l) => /#(\d+) /.exec(l)?.[1] ?? []);
    expect(shownNos).toEqual(order.map((k) => no[k]));
    expect(lineIds(digest!)).toHaveLength(10);
    // Task text hidden: View on assigned rows, Take it on unassigned ones, never a blind Complete.
    expect(rowOf(read(digest!), 'oliver0')).toMatch(/@oliver.*\[View\]$/);
    expect(rowOf(read(digest!), 'nobody1')).toMatch(/unassigned.*\[Take it\]$/);
    expect(read(digest!)).not.toContain('[Complete]');
    expect(read(digest!)).not.toContain('Task ');
    expect(read(digest!)).toContain(
      'In the thread, besides the ones above: Overdue (19) · Due today (4) · Unassigned (2) · those older than 30 days as one line per carer.',
    );
  });

  it('the thread: a message per section, the old ones as one line per carer, everything once', () => {
    const digest = digestsIn(h, '#care-team')[0]!;
    const replies = digest.replies.map(read);
    expect(replies.map((r) => r.split('\n')[0])).toEqual([':warning: Overdue (19)', ':calendar: Due today (4)', ':inbox_tray: Unassigned (2)']);
    const [overdue, today, unassigned] = replies as [string, string, string];
    for (const k of ['sophie2', 'oliver4', 'oliver5', 'daniel2']) expect(rowOf(overdue, k)).toMatch(/\[View\]$/);
    expect(overdue).toContain('Older than 30 days, one line per carer (the care system lists those of people not in Slack)');
    expect(overdue.indexOf('Older than 30 days')).toBeLessThan(overdue.indexOf(`#${no.sophie2} `)); // the oldest first
    expect(overdue).toContain('• @sophie: 12 older than 30 days: /care due overdue @sophie');
    expect(overdue).toContain('• Daniel Okafor: 3 older than 30 days\n');
    for (const k of ['sophieToday1', 'sophieToday2', 'oliverToday', 'danielToday']) expect(rowOf(today, k)).toMatch(/\[View\]$/);
    expect(rowOf(unassigned, 'nobody2')).toMatch(/\[Take it\]$/);
    expect(unassigned).toContain('• 1 older than 30 days, unassigned: the care system lists them');
    // Every action due by today or urgent this week: once as a row, or inside one summary line.
    const rows = [...lineIds(digest), ...digest.replies.flatMap(lineIds)];
    expect(new Set(rows).size).toBe(rows.length);
    expect(rows).toHaveLength(35 - 16);
    for (const r of replies) expect(r).not.toContain(`#${no.later} `);
  });

  it('with task text shown, Complete asks first, naming the action and its assignee; Take it stays on unassigned rows', () => {
    const digest = digestsIn(h, '#care-leads')[0]!;
    expect(read(digest)).toContain('Task sophieUrgent');
    const row = (digest.blocks ?? []).find((b) => (b as { block_id?: string }).block_id?.startsWith('line_')) as unknown as {
      accessory: { text: { text: string }; confirm: { title: { text: string }; text: { text: string } } };
    };
    expect(row.accessory.text.text).toBe('Complete');
    expect(row.accessory.confirm.title.text).toBe(`Complete action #${no.sophieUrgent}?`);
    expect(row.accessory.confirm.text.text).toContain('assigned to Sophie Marsh?');
    expect(rowOf(read(digest), 'nobodyUrgent')).toMatch(/\[Take it\]$/);
  });

  it('View on the digest (a thread parent) shows the card to the clicker alone, in the channel, not in the thread', async () => {
    const digest = digestsIn(h, '#care-team')[0]!;
    expect(read(digest)).not.toContain('Task sophie1');
    await h.driver.clickButton('oliver', { channel: '#care-team', text: 'View', ts: digest.ts });
    const card = await h.fake.waitFor(
      () => h.fake.ephemerals('oliver', { channel: '#care-team' }).find((e) => JSON.stringify(e.blocks ?? []).includes('Only you can see')),
      {
        timeoutMs: 10_000,
        message: 'no card for Oliver',
      },
    );
    expect(card.thread_ts).toBeUndefined();
    expect(h.fake.ephemerals('amelia', { channel: '#care-team' }).some((e) => JSON.stringify(e.blocks ?? []).includes('Only you can see'))).toBe(false);
  });

  it('a thread cut short by a failed post is finished on the next run: every part once, in order', { timeout: 60_000 }, async () => {
    await command(h, 'amelia', '/care digest here 09:15 weekdays', { channel: '#general' });
    // Slack fails the "Due today" part through all the deliverer's attempts (about 8 s of backoff).
    h.fake.faults.failNext('chat.postMessage', 6, { error: 'internal_error', args: { channel: 'C0GENERAL', text: 'Monday 14 June: Due today' } });
    await digestTickAt(h, '2027-06-14T08:15:00Z');
    h.fake.faults.clear();
    const first = digestsIn(h, '#general');
    expect(first).toHaveLength(1);
    expect(first[0]!.replies.map((r) => read(r).split('\n')[0])).toEqual([':warning: Overdue (19)']);
    await digestTickAt(h, '2027-06-14T08:16:00Z');
    const [digest, ...others] = digestsIn(h, '#general');
    expect(others).toEqual([]);
    expect(digest!.replies.map((r) => read(r).split('\n')[0])).toEqual([':warning: Overdue (19)', ':calendar: Due today (4)', ':inbox_tray: Unassigned (2)']);
    await digestTickAt(h, '2027-06-14T08:17:00Z');
    expect(digestsIn(h, '#general')[0]!.replies).toHaveLength(3);
  });
});
