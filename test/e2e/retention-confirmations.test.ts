/**
 * Retention covers the form's confirmations too (issue 32, item 7): the "✅ Created." (and "✅ Updated.") card in
 * the creator's DM and the "Created by @…" card a message shortcut posts in the thread carry the task and a live Complete
 * button; 31 days after the action is completed (the default 30 days of retention) they read the same neutral
 * line as every other post about it, with no buttons, each edited once. On SQLite and PostgreSQL.
 * Clock: Tuesday 10 March 2026, 09:00 UTC = 09:00 in London (GMT).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { FakeMessage } from '../../dev/slack-fake/index.js';
import type { ComposedApp } from '../../src/compose.js';
import { redactedMessage } from '../../src/slack/views/redacted.js';
import { createTestSchema, PG_SKIPPED, TEST_DATABASE_URL } from '../helpers/pg.js';
import { poll } from './fixtures/jobs-support.js';
import { urlWithSchema } from './fixtures/spawn-instance.js';
import { linkDirectly, startHarness, type Harness } from './harness.js';

const START = new Date('2026-03-10T09:00:00Z');
const DAY = 86_400_000;

const hasButtons = (m: FakeMessage) => JSON.stringify(m.blocks ?? []).includes('"button"');
const later = (h: Harness, ms = 5_000) => h.setTime(new Date(h.now().getTime() + ms));

async function retention(app: ComposedApp): Promise<{ actions: number; edited: number; left: number }> {
  const run = await app.jobs.runOnce('retention');
  if (!run.ran) throw new Error(`the retention job did not run (${run.skipped})`);
  return run.result as { actions: number; edited: number; left: number };
}

/** The action the person created through Slack with this task (from the audit and the care system). */
async function createdBy(h: Harness, user: string, task: string): Promise<{ _id: string; action_no: string }> {
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

async function submitForm(h: Harness, user: string): Promise<void> {
  await h.fake.waitFor(() => (h.fake.openModal(user)?.view.callback_id === 'care_action_modal' ? true : undefined), { timeoutMs: 10_000 });
  expect((await h.driver.modal(user).fill('Due time', '14:00').submit()).outcome).toBe('closed');
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => undefined);
});

const DATABASES = [
  ['SQLite', false],
  ['PostgreSQL', true],
] as const;

