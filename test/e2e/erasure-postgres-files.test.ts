/**
 * Issue 37, item 4: what PostgreSQL keeps after an erasure and an uninstall, read from its own files. After
 * `/care forget`, and after a plain VACUUM (what autovacuum does), the person's Slack Id is still in the files
 * of the tables the erasure touched; after the command docs/data-protection.md tells a deployer to run (taken
 * from the doc itself), it is in none of them. The same after an uninstall, for the workspace's people, with
 * the doc's command for that. The doc's commands name every table the erasure reads (the store's
 * personRecords) and every table an uninstall empties or rewrites (forget-workspace.ts), so a table added
 * later is not left out. Needs the data directory (the tests run as root beside the server, here and in CI);
 * skipped, with the reason, when it cannot be read.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WORKSPACE_TABLES } from '../../src/store/forget-workspace.js';
import { createTestSchema, TEST_DATABASE_URL, type TestSchema } from '../helpers/pg.js';
import { checkpoint, filesContaining, relationFiles, runInSchema, unreadable } from '../helpers/pg-files.js';
import { deliveryActionId, deliveryKind, poll } from './fixtures/jobs-support.js';
import { urlWithSchema } from './fixtures/spawn-instance.js';
import { careUserIdByEmail, command, type Harness, startHarness, webAppAction } from './harness.js';

const START = new Date('2026-03-10T09:00:00Z');
const SOPHIE = 'U0SOPHIE';
const PRIYA = 'U0PRIYA';
const AMELIA = 'U0AMELIA';

/**
 * A deployer's command, exactly as docs/data-protection.md gives it: the `VACUUM FULL` line under the SQL
 * comment `-- after an erasure` or `-- after an uninstall`, and the tables it names.
 */
async function documentedCommand(when: 'after an erasure' | 'after an uninstall'): Promise<{ line: string; tables: string[] }> {
  const lines = (await readFile(join(import.meta.dirname, '../../docs/data-protection.md'), 'utf8')).split('\n');
  const line = lines[lines.findIndex((l) => l.trim() === `-- ${when}`) + 1];
  const named = line === undefined ? null : /^VACUUM FULL (.+);$/.exec(line);
  if (!line || !named) throw new Error(`docs/data-protection.md gives no VACUUM FULL command ${when}`);
  return { line, tables: named[1]!.split(',').map((t) => t.trim()) };
}

