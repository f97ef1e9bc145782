import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSchema, PG_SKIPPED, TEST_DATABASE_URL, type TestSchema } from '../helpers/pg.js';
import { deliveryKind } from './fixtures/jobs-support.js';
import { urlWithSchema } from './fixtures/spawn-instance.js';
import { command, linkDirectly, startHarness, webAppAction, type Harness } from './harness.js';

/**
 * Handover at each shift change (Day 07:00–19:00, Night 19:00–07:00 in London, the default shifts):
 * one post per handover channel per shift change, with what the outgoing shift completed (and who),
 * what is still open from it and what is new; Accept handover; the managers told once when nobody
 * accepts within 30 minutes; a carer's own part first on their Home tab. Across the night the clocks
 * go back (Sunday 31 October 2027, 02:00 BST -> 01:00 GMT).
 */

type Message = ReturnType<Harness['fake']['messages']>[number];
const handoversIn = (h: Harness, channel: string) => h.fake.messages(channel).filter((m) => deliveryKind(m) === 'handover');
const seen = (h: Harness, m: Message, viewer = 'amelia') => h.fake.visibleText(m, { viewer });
const noticesTo = (h: Harness, user: string) => h.fake.dms(user).filter((m) => deliveryKind(m) === 'handover-unaccepted');

/** Move both clocks to `at`, then run the handover job once (as the every-minute tick would). */
async function tickAt(h: Harness, at: string): Promise<void> {
  await h.setTime(at);
  const run = await h.app.jobs.runOnce('handovers');
  if (!run.ran) throw new Error(`the handover job did not run at ${at}`);
  const result = run.result as { error?: string } | undefined;
  if (result?.error) throw new Error(`the handover job failed at ${at}: ${result.error}`);
}

/** The text between a part's heading and the next heading of the post. */
function part(text: string, heading: string): string {
  const from = text.indexOf(heading);
  if (from < 0) throw new Error(`no "${heading}" in:\n${text}`);
  const rest = text.slice(from + heading.length);
  const next = ['Completed this', 'Still open from', 'New since the last handover', '[Accept handover]', 'Accepted by']
    .map((h) => rest.indexOf(h))
    .filter((i) => i >= 0);
  return rest.slice(0, next.length ? Math.min(...next) : undefined);
}

const tasks = {
  overdue: 'Overdue: ring the pharmacy about Mrs Patel',
  doneInSlack: 'Done in Slack: change the dressing in room 3',
  doneInWeb: 'Done in the web app: weigh Mr Jones',
  nightDue: 'Due tonight: 23:00 medication round',
  unassigned: 'Unassigned tonight: turn Mrs Green at 02:30',
  later: 'Later: order gloves',
  newUrgent: 'New and urgent: call the GP about room 7',
  newNight: 'New in the night: breakfast check for room 9',
};

/** Where the app keeps its data: a fresh SQLite file (dataDir) or a fresh PostgreSQL schema. */
type Database = () => Promise<{ dataDir?: string; databaseUrl?: string; close(): Promise<void> }>;

const sqliteFile: Database = async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'care-handover-'));
  return { dataDir, close: () => rm(dataDir, { recursive: true, force: true }) };
};
const postgres: Database = async () => {
  const schema: TestSchema = await createTestSchema(TEST_DATABASE_URL!, 'handover');
  return { databaseUrl: urlWithSchema(TEST_DATABASE_URL!, schema.name), close: () => schema.drop() };
};
const placeOf = (db: Awaited<ReturnType<Database>>) => ({
  ...(db.dataDir ? { dataDir: db.dataDir } : {}),
  ...(db.databaseUrl ? { databaseUrl: db.databaseUrl } : {}),
});

