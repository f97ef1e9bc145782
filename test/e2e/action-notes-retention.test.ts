/**
 * Notes are task text (issue 33): the post-retention rule deletes an action's notes with its messages, and a
 * person's erasure (`/care forget`) deletes the notes they wrote and leaves no row of any table with their Id or
 * their note's words; on SQLite and PostgreSQL. A note on an action still open is kept until its time comes.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SQLITE_FILE_NAME } from '../../src/store/index.js';
import { postgresRaw, rowsNaming, type RawQuery, sqliteRaw } from '../helpers/db-scan.js';
import { createTestSchema, TEST_DATABASE_URL, type TestSchema } from '../helpers/pg.js';
import { poll } from './fixtures/jobs-support.js';
import { urlWithSchema } from './fixtures/spawn-instance.js';
import { command, linkDirectly, startHarness, webAppAction, type Harness } from './harness.js';

const START = new Date('2026-11-24T09:00:00Z');
const SOPHIE = 'U0SOPHIE';
const PRIYAS_NOTE = 'Gave Mrs Halloran her eye drops, both eyes';
const SOPHIES_NOTE = 'Will do Mr Okafor transfer after lunch';

const DATABASES = [
  ['SQLite', 'sqlite'],
  ['PostgreSQL', 'postgres'],
] as const;

describe.each(DATABASES)('notes, retention and erasure on %s', (_name, kind) => {
  const skip = kind === 'postgres' && !TEST_DATABASE_URL;
  let h: Harness;
  let raw: RawQuery;
  let schema: TestSchema | undefined;
  let dataDir: string | undefined;
  const care: Record<string, string> = {};
  const naming = (value: string) => rowsNaming(kind, raw, value, schema?.name);
  const notesOf = (id: string) => h.app.store.listNotes(h.fake.teamId, [id]);

  beforeAll(async () => {
    if (skip) return;
    if (kind === 'postgres') {
      schema = await createTestSchema(TEST_DATABASE_URL!, 'notes');
      h = await startHarness({ startAt: START, sandbox: { seed: 'empty' }, databaseUrl: urlWithSchema(TEST_DATABASE_URL!, schema.name), retentionDays: 0 });
      raw = postgresRaw(TEST_DATABASE_URL!, schema.name);
    } else {
      dataDir = await mkdtemp(join(tmpdir(), 'care-notes-'));
      h = await startHarness({ startAt: START, sandbox: { seed: 'empty' }, dataDir, retentionDays: 0 });
      raw = sqliteRaw(join(dataDir, SQLITE_FILE_NAME));
    }
    for (const person of ['sophie', 'priya']) care[person] = await linkDirectly(h, person);
    await poll(h);
  }, 60_000);
  afterAll(async () => {
    await h?.close();
    await schema?.drop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it.skipIf(skip)('retention (0 days) deletes a completed action’s notes with its messages; an open action’s note stays', async () => {
    await h.setTime(new Date('2026-11-24T10:00:00Z'));
    const done = await webAppAction(h, { task: 'Eye drops, room 3', due: new Date('2026-11-24T12:00:00Z'), assigned_to: care.priya! });
    expect((await command(h, 'priya', `/care done ${done.action_no} ${PRIYAS_NOTE}`)).text).toContain('Your note is kept');
    expect((await notesOf(done._id)).map((n) => n.text)).toEqual([PRIYAS_NOTE]);
    await h.setTime(new Date('2026-11-24T10:05:00Z'));
    await poll(h); // the poll sees the completion: retention's clock starts
    const run = await h.app.jobs.runOnce('retention');
    expect(run.ran).toBe(true);
    expect(await notesOf(done._id)).toEqual([]);
    expect(await naming('Halloran')).toEqual([]);
    // History says nothing of it any more (the completion itself stays).
    const history = await h.app.deps.history.of({ userId: 'U0PRIYA' }, done._id);
    expect(history.entries.map((e) => e.verb)).toContain('action.complete');
    expect(history.entries.some((e) => e.verb === 'note')).toBe(false);
  });

  it.skipIf(skip)('`/care forget @sophie` deletes her notes: no row of any table holds her Id or her note’s words', async () => {
    await h.setTime(new Date('2026-11-24T11:00:00Z'));
    const open = await webAppAction(h, { task: 'Hoist transfer', due: new Date('2026-11-24T15:00:00Z') });
    await h.app.deps.notes.addNote({ userId: SOPHIE }, { actionId: open._id, verb: 'take', text: SOPHIES_NOTE });
    await h.app.deps.notes.addNote({ userId: 'U0PRIYA' }, { actionId: open._id, verb: 'take', text: `asked <@${SOPHIE}> to help` });
    await h.app.jobs.runOnce('retention'); // open: its notes stay
    expect((await notesOf(open._id)).map((n) => n.text)).toEqual([SOPHIES_NOTE, `asked <@${SOPHIE}> to help`]);
    const question = await command(h, 'amelia', `/care forget <@${SOPHIE}>`);
    expect(question.text).toContain('1 note they wrote on an action');
    await h.driver.clickButton('amelia', { ephemeral: true, channel: '#care-team', text: `Forget ${h.driver.user('sophie').real_name}` });
    const done = await h.fake.waitFor(() => h.fake.ephemerals('amelia').find((e) => e.text.startsWith('Done:')), { message: 'the erasure' });
    expect(done.text).toContain('1 note');
    expect(await naming(SOPHIE)).toEqual([]);
    expect(await naming('Okafor')).toEqual([]);
    // Priya's note stays, with the erasure's token where it named her.
    expect((await notesOf(open._id)).map((n) => n.text)).toEqual(['asked <@erased-1> to help']);
  });
});
