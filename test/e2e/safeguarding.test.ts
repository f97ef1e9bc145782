/**
 * Issue 35, "Safeguarding tier": admins name the care system's action tags and notification groups that mean
 * safeguarding, and the safeguarding officers (`/care settings safeguarding …`). Such an action never appears
 * in a channel post of any kind — digest and its thread, urgent alert, escalation thread reminder and managers'
 * post, handover, routed completion notice — not even its number; its urgent alert and escalation go by DM to
 * the officers alone, the lock-screen text as neutral as everywhere.
 * Clocks: 2027-06-15 09:00 UTC (10:00 in London: the Day shift), moved step by step; SQLite and PostgreSQL.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeMessage } from '../../dev/slack-fake/types.js';
import { parseCsv } from '../helpers/csv.js';
import { createTestSchema, PG_SKIPPED, TEST_DATABASE_URL, type TestSchema } from '../helpers/pg.js';
import { deliveryActionId, deliveryKind, poll } from './fixtures/jobs-support.js';
import { urlWithSchema } from './fixtures/spawn-instance.js';
import { command, linkDirectly, startHarness, type Harness } from './harness.js';

const START = new Date('2027-06-15T09:00:00Z');
const MIN = 60_000;
const TAG = '5f1a00000000000000003501';
const OTHER_TAG = '5f1a00000000000000003502';

type Database = () => Promise<{ dataDir?: string; databaseUrl?: string; close: () => Promise<void> }>;
const sqliteFile: Database = async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'care-safeguarding-'));
  return { dataDir, close: () => rm(dataDir, { recursive: true, force: true }) };
};
const postgres: Database = async () => {
  const schema: TestSchema = await createTestSchema(TEST_DATABASE_URL!, 'safeguarding');
  return { databaseUrl: urlWithSchema(TEST_DATABASE_URL!, schema.name), close: () => schema.drop() };
};

interface Made {
  _id: string;
  action_no: string;
  task: string;
  safeguarding: 'tag' | 'group' | null;
  urgent: boolean;
}

/** Every message (and thread reply) in every channel that is not a DM, as Slack holds it now. */
function channelPosts(h: Harness): { channel: string; message: FakeMessage }[] {
  const out: { channel: string; message: FakeMessage }[] = [];
  for (const c of h.fake.store.state.channels.filter((ch) => !ch.is_im)) {
    for (const m of h.fake.messages(c.id)) {
      out.push({ channel: c.name ?? c.id, message: m });
      for (const r of m.replies ?? []) out.push({ channel: c.name ?? c.id, message: r });
    }
  }
  return out;
}

/** Where an action shows in a channel: its Id, its number or its task text, anywhere in a post (text, blocks, metadata). */
function mentions(h: Harness, a: Made): string[] {
  const number = new RegExp(`#${a.action_no}(?![0-9])`);
  return channelPosts(h)
    .filter(({ message }) => {
      const raw = JSON.stringify(message);
      const seen = h.fake.visibleText(message, { viewer: 'amelia' });
      return raw.includes(a._id) || raw.includes(a.task) || number.test(seen) || number.test(message.text ?? '');
    })
    .map(({ channel, message }) => `${channel}: ${deliveryKind(message) ?? '?'}: ${message.text}`);
}

async function runJob(h: Harness, name: string): Promise<void> {
  const run = await h.app.jobs.runOnce(name);
  if (!run.ran) throw new Error(`the ${name} job did not run`);
  const result = run.result as { error?: string } | undefined;
  if (result?.error) throw new Error(`the ${name} job failed: ${result.error}`);
}