function nightOfTheClockChange(name: string, database: Database) {
  describe(`handover at each shift change, on the night the clocks go back (${name})`, () => {
    let h: Harness;
    let db: Awaited<ReturnType<Database>>;
    const a: Record<string, { _id: string; action_no: string }> = {};

    beforeAll(async () => {
      db = await database();
      // Saturday 30 October 2027, 06:00 BST (05:00Z): the Night shift of the 29th is still on.
      h = await startHarness({ startAt: new Date('2027-10-30T05:00:00Z'), ...placeOf(db), sandbox: { seed: 'empty' } });
      const sophie = await linkDirectly(h, 'sophie');
      const priya = await linkDirectly(h, 'priya');
      await linkDirectly(h, 'amelia'); // only a linked person may accept a handover
      // Made before the Day shift: not new at 19:00.
      a.overdue = await webAppAction(h, { task: tasks.overdue, due: new Date('2027-10-30T10:00:00Z'), assigned_to: sophie });
      a.doneInSlack = await webAppAction(h, { task: tasks.doneInSlack, due: new Date('2027-10-30T12:00:00Z'), assigned_to: sophie });
      a.doneInWeb = await webAppAction(h, { task: tasks.doneInWeb, due: new Date('2027-10-30T12:00:00Z'), assigned_to: priya });
      a.nightDue = await webAppAction(h, { task: tasks.nightDue, due: new Date('2027-10-30T22:00:00Z'), assigned_to: priya });
      a.unassigned = await webAppAction(h, { task: tasks.unassigned, due: new Date('2027-10-31T02:30:00Z'), assigned_to: null });
      a.later = await webAppAction(h, { task: tasks.later, due: new Date('2027-11-04T10:00:00Z'), assigned_to: sophie });
    });
    afterAll(async () => {
      await h?.close();
      await db?.close();
    });

    it('only admins set a channel up; off, list and a wrong word each get a clear sentence', async () => {
      await h.setTime('2027-10-30T06:30:00Z'); // 07:30 BST, the Day shift
      for (const line of ['/care handover here', '/care handover off', '/care handover list'])
        expect((await command(h, 'sophie', line)).text, line).toContain('Only admins can do that.');
      const wrong = (await command(h, 'amelia', '/care handover hre')).text;
      expect(wrong).toContain('/care handover hre');
      expect(wrong).toContain('it takes here, off or list');
      expect((await command(h, 'amelia', '/care handover here --public')).text).toContain('--public goes with --show-tasks');
      const pub = (await command(h, 'amelia', '/care handover here --show-tasks', { channel: '#care-team' })).text;
      expect(pub).toContain('Handovers set for this channel');
      expect(pub).toContain('Next: Night at');
      expect(pub).toContain('Task text stays hidden: this is a public channel');
      const leads = (await command(h, 'amelia', '/care handover here --show-tasks', { channel: '#care-leads' })).text;
      expect(leads).toContain('Task text is shown (private channel, as you asked).');
      await command(h, 'amelia', '/care handover here', { channel: '#general' });
      expect((await command(h, 'amelia', '/care handover off', { channel: '#general' })).text).toContain('This channel will get no more handovers.');
      expect((await command(h, 'amelia', '/care handover off', { channel: '#general' })).text).toContain('This channel had no handovers to stop.');
      const list = (await command(h, 'amelia', '/care handover list')).text;
      expect(list).toContain('#care-team: at each shift change, set by @');
      expect(list).toContain('#care-leads: at each shift change, task text shown');
      expect(list).not.toContain('#general');
      const verbs = (await h.app.store.listAudit({ limit: 50 })).filter((e) => e.verb.startsWith('handover.')).map((e) => e.verb);
      expect(verbs.sort()).toEqual(['handover.here', 'handover.here', 'handover.here', 'handover.off']);
      // Set up after this morning's change: the first handover is tonight's.
      await tickAt(h, '2027-10-30T06:31:00Z');
      expect(handoversIn(h, '#care-team')).toHaveLength(0);
    });

    it('during the Day shift: one completed in Slack, one in the web app, one new', async () => {
      await h.setTime('2027-10-30T09:00:00Z');
      expect((await command(h, 'sophie', `/care done ${a.doneInSlack!.action_no}`)).text).not.toContain('could not');
      await h.fake.waitFor(async () => (await h.control(`actions/${a.doneInSlack!._id}`)).completed, { message: 'not completed through Slack' });
      await h.control(`actions/${a.doneInWeb!._id}/complete`, {});
      const sophie = await linkDirectly(h, 'sophie');
      a.newUrgent = await webAppAction(h, { task: tasks.newUrgent, due: new Date('2027-11-02T10:00:00Z'), assigned_to: sophie, urgent: true });
    });

    it('at 19:00 BST each channel gets one post: completed and by whom, still open, new', async () => {
      await tickAt(h, '2027-10-30T17:59:00Z');
      expect(handoversIn(h, '#care-team')).toHaveLength(0);
      await tickAt(h, '2027-10-30T18:00:00Z'); // 19:00 BST
      await tickAt(h, '2027-10-30T18:01:00Z');
      await tickAt(h, '2027-10-30T18:02:00Z');
      expect(handoversIn(h, '#care-team')).toHaveLength(1);
      expect(handoversIn(h, '#care-leads')).toHaveLength(1);
      expect(handoversIn(h, '#general')).toHaveLength(0);

      const leads = handoversIn(h, '#care-leads')[0]!;
      const text = seen(h, leads);
      expect(text).toContain('Handover: Day → Night shift');
      expect(text).toContain('2 completed');
      expect(text).toContain('4 still open (1 overdue · 1 urgent · 1 unassigned · 2 due this shift)');
      expect(text).toContain('1 new');
      const completed = part(text, 'Completed this Day shift');
      expect(completed).toContain(tasks.doneInSlack);
      expect(completed).toMatch(/Done in Slack[^\n]*\n[^\n]*completed by @sophie/i);
      expect(completed).toContain(tasks.doneInWeb);
      expect(completed).toContain('completed in the care system (web app)');
      const open = part(text, 'Still open from the Day shift');
      for (const t of [tasks.overdue, tasks.nightDue, tasks.unassigned, tasks.newUrgent]) expect(open).toContain(t);
      for (const t of [tasks.later, tasks.doneInSlack, tasks.doneInWeb]) expect(open).not.toContain(t);
      const fresh = part(text, 'New since the last handover');
      expect(fresh).toContain(tasks.newUrgent);
      expect(fresh).not.toContain(tasks.overdue);
      expect(text).toContain('[Accept handover]');
      // The notification text: counts only, no task text, no resident.
      expect(leads.text).toBe('Handover to the Night shift: 2 completed, 4 still open, 1 new');
    });

    it('keeps task text out of a public channel not confirmed for it', () => {
      const team = handoversIn(h, '#care-team')[0]!;
      const text = seen(h, team);
      expect(text).toContain('2 completed');
      expect(text).toContain('task text hidden in this channel');
      for (const t of Object.values(tasks)) expect(text).not.toContain(t);
      expect(JSON.stringify(team)).not.toContain('Mrs Patel');
      expect(text).toContain(a.doneInSlack!.action_no); // numbers, due times and assignees still show
    });

    it('Accept handover: the first press wins and the post says who and when; the other presser is told who, and nothing changes', async () => {
      await h.setTime('2027-10-30T18:04:00Z');
      const post = handoversIn(h, '#care-leads')[0]!;
      // Priya and Amelia press at the same moment, both on the post as it was.
      await Promise.all(
        ['priya', 'amelia'].map((who) => h.driver.clickButton(who, { channel: '#care-leads', ts: post.ts, text: 'Accept handover', confirm: 'accept' })),
      );
      await h.fake.waitFor(() => seen(h, handoversIn(h, '#care-leads')[0]!).includes('Accepted by'), { message: 'the post was not updated' });
      const accepts = (await h.app.store.listAudit({ verb: 'handover.accept', limit: 10 })).map((e) => e.userId);
      expect(accepts).toHaveLength(1);
      const winner = accepts[0] === 'U0PRIYA' ? 'priya' : 'amelia';
      const loser = winner === 'priya' ? 'amelia' : 'priya';
      const after = seen(h, handoversIn(h, '#care-leads')[0]!);
      expect(after).toContain(`Accepted by @${winner} at 7:04 PM`); // each reader's own zone (London here)
      expect(after).not.toContain('[Accept handover]');
      expect(after).toContain(tasks.nightDue); // the rest of the post stays
      const told = await h.fake.waitFor(() => h.fake.ephemerals(loser).find((e) => (e.text ?? '').includes('already accepted')), {
        message: 'the second presser was not told',
      });
      expect(h.fake.visibleText(told, { viewer: loser })).toContain(`This handover was already accepted by @${winner} at 7:04 PM.`);
      expect(h.fake.ephemerals(winner).filter((e) => (e.text ?? '').includes('already accepted'))).toHaveLength(0);
      expect(handoversIn(h, '#care-leads')).toHaveLength(1);
    });

    it('not accepted by 19:30: the managers (the admins, by DM) are told once, not again at 19:31 or 20:00', async () => {
      await tickAt(h, '2027-10-30T18:29:00Z');
      expect(noticesTo(h, 'amelia')).toHaveLength(0);
      await tickAt(h, '2027-10-30T18:30:00Z');
      expect(noticesTo(h, 'amelia')).toHaveLength(1);
      const notice = noticesTo(h, 'amelia')[0]!;
      expect(seen(h, notice)).toContain('Nobody has accepted the Night handover in #care-team yet');
      for (const at of ['2027-10-30T18:31:00Z', '2027-10-30T19:00:00Z']) {
        await tickAt(h, at);
        expect(noticesTo(h, 'amelia'), at).toHaveLength(1);
      }
      // The accepted channel's handover is no one's worry.
      expect(h.fake.dms('amelia').filter((m) => seen(h, m).includes('#care-leads'))).toHaveLength(0);
    });

    it('across the repeated hour the Night goes on; at 07:00 GMT the Day handover comes, once each', async () => {
      // 01:30 BST, the first time round: completed in the web app.
      await tickAt(h, '2027-10-31T00:30:00Z');
      await h.control(`actions/${a.nightDue!._id}/complete`, {});
      // 01:30 GMT, the second time round: a new action, and one completed through Slack.
      await tickAt(h, '2027-10-31T01:30:00Z');
      const sophie = await linkDirectly(h, 'sophie');
      a.newNight = await webAppAction(h, { task: tasks.newNight, due: new Date('2027-10-31T09:00:00Z'), assigned_to: sophie });
      expect((await command(h, 'sophie', `/care done ${a.overdue!.action_no}`)).text).not.toContain('could not');
      await h.fake.waitFor(async () => (await h.control(`actions/${a.overdue!._id}`)).completed, { message: 'not completed through Slack' });
      for (const at of ['2027-10-31T02:00:00Z', '2027-10-31T06:00:00Z', '2027-10-31T06:59:00Z']) {
        await tickAt(h, at);
        expect(handoversIn(h, '#care-leads'), at).toHaveLength(1);
      }
      await tickAt(h, '2027-10-31T07:00:00Z'); // 07:00 GMT
      await tickAt(h, '2027-10-31T07:01:00Z');
      expect(handoversIn(h, '#care-leads')).toHaveLength(2);
      expect(handoversIn(h, '#care-team')).toHaveLength(2);
      const text = seen(h, handoversIn(h, '#care-leads')[1]!);
      expect(text).toContain('Handover: Night → Day shift');
      const completed = part(text, 'Completed this Night shift');
      expect(completed).toContain(tasks.nightDue);
      expect(completed).toContain('completed in the care system (web app)');
      expect(completed).toContain(tasks.overdue);
      expect(completed).toContain('completed by @sophie');
      expect(completed).not.toContain(tasks.doneInSlack);
      const open = part(text, 'Still open from the Night shift');
      for (const t of [tasks.unassigned, tasks.newUrgent, tasks.newNight]) expect(open).toContain(t);
      for (const t of [tasks.overdue, tasks.nightDue, tasks.later]) expect(open).not.toContain(t);
      const fresh = part(text, 'New since the last handover');
      expect(fresh).toContain(tasks.newNight);
      expect(fresh).not.toContain(tasks.newUrgent);
    });

    it('a carer coming on sees their own part first on the Home tab, for the first two hours', async () => {
      const homeText = () => {
        const home = h.fake.home('sophie');
        return home ? h.fake.visibleText(home, { viewer: 'sophie' }) : '';
      };
      await h.setTime('2027-10-31T07:30:00Z');
      await h.driver.openHome('sophie');
      await h.fake.waitFor(() => homeText().includes('Your handover'), { message: 'no handover on the Home tab' });
      const text = homeText();
      expect(text).toContain('Your handover: 2 of yours open from the last shift (Night → Day)');
      const mine = text.slice(text.indexOf('Your handover'), text.indexOf('Linked'));
      expect(mine).toContain(tasks.newUrgent);
      expect(mine).toContain(tasks.newNight);
      expect(mine).not.toContain(tasks.later);
      expect(text.indexOf('Your handover')).toBeLessThan(text.indexOf('Linked'));
      // Two and a half hours in: the Home tab as ever.
      await h.setTime('2027-10-31T09:30:00Z');
      await h.driver.openHome('sophie');
      await h.fake.waitFor(() => homeText().includes('Linked') && !homeText().includes('Your handover'), { message: 'the handover stayed on the Home tab' });
    });
  });
}