describe.each(DATABASES)('the form’s confirmations under retention on %s', (_name, postgres) => {
  it.skipIf(postgres && !TEST_DATABASE_URL)(
    'the creator’s DM "Created." card and a shortcut’s thread card read the neutral line, without buttons, 31 days after completion',
    async () => {
      let databaseUrl: string | undefined;
      if (postgres) {
        const schema = await createTestSchema(TEST_DATABASE_URL!, 'retention_confirm');
        cleanups.push(() => schema.drop());
        databaseUrl = urlWithSchema(schema.url, schema.name);
      }
      const h = await startHarness({ startAt: START, sandbox: { seed: 'empty' }, ...(databaseUrl ? { databaseUrl } : {}) });
      cleanups.push(() => h.close());
      await linkDirectly(h, 'amelia');
      await linkDirectly(h, 'priya');
      await poll(h); // the first look

      // Amelia types /care new in her DM with the app: the confirmation is a card in that DM.
      const dmTask = 'Check bedrails for Mrs Patel in room 4';
      await h.driver.slash('amelia', `/care new ${dmTask}`, { dm: true });
      await submitForm(h, 'amelia');
      const inDm = await createdBy(h, 'amelia', dmTask);
      const dmCard = await h.fake.waitFor(() => h.fake.dms('amelia').find((m) => h.fake.visibleText(m, { viewer: 'amelia' }).includes('Created.')), {
        timeoutMs: 10_000,
        message: 'no Created card in the DM',
      });
      const dmSeen = h.fake.visibleText(dmCard, { viewer: 'amelia' });
      expect(dmSeen).toContain(dmTask);
      expect(dmSeen).toContain('[Complete]');

      // She edits it from her Home tab: the "Updated." card comes to her DM too.
      await h.driver.openHome('amelia');
      await h.fake.waitFor(() => (JSON.stringify(h.fake.home('amelia') ?? {}).includes('bedrails') ? true : undefined), { timeoutMs: 10_000 });
      await h.driver.clickButton('amelia', { home: true, text: 'Edit' });
      await h.fake.waitFor(() => (h.fake.openModal('amelia')?.view.callback_id === 'care_action_modal' ? true : undefined), { timeoutMs: 10_000 });
      expect((await h.driver.modal('amelia').fill('Due time', '15:00').submit()).outcome).toBe('closed');
      const updatedCard = await h.fake.waitFor(() => h.fake.dms('amelia').find((m) => h.fake.visibleText(m, { viewer: 'amelia' }).includes('Updated.')), {
        timeoutMs: 10_000,
        message: 'no Updated card in the DM',
      });
      expect(h.fake.visibleText(updatedCard, { viewer: 'amelia' })).toContain(dmTask);

      // Priya makes one from a message in #care-team: the confirmation is a card in its thread.
      const threadTask = 'Mrs Patel asked for her glasses to be repaired';
      const msg = h.driver.postAsUser('sophie', '#care-team', threadTask);
      await h.driver.messageShortcut('priya', 'care_create_from_message', { channel: '#care-team', ts: msg.ts });
      await submitForm(h, 'priya');
      const inThread = await createdBy(h, 'priya', threadTask);
      const threadCard = await h.fake.waitFor(() => h.fake.thread('#care-team', msg.ts)[0], { timeoutMs: 10_000, message: 'no card in the thread' });
      expect(h.fake.visibleText(threadCard, { viewer: 'priya' })).toContain('Created by @priya');
      expect(hasButtons(threadCard)).toBe(true);

      // Both are completed in the care system's web app; the poll sees it.
      await later(h);
      await h.control(`actions/${inDm._id}/complete`, {});
      await h.control(`actions/${inThread._id}/complete`, {});
      await later(h);
      await poll(h);
      const completedAt = h.now().getTime();

      // 29 days on, nothing is edited yet.
      await h.setTime(new Date(completedAt + 29 * DAY));
      await retention(h.app);
      expect(h.fake.dms('amelia').find((m) => m.ts === dmCard.ts)!.text).not.toBe(redactedMessage({ actionId: inDm._id, actionNo: inDm.action_no }).text);

      // 31 days on: both read the neutral line, with no task text and no buttons, edited once each by retention
      // (the completion itself drew them again as completed, once: post-redraw.ts).
      const okUpdates = (ts: string) => h.fake.calls('chat.update').filter((c) => c.result.ok === true && c.args.ts === ts).length;
      const before = new Map([dmCard, updatedCard, threadCard].map((m) => [m.ts, okUpdates(m.ts)]));
      await h.setTime(new Date(completedAt + 31 * DAY));
      await retention(h.app);
      await retention(h.app);
      const nowDm = h.fake.dms('amelia').find((m) => m.ts === dmCard.ts)!;
      const nowUpdated = h.fake.dms('amelia').find((m) => m.ts === updatedCard.ts)!;
      const nowThread = h.fake.thread('#care-team', msg.ts).find((m) => m.ts === threadCard.ts)!;
      for (const [m, a, task] of [
        [nowDm, inDm, dmTask],
        [nowUpdated, inDm, dmTask],
        [nowThread, inThread, threadTask],
      ] as const) {
        expect.soft(m.text).toBe(`Action #${a.action_no} — completed; details in the care system`);
        expect(JSON.stringify(m.blocks ?? [])).not.toContain(task);
        expect(hasButtons(m)).toBe(false);
        expect(okUpdates(m.ts) - before.get(m.ts)!).toBe(1);
      }
      // The person who saw the thread card sees the neutral line too.
      expect(h.fake.visibleText(nowThread, { viewer: 'sophie' })).not.toContain('glasses');
    },
    60_000,
  );
});

if (!TEST_DATABASE_URL) it.skip(PG_SKIPPED, () => undefined);