/** A small seeded generator: the same actions every run. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function safeguardingTier(name: string, database: Database) {
  describe(`safeguarding tier (${name})`, () => {
    let h: Harness;
    let db: Awaited<ReturnType<Database>>;
    const groups: Record<string, string> = {};
    const care: Record<string, string> = {};
    const first: Record<string, Made> = {};

    /** `user` opens the action's card (`/care show`) and clicks History on it: the modal's text as they read it. */
    async function historyAs(user: string, actionNo: string): Promise<string> {
      await command(h, user, `/care show ${actionNo}`);
      await h.driver.clickButton(user, { ephemeral: true, channel: '#care-team', text: 'History' });
      const text = await h.fake.waitFor(
        () => {
          const m = h.fake.openModal(user);
          const t = m ? h.fake.visibleText(m.view, { viewer: user }) : '';
          return t.includes('History of action') || t.includes('restricted') ? t : undefined;
        },
        { timeoutMs: 10_000, message: `${user} saw no history` },
      );
      await h.driver.modal(user).close();
      return text;
    }

    async function make(input: {
      task: string;
      safeguarding: Made['safeguarding'];
      urgent: boolean;
      notify?: string[];
      dueInMinutes: number;
      assignee?: string | null;
    }) {
      await h.setTime(new Date(h.now().getTime() + 2_000));
      const notify = [...(input.notify ?? []), ...(input.safeguarding === 'group' ? [groups['Safeguarding leads']!] : [])];
      const a = (await h.control('actions', {
        task: input.task,
        due: new Date(h.now().getTime() + input.dueInMinutes * MIN).toISOString(),
        urgent: input.urgent,
        assigned_to: input.assignee ?? null,
        notify_on_complete: notify,
        user_tags: input.safeguarding === 'tag' ? [TAG, OTHER_TAG] : [OTHER_TAG],
      })) as { _id: string; action_no: string };
      return { _id: a._id, action_no: a.action_no, task: input.task, safeguarding: input.safeguarding, urgent: input.urgent } satisfies Made;
    }

    beforeAll(async () => {
      db = await database();
      h = await startHarness({
        startAt: START,
        sandbox: { seed: 'empty' },
        ...(db.dataDir ? { dataDir: db.dataDir } : {}),
        ...(db.databaseUrl ? { databaseUrl: db.databaseUrl } : {}),
      });
      for (const person of ['sophie', 'oliver', 'priya']) care[person] = await linkDirectly(h, person);
      for (const g of await h.app.care.notificationGroups.collect({ attributes: ['_id', 'name'], per_page: 100, limit: 100 })) groups[g.name ?? g._id] = g._id;
      // Channels of every kind: a digest (numbers) in public #care-team; urgent alerts with task text in private #care-leads;
      // handovers in both; completions routed to #general; the escalation ladder's managers in #general.
      await command(h, 'amelia', '/care digest here', { channel: '#care-team' });
      await command(h, 'amelia', '/care digest here urgent-only --show-tasks', { channel: '#care-leads' });
      await command(h, 'amelia', '/care handover here', { channel: '#care-team' });
      await command(h, 'amelia', '/care handover here --show-tasks', { channel: '#care-leads' });
      await command(h, 'amelia', '/care route Safeguarding leads <#C0GENERAL|general>', { channel: '#general' });
      await command(h, 'amelia', '/care route Home managers <#C0GENERAL|general>', { channel: '#general' });
      await command(h, 'amelia', '/care escalation after 15');
      await command(h, 'amelia', '/care escalation steps thread,seniors,managers');
      await command(h, 'amelia', '/care escalation managers <#C0GENERAL|general>');
      await command(h, 'amelia', '/care escalation seniors Day <@U0PRIYA|priya>');
      await poll(h); // the app's first look: what comes after is news
    }, 60_000);
    afterAll(async () => {
      await h?.close();
      await db?.close();
    });

    it('only admins name the safeguarding tags, groups and officers; each change is audited and shown', async () => {
      expect((await command(h, 'sophie', `/care settings safeguarding tags ${TAG}`)).text).toContain('Only admins');
      expect((await command(h, 'amelia', '/care settings safeguarding')).text).toContain('Safeguarding is off');
      expect((await command(h, 'amelia', '/care settings safeguarding groups No such group')).text).toContain('There is no notification group called');
      expect((await command(h, 'amelia', '/care settings safeguarding officers oliver')).text).toContain('is not a person');
      expect((await command(h, 'amelia', `/care settings safeguarding tags ${TAG}`)).text).toContain('Safeguarding set.');
      expect((await command(h, 'amelia', '/care settings safeguarding groups Safeguarding leads')).text).toContain('• Notification groups: Safeguarding leads');
      const shown = (await command(h, 'amelia', '/care settings safeguarding officers <@U0OLIVER|oliver>')).text;
      expect(shown).toContain(`• Action tags: ${TAG}`);
      expect(shown).toContain('• Officers: @oliver');
      const audit = (await h.app.store.listAudit({ limit: 50 })).filter((e) => e.verb === 'safeguarding.set');
      expect(audit.map((e) => e.details)).toEqual(
        expect.arrayContaining([{ tags: [TAG] }, { groups: [groups['Safeguarding leads']] }, { officers: ['U0OLIVER'] }]),
      );
    });

    it('a tagged action made urgent reaches no channel; the officer gets a DM whose lock-screen text names no task', async () => {
      const sg = await make({ task: 'SG concern: bruising seen on Mrs Adeyemi’s arm', safeguarding: 'tag', urgent: true, dueInMinutes: 60 });
      const plain = await make({ task: 'Plain: Mr Jones needs his hearing aid', safeguarding: null, urgent: true, dueInMinutes: 60 });
      await poll(h);
      expect(mentions(h, sg)).toEqual([]);
      // The ordinary urgent action is alerted where it always was (the test is not blind).
      expect(mentions(h, plain).some((m) => m.startsWith('care-leads: urgent'))).toBe(true);
      const dms = h.fake.dms('oliver').filter((m) => deliveryKind(m) === 'urgent' && deliveryActionId(m) === sg._id);
      expect(dms).toHaveLength(1);
      expect(dms[0]!.text).toBe(`Urgent action #${sg.action_no}`);
      expect(h.fake.visibleText(dms[0]!, { viewer: 'oliver' })).toContain('bruising seen');
      for (const other of ['amelia', 'sophie', 'priya'])
        expect(
          h.fake.dms(other).filter((m) => deliveryActionId(m) === sg._id),
          other,
        ).toHaveLength(0);
      first.sg = sg;
      first.plain = plain;
    });

    it('an action alerted in a channel and tagged safeguarding afterwards in the care system: the alert leaves the channel within one poll', async () => {
      const later = await make({ task: 'Later concern: Mr Kaur says someone took his money', safeguarding: null, urgent: true, dueInMinutes: 90 });
      await poll(h);
      expect(mentions(h, later).some((m) => m.startsWith('care-leads: urgent'))).toBe(true); // alerted as any urgent action
      await h.setTime(new Date(h.now().getTime() + 2_000));
      await h.control(`actions/${later._id}`, { user_tags: [TAG, OTHER_TAG] }, 'PATCH');
      await h.setTime(new Date(h.now().getTime() + 2_000));
      await poll(h);
      await h.fake.waitFor(() => (mentions(h, later).length === 0 ? true : undefined), {
        timeoutMs: 10_000,
        message: `the alert stayed: ${mentions(h, later).join(' | ')}`,
      });
      expect(mentions(h, later)).toEqual([]);
    });

    it('History of a safeguarding action is shown only to the officers and admins; the evidence export marks it', async () => {
      const { sg, plain } = first as { sg: Made; plain: Made };
      const refused = await historyAs('sophie', sg.action_no);
      expect(refused).toContain('This action’s history is restricted');
      expect(refused).not.toContain('History of action');
      expect(await historyAs('oliver', sg.action_no)).toContain(`History of action #${sg.action_no}`);
      expect(await historyAs('sophie', plain.action_no)).toContain(`History of action #${plain.action_no}`);

      const before = h.fake.files({ dm: 'amelia' }).length;
      await command(h, 'amelia', '/care evidence from 2027-06-15 to 2027-06-15', { channel: '#care-team' }, 60_000);
      const file = await h.fake.waitFor(() => h.fake.files({ dm: 'amelia' })[before], { timeoutMs: 60_000, message: 'no file in the DM' });
      const [header, ...rows] = parseCsv(file.text);
      const column = header!.indexOf('Safeguarding');
      expect(column).toBeGreaterThan(-1);
      const marked = (no: string) => rows.find((r) => r[0] === no)?.[column];
      expect([marked(sg.action_no), marked(plain.action_no)]).toEqual(['yes', 'no']);
    });

    it('a form saving a safeguarding action from a message shortcut confirms to the person alone, never in the channel’s thread', async () => {
      const task = 'SG shortcut: Mr Khan said a visitor shouted at him';
      const msg = h.driver.postAsUser('sophie', '#care-team', task);
      await h.driver.messageShortcut('priya', 'care_create_from_message', { channel: '#care-team', ts: msg.ts });
      await h.fake.waitFor(() => (h.fake.openModal('priya')?.view.callback_id === 'care_action_modal' ? true : undefined), { timeoutMs: 10_000 });
      const saved = await h.driver.modal('priya').fill('Due time', '14:00').fill('Notify on completion', ['Safeguarding leads']).submit();
      expect(saved.outcome).toBe('closed');
      const told = await h.fake.waitFor(
        () => h.fake.ephemerals('priya', { channel: '#care-team' }).find((e) => h.fake.visibleText(e, { viewer: 'priya' }).includes('Created.')),
        { timeoutMs: 10_000, message: 'priya was not told it was created' },
      );
      expect(h.fake.visibleText(told, { viewer: 'priya' })).toContain('Mr Khan');
      expect(h.fake.thread('#care-team', msg.ts)).toEqual([]);
    });

    it('fuzz over every message kind: digest, alert, escalation ladder, handover and routed completion never show a safeguarding action in a channel', async () => {
      const random = rng(35);
      const made: Made[] = [];
      for (let i = 0; i < 18; i++) {
        const kind = i % 3 === 0 ? 'tag' : i % 3 === 1 ? 'group' : null;
        const urgent = random() < 0.6;
        const notify = random() < 0.7 ? [groups['Home managers']!] : [];
        const assignee = random() < 0.4 ? care.sophie! : null;
        made.push(
          await make({
            task: `Fuzz ${i} ${kind ?? 'plain'}: resident detail ${Math.floor(random() * 1e6)}`,
            safeguarding: kind,
            urgent,
            notify,
            assignee,
            dueInMinutes: Math.floor(random() * 600) - 120,
          }),
        );
      }
      // The alerts, the ladder's steps and the completions' redraws queue behind Slack's limits (Tier 3's 50 updates
      // a minute, a post a second per channel): 30 s of the machine's time at Slack's pace, so the clock runs ten
      // times as fast while they do, still paced as Slack requires.
      await h.fastForward(() => poll(h)); // urgent alerts
      const began = h.now().getTime();
      for (const minutes of [16, 31, 46]) {
        await h.setTime(new Date(began + minutes * MIN));
        await h.fastForward(async () => {
          await runJob(h, 'escalations');
          await runJob(h, 'escalations');
        });
      }
      await command(h, 'amelia', '/care digest now', { channel: '#care-team' });
      await command(h, 'amelia', '/care digest now', { channel: '#care-leads' });
      // Half of them completed in the care system: routed completion notices.
      for (const a of made.filter((_, i) => i % 2 === 0)) await h.control(`actions/${a._id}/complete`, {});
      await h.setTime(new Date(h.now().getTime() + MIN));
      await h.fastForward(() => poll(h));
      // The Day shift hands over to the Night shift at 19:00 London.
      await h.setTime('2027-06-15T18:00:30Z');
      await runJob(h, 'handovers');

      const safeguarding = made.filter((a) => a.safeguarding);
      for (const a of safeguarding) expect(mentions(h, a), `${a.task} (${a.safeguarding})`).toEqual([]);
      // Not blind: the ordinary actions were posted in each kind of channel post.
      const kinds = new Set(made.filter((a) => !a.safeguarding).flatMap((a) => mentions(h, a).map((m) => m.split(': ').slice(0, 2).join(': '))));
      for (const k of ['care-team: digest', 'care-leads: urgent', 'general: escalation', 'general: completion', 'care-team: handover'])
        expect([...kinds], k).toContain(k);
      // The officer was told of every urgent safeguarding action, and its escalation, by DM.
      const officerDms = h.fake.dms('oliver');
      for (const a of safeguarding.filter((x) => x.urgent)) {
        expect(
          officerDms.filter((m) => deliveryKind(m) === 'urgent' && deliveryActionId(m) === a._id),
          a.task,
        ).toHaveLength(1);
        expect(
          officerDms.some((m) => deliveryKind(m) === 'escalation' && deliveryActionId(m) === a._id),
          a.task,
        ).toBe(true);
      }
    }, 120_000);
  });
}

safeguardingTier('SQLite', sqliteFile);
if (TEST_DATABASE_URL) safeguardingTier('PostgreSQL', postgres);
else it.skip(PG_SKIPPED, () => {});