/** Two app instances sharing one database (each with its own Slack fake and care sandbox): one post per channel per change. */
function twoInstances(name: string, database: Database) {
  describe(`two instances on one ${name}`, () => {
    let a: Harness;
    let b: Harness;
    let db: Awaited<ReturnType<typeof database>>;
    beforeAll(async () => {
      db = await database();
      const startAt = new Date('2027-10-30T16:00:00Z');
      const where = placeOf(db);
      a = await startHarness({ startAt, ...where, sandbox: { seed: 'empty' }, jobs: { instanceId: 'instance-a' } });
      b = await startHarness({ startAt, ...where, sandbox: { seed: 'empty' }, jobs: { instanceId: 'instance-b' } });
    });
    afterAll(async () => {
      await a?.close();
      await b?.close();
      await db?.close();
    });

    const posts = (ch: string) => handoversIn(a, ch).length + handoversIn(b, ch).length;
    const notices = () => noticesTo(a, 'amelia').length + noticesTo(b, 'amelia').length;
    const run = async (at: string) => {
      await Promise.all([a.setTime(at), b.setTime(at)]);
      await Promise.all([a.app.jobs.runOnce('handovers'), b.app.jobs.runOnce('handovers')]);
      await b.app.jobs.runOnce('handovers');
      await a.app.jobs.runOnce('handovers');
    };

    it('post one handover per channel per shift change between them, and tell the managers once', async () => {
      await command(a, 'amelia', '/care handover here', { channel: '#care-team' });
      await command(a, 'amelia', '/care handover here', { channel: '#care-leads' });
      for (const at of ['2027-10-30T18:00:00Z', '2027-10-30T18:01:00Z', '2027-10-30T18:30:00Z', '2027-10-30T18:31:00Z']) {
        await run(at);
        expect([posts('#care-team'), posts('#care-leads')], at).toEqual([1, 1]);
      }
      expect(noticesTo(a, 'amelia').length + noticesTo(b, 'amelia').length).toBe(2); // one per channel
      await run('2027-10-31T07:00:00Z');
      expect([posts('#care-team'), posts('#care-leads')]).toEqual([2, 2]);
    });

    it('the 30-minute mark missed by both (next run at the next shift change): the managers are told once per handover between them', async () => {
      // Neither instance ran from 07:00 until 19:00 GMT: the Day handovers' 07:30 check never happened.
      await run('2027-10-31T19:00:00Z');
      expect([posts('#care-team'), posts('#care-leads')]).toEqual([3, 3]);
      expect(notices()).toBe(4); // the two Night ones before, and now the two Day ones
      const day = [...noticesTo(a, 'amelia'), ...noticesTo(b, 'amelia')].filter((m) => seen(a, m).includes('Nobody has accepted the Day handover'));
      expect(day).toHaveLength(2);
      await run('2027-10-31T19:01:00Z');
      expect(notices()).toBe(4);
    });
  });
}

