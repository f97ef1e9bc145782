/**
 * A deployment of one workspace upgraded in place: its database was written while its workspace was known as
 * `''` (home settings, notes, completions), `'single'` (job state) and bare cursor names (the poll's position,
 * the app's first look). Started again, it learns its Slack team (auth.test), binds it and reads all of it
 * under the team: the shifts set are kept, the poll resumes from its old position (an action assigned while it
 * was stopped is news to its assignee; were the cursors lost, the app would take a fresh first look and say
 * nothing), and the admins told of a trouble episode are told once that it ended.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS, openStore } from '../../src/store/index.js';
import { deliveryActionId, deliveryKind, poll } from './fixtures/jobs-support.js';
import { onPostgres } from './fixtures/on-postgres.js';
import { command, linkDirectly, startHarness, webAppAction, type Harness } from './harness.js';

const START = new Date('2026-03-10T09:00:00Z');
const HOUR = 3_600_000;
const SHIFTS = [
  { name: 'Early', start: '07:00', end: '15:00' },
  { name: 'Late', start: '15:00', end: '07:00' },
];

function startedOnOldKeys(label: string, database: () => { databaseUrl?: string }) {
  describe(`a deployment of one started on a database kept under the old keys (${label})`, () => {
    let h: Harness;
    let dataDir: string;

    beforeAll(async () => {
      dataDir = await mkdtemp(join(tmpdir(), 'care-old-keys-'));
      const { databaseUrl } = database();
      // What the deployment kept before this release (the schema before migration 016, the old keys).
      const at = START.getTime() - 2 * HOUR;
      const old = await openStore({ dataDir, databaseUrl, migrations: MIGRATIONS.slice(0, 15), clock: () => at });
      await old.setHomeSetting('', 'shifts', JSON.stringify(SHIFTS), 'U0AMELIA');
      await old.setCursor('first-look', new Date(START.getTime() - HOUR).toISOString());
      await old.setCursor('changes-poll', new Date(START.getTime() - HOUR).toISOString());
      await old.addNote('', { actionId: 'act-old', verb: 'complete', slackUserId: 'U0OLIVER', careUserId: null, text: 'Bloods taken' });
      await old.noteCompletion('', 'act-old', { actionNo: '7', completedAt: at });
      // The poll failed while the care system was down; the admins were told; its backoff has run out.
      await old.recordJobFailure('single', { kind: 'changes-poll', at, reason: 'care API down', backoff: [60_000], teller: 'old', tellForMs: 30_000 });
      expect(await old.markJobTroubleTold('single', 'old', at)).toBe(true);
      await old.close();

      h = await startHarness({ startAt: START, sandbox: { seed: 'empty' }, dataDir, databaseUrl });
    });
    afterAll(async () => {
      await h?.close();
      await rm(dataDir, { recursive: true, force: true });
    });

    it('binds the bot token’s team, and keeps the shifts set before', async () => {
      expect(h.app.teamId).toBe(h.fake.teamId);
      expect(await h.app.store.singleWorkspace()).toMatchObject({ teamId: h.fake.teamId });
      const reply = await command(h, 'sophie', '/care shifts');
      expect(reply.text).toContain('Early 07:00–15:00, Late 15:00–07:00');
      expect(reply.text).not.toContain('(the default)');
    });

    it('the poll resumes from its old position: an action assigned while it was stopped is news to its assignee', async () => {
      const careOliver = await linkDirectly(h, 'oliver');
      const action = await webAppAction(h, { task: 'Turn Mr Okafor at 11', due: new Date(START.getTime() + 2 * HOUR), assigned_to: careOliver });
      await poll(h);
      const dms = await h.fake.waitFor(
        () => {
          const mine = h.fake.dms('oliver').filter((m) => deliveryKind(m) === 'assignment' && deliveryActionId(m) === action._id);
          return mine.length ? mine : undefined;
        },
        { timeoutMs: 10_000, message: 'Oliver was not told of the action assigned to him' },
      );
      expect(dms).toHaveLength(1);
      expect(h.fake.visibleText(dms[0]!, { viewer: 'oliver' })).toContain('Turn Mr Okafor at 11');
    });

    it('the trouble episode kept under the old id ends with one message to the admins', async () => {
      const recovered = () => h.fake.dms('amelia').filter((m) => (m.text ?? '').includes('Care Actions works with your care system again'));
      await h.fake.waitFor(() => (recovered().length ? true : undefined), { timeoutMs: 10_000, message: 'the admins were not told it works again' });
      await poll(h);
      expect(recovered()).toHaveLength(1);
      expect(await h.app.store.readJobState(h.fake.teamId)).toMatchObject({ episode: null });
    });

    it('its notes and completions are the workspace’s', async () => {
      expect((await h.app.store.listNotes(h.fake.teamId, ['act-old'])).map((n) => n.text)).toEqual(['Bloods taken']);
      expect((await h.app.store.dueRedactions(h.fake.teamId, START.getTime())).map((c) => c.actionNo)).toEqual(['7']);
      expect(await h.app.store.listNotes('', ['act-old'])).toEqual([]);
    });
  });
}

startedOnOldKeys('SQLite', () => ({}));

onPostgres('old_keys', (store) => startedOnOldKeys('PostgreSQL', store));
