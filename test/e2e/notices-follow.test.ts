/**
 * Issue 32, "every post knows its action and follows it", for the DMs and cards that carry an action's card with
 * live buttons: the assignment DM, a change DM, the form's "✅ Created." card (in a DM or a thread). Each keeps its
 * headline — the event it told, which stays true as history — and its card is drawn again as the action is now,
 * within one poll for a change made in the care system's web app. On SQLite and PostgreSQL.
 * Clock: Tuesday 15 June 2027, 09:00 UTC = 10:00 in London (BST), moved step by step.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeMessage } from '../../dev/slack-fake/index.js';
import { createTestSchema, PG_SKIPPED, TEST_DATABASE_URL, type TestSchema } from '../helpers/pg.js';
import { deliveryActionId, deliveryKind, poll } from './fixtures/jobs-support.js';
import { urlWithSchema } from './fixtures/spawn-instance.js';
import { command, linkDirectly, startHarness, webAppAction, type Harness } from './harness.js';

const START = new Date('2027-06-15T09:00:00Z');
const HOUR = 3_600_000;

const DATABASES = [
  ['SQLite', false],
  ['PostgreSQL', true],
] as const;

describe.each(DATABASES)('DMs and confirmation cards follow their action on %s (issue 32)', (_name, postgres) => {
  let h: Harness;
  let schema: TestSchema | undefined;
  const care: Record<string, string> = {};

  const later = (ms = 5_000) => h.setTime(new Date(h.now().getTime() + ms));
  const seen = (m: FakeMessage | undefined, viewer: string) => (m ? h.fake.visibleText(m, { viewer }) : '');
  /** The person's DM of this ledger kind about this action, as Slack holds it now. */
  const dmOf = (user: string, kind: string, id: string) => h.fake.dms(user).find((m) => deliveryKind(m) === kind && deliveryActionId(m) === id);
  const updatesOf = (m: FakeMessage) => h.fake.calls('chat.update').filter((c) => c.args.ts === m.ts && c.result.ok === true).length;

  /** An action made in the web app for Priya, due at 13:00 in London, seen by a poll. */
  async function priyasAction(task: string) {
    await later();
    const a = await webAppAction(h, { task, due: new Date(START.getTime() + 3 * HOUR), assigned_to: care.priya! });
    await poll(h);
    return { id: a._id, no: a.action_no };
  }

  /** The action the person created through Slack with this task. */
  async function createdBy(user: string, task: string): Promise<{ _id: string; action_no: string }> {
    const slackId = h.driver.user(user).id;
    return h.fake.waitFor(
      async () => {
        for (const e of (await h.app.store.listAudit({ verb: 'action.create', limit: 200 })).filter((x) => x.userId === slackId)) {
          const a = await h.control(`actions/${e.actionId}`);
          if (a.task === task) return a as { _id: string; action_no: string };
        }
        return undefined;
      },
      { timeoutMs: 10_000, message: `no action "${task}"` },
    );
  }

  /** The confirmation is recorded in the ledger just after it is posted: waited for before the test's clock moves on. */
  const recorded = (kind: string, id: string) =>
    h.fake.waitFor(async () => ((await h.app.store.listDeliveries({ kind, actionId: id, state: 'sent' })).length ? true : undefined), {
      timeoutMs: 10_000,
      message: `no ${kind} post recorded`,
    });

  async function submitForm(user: string, due: string): Promise<void> {
    await h.fake.waitFor(() => (h.fake.openModal(user)?.view.callback_id === 'care_action_modal' ? true : undefined), { timeoutMs: 10_000 });
    expect((await h.driver.modal(user).fill('Due time', due).submit()).outcome).toBe('closed');
  }

  beforeAll(async () => {
    let databaseUrl: string | undefined;
    if (postgres && TEST_DATABASE_URL) {
      schema = await createTestSchema(TEST_DATABASE_URL, 'notices_follow');
      databaseUrl = urlWithSchema(schema.url, schema.name);
    }
    if (postgres && !databaseUrl) return;
    h = await startHarness({ startAt: START, sandbox: { seed: 'empty' }, ...(databaseUrl ? { databaseUrl } : {}) });
    for (const person of ['amelia', 'sophie', 'priya']) care[person] = await linkDirectly(h, person);
    await poll(h); // the first look
  });
  afterAll(async () => {
    await h?.close();
    await schema?.drop();
  });

  it.skipIf(postgres && !TEST_DATABASE_URL)(
    'an assignment DM: completed in the web app, within one poll its card says completed, with Reopen and no Complete',
    async () => {
      const a = await priyasAction('Turn Mrs Khan every two hours');
      const before = seen(dmOf('priya', 'assignment', a.id), 'priya');
      expect(before).toContain(`You were assigned action #${a.no} in the care system`);
      expect(before).toContain('[Complete]');

      await later();
      await h.control(`actions/${a.id}/complete`, {});
      await later();
      await poll(h);

      const dm = dmOf('priya', 'assignment', a.id)!;
      const now = seen(dm, 'priya');
      expect(now).toContain(`You were assigned action #${a.no} in the care system`); // the headline: what happened, still true
      expect(now).toContain('Completed');
      expect(now).toContain('in the care system');
      expect(now).toContain('[Reopen]');
      expect(now).not.toContain('[Complete]');
      expect(now).not.toContain('Snooze');
      expect(now).toContain('Turn Mrs Khan every two hours'); // her own DM: the task is shown
      // Once per change: the next polls re-read it and edit nothing more.
      await later();
      await poll(h);
      await poll(h);
      expect(updatesOf(dm)).toBe(1);
    },
  );

  it.skipIf(postgres && !TEST_DATABASE_URL)(
    'a change DM: "@sophie completed your action" keeps its headline, its card shows the action reopened in the web app',
    async () => {
      const a = await priyasAction('Order more continence pads');
      expect((await command(h, 'sophie', `/care done ${a.no}`)).text).toContain('by @sophie');
      const first = await h.fake.waitFor(() => dmOf('priya', 'change', a.id), { timeoutMs: 10_000, message: 'no change DM to Priya' });
      expect(seen(first, 'priya')).toContain(`@sophie completed your action #${a.no}`);
      expect(seen(first, 'priya')).toContain('[Reopen]');

      await later();
      await h.control(`actions/${a.id}/reopen`, {});
      await later();
      await poll(h);

      const now = seen(dmOf('priya', 'change', a.id), 'priya');
      expect(now).toContain(`@sophie completed your action #${a.no}`);
      expect(now).toContain('Open');
      expect(now).toContain('[Complete]');
      expect(now).not.toContain('[Reopen]');
    },
  );

  it.skipIf(postgres && !TEST_DATABASE_URL)('a DM "✅ Created." card follows a snooze made in the web app: it shows the new due time', async () => {
    const task = 'Check bedrails for Mrs Patel in room 4';
    await h.driver.slash('amelia', `/care new ${task}`, { dm: true });
    await submitForm('amelia', '14:00');
    const a = await createdBy('amelia', task);
    const card = await h.fake.waitFor(() => h.fake.dms('amelia').find((m) => seen(m, 'amelia').includes('Created.') && seen(m, 'amelia').includes(task)), {
      timeoutMs: 10_000,
      message: 'no Created card in the DM',
    });
    expect(seen(card, 'amelia')).toContain('today at 2:00 PM');
    await recorded('created', a._id);

    await later();
    await h.control(`actions/${a._id}`, { due: new Date(START.getTime() + 8 * HOUR).toISOString() }, 'PATCH'); // 18:00 in London
    await later();
    await poll(h);

    const now = seen(
      h.fake.dms('amelia').find((m) => m.ts === card.ts),
      'amelia',
    );
    expect(now).toContain('Created.');
    expect(now).toContain('today at 6:00 PM');
    expect(now).not.toContain('2:00 PM');
    expect(now).toContain('[Complete]');
    expect(updatesOf(card)).toBe(1);
  });

  it.skipIf(postgres && !TEST_DATABASE_URL)(
    'the creator’s DM "…that you created was completed by @sophie" keeps who completed it when the action is reopened in the web app',
    async () => {
      const task = 'Book the chiropodist for Mr Ahmed';
      await h.driver.slash('amelia', `/care new ${task}`, { dm: true });
      await submitForm('amelia', '16:00');
      const a = await createdBy('amelia', task);
      await recorded('created', a._id);
      await later();
      await h.control(`actions/${a._id}`, { assigned_to: care.priya }, 'PATCH');
      await later();
      await poll(h);
      expect((await command(h, 'sophie', `/care done ${a.action_no}`)).text).toContain('by @sophie');
      const dm = await h.fake.waitFor(() => dmOf('amelia', 'creator', a._id), { timeoutMs: 10_000, message: 'no creator DM to Amelia' });
      expect(seen(dm, 'amelia')).toContain(`Action #${a.action_no} that you created was completed by @sophie`);

      await later();
      await h.control(`actions/${a._id}/reopen`, {});
      await later();
      await poll(h);

      const now = seen(dmOf('amelia', 'creator', a._id), 'amelia');
      expect(now).toContain(`Action #${a.action_no} that you created was completed by @sophie`);
      expect(now).toContain('@priya');
      expect(now).toContain('Open');
      expect(now).toContain('[Complete]');
      expect(now).not.toContain('[Reopen]');
    },
  );

  it.skipIf(postgres && !TEST_DATABASE_URL)(
    'a shortcut’s "Created by @priya" card in a public thread: completed in the web app, it says so, and shows no task text there',
    async () => {
      const task = 'Mrs Patel asked for her glasses to be repaired';
      const msg = h.driver.postAsUser('sophie', '#general', task);
      await h.driver.messageShortcut('priya', 'care_create_from_message', { channel: '#general', ts: msg.ts });
      await submitForm('priya', '15:00');
      const a = await createdBy('priya', task);
      const card = await h.fake.waitFor(() => h.fake.thread('#general', msg.ts)[0], { timeoutMs: 10_000, message: 'no card in the thread' });
      expect(seen(card, 'sophie')).toContain('Created by @priya');
      await recorded('created', a._id);

      await later();
      await h.control(`actions/${a._id}/complete`, {});
      await later();
      await poll(h);

      const now = seen(
        h.fake.thread('#general', msg.ts).find((m) => m.ts === card.ts),
        'sophie',
      );
      expect(now).toContain('Created by @priya');
      expect(now).toContain('Completed');
      expect(now).not.toContain('[Complete]');
      expect(JSON.stringify(h.fake.thread('#general', msg.ts).find((m) => m.ts === card.ts)?.blocks ?? [])).not.toContain('glasses');
    },
  );
});

if (!TEST_DATABASE_URL) it.skip(PG_SKIPPED, () => undefined);