/**
 * Who may accept a handover, its Undo, and the managers' check that no missed tick loses (June 2027, BST):
 * Val the visitor has no care account; Sophie and Priya are linked carers; Amelia is the admin; Oliver
 * reads from New York.
 */
function whoAccepts(name: string, database: Database) {
  describe(`who accepts a handover, its Undo, and the managers told of each one not accepted (${name})`, () => {
    let h: Harness;
    let db: Awaited<ReturnType<Database>>;
    const post = (i: number) => handoversIn(h, '#care-team')[i]!;
    const click = (who: string, i: number, text: string) =>
      h.driver.clickButton(who, { channel: '#care-team', ts: post(i).ts, text, ...(text === 'Accept handover' ? { confirm: 'accept' as const } : {}) });
    const toldTo = (who: string, words: string) =>
      h.fake.waitFor(() => h.fake.ephemerals(who).find((e) => h.fake.visibleText(e, { viewer: who }).includes(words)), {
        message: `${who} was not told "${words}"`,
      });
    const notices = () => noticesTo(h, 'amelia').map((m) => seen(h, m));

    beforeAll(async () => {
      db = await database();
      // Tuesday 15 June 2027, 11:00 BST.
      h = await startHarness({ startAt: new Date('2027-06-15T10:00:00Z'), ...placeOf(db), sandbox: { seed: 'empty' } });
      for (const who of ['sophie', 'priya', 'amelia']) await linkDirectly(h, who);
      await command(h, 'amelia', '/care handover here', { channel: '#care-team' });
    });
    afterAll(async () => {
      await h?.close();
      await db?.close();
    });

    it('a visitor with no care account is refused and told why; the post is unchanged; the managers are still told at 19:30', async () => {
      await tickAt(h, '2027-06-15T18:00:00Z'); // 19:00 BST: the Night handover
      await h.setTime('2027-06-15T18:05:00Z');
      await click('visitor', 0, 'Accept handover');
      const told = await toldTo('visitor', 'linked care account');
      expect(h.fake.visibleText(told, { viewer: 'visitor' })).toContain(
        'Only people with a linked care account can accept a handover: type /care link to link yours. The handover is unchanged.',
      );
      const after = seen(h, post(0));
      expect(after).toContain('[Accept handover]');
      expect(after).not.toContain('Accepted by');
      expect(await h.app.store.listAudit({ verb: 'handover.accept', limit: 10 })).toHaveLength(0);
      await tickAt(h, '2027-06-15T18:29:00Z');
      expect(notices()).toHaveLength(0);
      await tickAt(h, '2027-06-15T18:30:00Z');
      await tickAt(h, '2027-06-15T18:31:00Z');
      expect(notices()).toHaveLength(1);
      expect(notices()[0]).toContain('Nobody has accepted the Night handover in #care-team yet');
    });

    it('where seniors are named for the incoming shift, a linked carer who is not one is refused and a named senior accepts; the time is each reader’s own', async () => {
      expect((await command(h, 'amelia', '/care escalation seniors Day <@U0PRIYA|priya>')).text).toContain('Day: @priya');
      await tickAt(h, '2027-06-16T06:00:00Z'); // 07:00 BST: the Day handover
      await h.setTime('2027-06-16T06:02:00Z');
      await click('sophie', 1, 'Accept handover');
      const told = await toldTo('sophie', 'Only the seniors');
      expect(h.fake.visibleText(told, { viewer: 'sophie' })).toContain(
        'Only the seniors named for the Day shift (@priya) or an admin can accept this handover. The handover is unchanged.',
      );
      expect(seen(h, post(1))).toContain('[Accept handover]');
      await click('priya', 1, 'Accept handover');
      await h.fake.waitFor(() => seen(h, post(1)).includes('Accepted by'), { message: 'the post was not updated' });
      expect(seen(h, post(1))).toContain('Accepted by @priya at 7:02 AM');
      expect(seen(h, post(1), 'oliver')).toContain('Accepted by @priya at 2:02 AM'); // New York
      expect(seen(h, post(1))).not.toContain('[Accept handover]');
      expect(seen(h, post(1))).toContain('[Undo]');
    });

    it('Undo: only the accepter’s; the Accept button comes back, and the managers are told when nobody accepts again', async () => {
      await h.setTime('2027-06-16T06:03:00Z');
      await click('sophie', 1, 'Undo');
      expect(h.fake.visibleText(await toldTo('sophie', 'can undo it'), { viewer: 'sophie' })).toContain(
        'Only @priya, who accepted this handover, can undo it.',
      );
      expect(seen(h, post(1))).toContain('Accepted by @priya');
      await click('priya', 1, 'Undo');
      await h.fake.waitFor(() => seen(h, post(1)).includes('[Accept handover]'), { message: 'the Accept button did not come back' });
      expect(seen(h, post(1))).toContain('@priya undid their acceptance at 7:03 AM: not accepted yet');
      expect(seen(h, post(1))).not.toContain('Accepted by');
      await tickAt(h, '2027-06-16T06:29:00Z');
      expect(notices()).toHaveLength(1);
      await tickAt(h, '2027-06-16T06:30:00Z');
      await tickAt(h, '2027-06-16T06:31:00Z');
      expect(notices()).toHaveLength(2);
      expect(notices()[1]).toContain('Nobody has accepted the Day handover in #care-team yet');
      // Accepted again; an Undo six minutes later is too late, and the post keeps who and when.
      await h.setTime('2027-06-16T06:40:00Z');
      await click('priya', 1, 'Accept handover');
      await h.fake.waitFor(() => seen(h, post(1)).includes('Accepted by @priya at 7:40 AM'), { message: 'not accepted again' });
      await h.setTime('2027-06-16T06:46:00Z');
      await click('priya', 1, 'Undo');
      expect(h.fake.visibleText(await toldTo('priya', 'too late'), { viewer: 'priya' })).toContain('Undo works for 5 minutes after accepting');
      await h.fake.waitFor(() => !seen(h, post(1)).includes('[Undo]'), { message: 'the late Undo stayed on the post' });
      expect(seen(h, post(1))).toContain('Accepted by @priya at 7:40 AM');
      expect((await h.app.store.listAudit({ verb: 'handover.accept-undo', limit: 10 })).map((e) => e.userId)).toEqual(['U0PRIYA']);
    });

    it('a check missed (no run at the 30-minute mark, a clock that jumps past two shift changes) still tells the managers, once per handover not accepted', async () => {
      const before = notices().length; // those of the handovers above
      const since = () => notices().slice(before);
      await tickAt(h, '2027-06-16T18:00:00Z'); // the Night handover of the 16th
      await tickAt(h, '2027-06-16T18:01:00Z');
      // Down from 19:01 until the Day change: the Night handover's 19:30 check never ran.
      await tickAt(h, '2027-06-17T06:00:00Z');
      expect(since()).toHaveLength(1);
      expect(since()[0]).toContain('Nobody has accepted the Night handover');
      await tickAt(h, '2027-06-17T06:01:00Z');
      expect(since()).toHaveLength(1);
      // Down again from 07:01 until 07:40 the next day, past the Night change and the next Day one.
      await tickAt(h, '2027-06-18T06:40:00Z');
      expect(handoversIn(h, '#care-team').map((m) => seen(h, m).split('\n')[0])).toEqual([
        'Handover: Day → Night shift',
        'Handover: Night → Day shift',
        'Handover: Day → Night shift',
        'Handover: Night → Day shift',
        'Handover: Night → Day shift', // the latest only: the missed Night one of the 17th is not posted late
      ]);
      expect(since()).toHaveLength(2); // the Day handover of the 17th
      expect(since()[1]).toContain('Nobody has accepted the Day handover');
      await tickAt(h, '2027-06-18T06:41:00Z');
      expect(since()).toHaveLength(2);
      await tickAt(h, '2027-06-18T07:10:00Z'); // 30 minutes after the 18th's went out
      await tickAt(h, '2027-06-18T07:11:00Z');
      expect(since()).toHaveLength(3);
    });
  });
}