describe.skipIf(!TEST_DATABASE_URL)('what PostgreSQL keeps after an erasure, in its files', () => {
  let h: Harness;
  let schema: TestSchema;
  let why: string | null;

  /** An urgent action made in the care system's web app, and its alert in #care-leads once the poll saw it. */
  async function urgentAlert(task: string) {
    const action = await webAppAction(h, { task, due: new Date(h.now().getTime() + 3 * 3600_000), urgent: true });
    await poll(h);
    const alert = await h.fake.waitFor(() => h.fake.messages('#care-leads').find((m) => deliveryKind(m) === 'urgent' && deliveryActionId(m) === action._id), {
      message: `no urgent alert for ${task}`,
    });
    return { action, alert };
  }

  beforeAll(async () => {
    why = await unreadable(TEST_DATABASE_URL!);
    if (why) return;
    schema = await createTestSchema(TEST_DATABASE_URL!, 'heapfiles');
    h = await startHarness({ startAt: START, sandbox: { seed: 'empty' }, databaseUrl: urlWithSchema(TEST_DATABASE_URL!, schema.name) });
    // Sophie's data, made as people make it.
    expect((await command(h, 'sophie', '/care link')).text).toContain('Linked');
    expect((await command(h, 'priya', '/care link')).text).toContain('Linked');
    expect((await command(h, 'sophie', '/care summary 07:30')).text).toMatch(/07:30/);
    expect((await command(h, 'amelia', `/care digest here 08:30 <@${SOPHIE}>`)).text).toMatch(/digest/i);
    expect((await command(h, 'amelia', '/care digest here urgent-only', { channel: '#care-leads' })).text).toMatch(/digest/i);
    await poll(h);
    await webAppAction(h, {
      task: 'Restock the trolley',
      due: new Date(START.getTime() + 3 * 3600_000),
      assigned_to: await careUserIdByEmail(h, h.driver.user('sophie').profile.email!),
    });
    await poll(h);
    await h.fake.waitFor(() => h.fake.dms('sophie').length > 0, { message: "Sophie's assignment DM" });

    // Answers to urgent alerts (issue 33): Sophie can't, with a note, and marks it as two staff' work; Priya is on another.
    const fall = await urgentAlert('Mr Grant needs help to stand');
    await h.driver.clickButton('sophie', { channel: '#care-leads', ts: fall.alert.ts, text: 'I can’t' });
    await h.driver.modal('sophie').fill('Why?', 'on break').fill('Note', 'Helping in room 4').submit();
    expect((await command(h, 'sophie', `/care two-staff ${fall.action.action_no} on`)).text).toContain('needs two staff');
    const dressing = await urgentAlert('Mrs Whitfield needs her dressing changed');
    await h.driver.clickButton('priya', { channel: '#care-leads', ts: dressing.alert.ts, text: 'I’m on it' });
    await h.driver.modal('priya').fill('Note', 'Going to room 2 now').submit();
    await h.fake.waitFor(
      async () =>
        (await h.app.store.listEpisodeAnswers(h.fake.teamId, dressing.action._id)).length &&
        (await h.app.store.listEpisodeAnswers(h.fake.teamId, fall.action._id)).length
          ? true
          : undefined,
      { message: 'the answers' },
    );
  }, 60_000);
  afterAll(async () => {
    await h?.close();
    await schema?.drop();
  });

  it('keeps the Id in the tables’ files after the erasure and a plain VACUUM; the documented VACUUM FULL leaves it in none', async (ctx) => {
    if (why) ctx.skip(`cannot read PostgreSQL's files: ${why}`);
    const url = TEST_DATABASE_URL!;
    const { line: cmd, tables: named } = await documentedCommand('after an erasure');
    // Every table an erasure reads and may change (the store's export of a person, table by table) is named.
    const records = await h.app.store.personRecords(SOPHIE);
    expect(named).toEqual(expect.arrayContaining(Object.keys(records)));
    expect(records.episode_answers).toHaveLength(1);
    expect(records.action_marks).toHaveLength(1);

    await command(h, 'amelia', `/care forget <@${SOPHIE}>`);
    await h.driver.clickButton('amelia', { ephemeral: true, channel: '#care-team', text: `Forget ${h.driver.user('sophie').real_name}` });
    await h.fake.waitFor(() => h.fake.ephemerals('amelia').find((e) => e.text.startsWith('Done:')), { message: 'the erasure' });

    const files = (await relationFiles(url, schema.name)).filter((f) => named.includes(f.table));
    // Every table the command names is one of the app's, and a heap file of each is read.
    expect(new Set(files.map((f) => f.table))).toEqual(new Set(named));

    await checkpoint(url);
    const afterErasure = await filesContaining(files, SOPHIE);
    expect(afterErasure.length).toBeGreaterThan(0);

    // What autovacuum does: the space is marked free, the old row versions' bytes stay.
    await runInSchema(url, schema.name, [`VACUUM ${named.join(', ')};`]);
    await checkpoint(url);
    const afterVacuum = await filesContaining(files, SOPHIE);
    expect(afterVacuum.length, `plain VACUUM: ${afterVacuum.map((f) => f.relation).join(', ')}`).toBeGreaterThan(0);

    // The deployer's command: each table and its indexes rewritten into new files, the old ones deleted.
    await runInSchema(url, schema.name, [cmd]);
    await checkpoint(url);
    const rewritten = (await relationFiles(url, schema.name)).filter((f) => named.includes(f.table));
    expect(await filesContaining(rewritten, SOPHIE)).toEqual([]);
    // Nor in any other table of the app's schema.
    expect((await filesContaining(await relationFiles(url, schema.name), SOPHIE)).map((f) => f.relation)).toEqual([]);
  }, 60_000);

  it('keeps the workspace’s people’s Ids in the files after an uninstall; the documented VACUUM FULL for it leaves them in none', async (ctx) => {
    if (why) ctx.skip(`cannot read PostgreSQL's files: ${why}`);
    const url = TEST_DATABASE_URL!;
    const { line: cmd, tables: named } = await documentedCommand('after an uninstall');
    // Every table an uninstall empties of the workspace's rows, and the audit it rewrites, is named.
    expect(named).toEqual(expect.arrayContaining([...WORKSPACE_TABLES, 'audit_log']));
    const people = [AMELIA, PRIYA];
    const all = () => relationFiles(url, schema.name);
    await checkpoint(url);
    for (const id of people) expect(await filesContaining(await all(), id), id).not.toEqual([]);

    const answers = await h.driver.uninstall();
    expect(answers.every((a) => a.acked)).toBe(true);
    await h.fake.waitFor(async () => (await h.app.store.listAudit({ verb: 'workspace.uninstalled' })).length > 0, { message: 'the uninstall' });

    // Deleted (the audit rewritten), the rows' old versions stay in the files until the tables are rewritten.
    await checkpoint(url);
    const left = new Set<string>();
    for (const id of people) for (const f of await filesContaining(await all(), id)) left.add(f.table);
    expect([...left]).toEqual(expect.arrayContaining(['episode_answers']));

    await runInSchema(url, schema.name, [cmd]);
    await checkpoint(url);
    for (const id of people)
      expect(
        (await filesContaining(await all(), id)).map((f) => f.relation),
        id,
      ).toEqual([]);
  }, 60_000);
});