whoAccepts('SQLite', sqliteFile);
nightOfTheClockChange('SQLite', sqliteFile);
twoInstances('SQLite file', sqliteFile);

if (!TEST_DATABASE_URL) it.skip(PG_SKIPPED, () => {});
if (TEST_DATABASE_URL) {
  nightOfTheClockChange('PostgreSQL', postgres);
  twoInstances('PostgreSQL', postgres);
  whoAccepts('PostgreSQL', postgres);
}

describe('a handover missed while the app was down, and a managers’ channel', () => {
  let h: Harness;
  beforeAll(async () => {
    // Tuesday 15 June 2027, 11:00 BST.
    h = await startHarness({ startAt: new Date('2027-06-15T10:00:00Z'), sandbox: { seed: 'empty' } });
    await command(h, 'amelia', '/care handover here', { channel: '#care-team' });
    // The escalation setting names the managers' channel: they are told there, not by DM.
    await h.app.store.setHomeSetting(h.fake.teamId, 'escalation', JSON.stringify({ managersChannel: 'C0LEADS' }), 'U0AMELIA'); // the workspace's own scope
  });
  afterAll(async () => h?.close());

  it('posts only the latest change when the app comes back (no backlog), and tells the managers’ channel once', async () => {
    // Down from before 19:00 BST until 08:30 BST the next morning: the Night handover and the Day one were missed.
    await tickAt(h, '2027-06-16T07:30:00Z');
    await tickAt(h, '2027-06-16T07:31:00Z');
    const posts = handoversIn(h, '#care-team');
    expect(posts).toHaveLength(1);
    expect(seen(h, posts[0]!)).toContain('Handover: Night → Day shift');
    const notices = () => h.fake.messages('#care-leads').filter((m) => deliveryKind(m) === 'handover-unaccepted');
    // 30 minutes from when it went out, not from 07:00.
    await tickAt(h, '2027-06-16T07:59:00Z');
    expect(notices()).toHaveLength(0);
    for (const at of ['2027-06-16T08:00:00Z', '2027-06-16T08:01:00Z', '2027-06-16T08:30:00Z']) {
      await tickAt(h, at);
      expect(notices(), at).toHaveLength(1);
    }
    expect(seen(h, notices()[0]!)).toContain('Nobody has accepted the Day handover in #care-team yet');
    expect(noticesTo(h, 'amelia')).toHaveLength(0);
  });
});
