/**
 * Issue 35, erasure that leaves nothing: after `/care forget @person` (confirmed) and after an uninstall, no byte
 * of SQLite's files (the main file with its free pages, the write-ahead log `-wal`, its index `-shm`: every file
 * of DATA_DIR) holds the person's or the workspace's people's Slack Ids, read while the app is still running.
 * Before the fix the erased rows' old page images stayed in the WAL and their bytes in the pages' free space.
 * PostgreSQL's part: no row names them (test/e2e/person-data.test.ts, test/e2e/uninstall-data.test.ts) and its
 * own files after the documented VACUUM FULL (test/e2e/erasure-postgres-files.test.ts).
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SQLITE_FILE_NAME, workspaceKey } from '../../src/store/index.js';
import { rowsNaming, sqliteRaw } from '../helpers/db-scan.js';
import { poll } from './fixtures/jobs-support.js';
import { careUserIdByEmail, command, startHarness, webAppAction } from './harness.js';
import { careCommand, installBoth, startMultiHarness } from './multi-harness.js';

const START = new Date('2026-03-10T09:00:00Z');
const SOPHIE = 'U0SOPHIE';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.reverse()) await c();
  cleanups.length = 0;
});

async function dataDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'care-erasure-files-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** The value as SQLite could store it: UTF-8 (this database's encoding), and UTF-16 either way round. */
function encodings(value: string): Buffer[] {
  const le = Buffer.from(value, 'utf16le');
  const be = Buffer.from(le).swap16();
  return [Buffer.from(value, 'utf8'), le, be];
}

/** Every file of the data directory (database, `-wal`, `-shm`, anything else) whose bytes contain the value. */
async function filesHolding(dir: string, value: string): Promise<string[]> {
  const found: string[] = [];
  for (const name of (await readdir(dir)).sort()) {
    const bytes = await readFile(join(dir, name));
    if (encodings(value).some((needle) => bytes.includes(needle))) found.push(name);
  }
  return found;
}

describe('SQLite’s files after an erasure and an uninstall', () => {
  it('/care forget: no file of the database (main file, free pages, WAL, shm) holds the person’s Slack Id, byte for byte', async () => {
    const dir = await dataDir();
    const h = await startHarness({ startAt: START, sandbox: { seed: 'empty' }, dataDir: dir });
    cleanups.push(() => h.close());
    const team = h.fake.teamId;
    // Sophie's data, made as people make it...
    expect((await command(h, 'sophie', '/care link')).text).toContain('Linked');
    expect((await command(h, 'sophie', '/care summary 07:30')).text).toMatch(/07:30/);
    expect((await command(h, 'amelia', `/care digest here 08:30 <@${SOPHIE}>`)).text).toMatch(/digest/i);
    await poll(h);
    await h.setTime(new Date(h.now().getTime() + 5_000));
    await webAppAction(h, {
      task: 'Restock the dressing trolley',
      due: new Date(START.getTime() + 3 * 3600_000),
      assigned_to: await careUserIdByEmail(h, h.driver.user('sophie').profile.email!),
    });
    await poll(h);
    await h.fake.waitFor(() => h.fake.dms('sophie').some((m) => /assigned/i.test(h.fake.visibleText(m, { viewer: 'sophie' }))), {
      timeoutMs: 10_000,
      message: "Sophie's assignment DM",
    });
    // ...and in the other tables an erasure rewrites: a route she set up, a link request, a home setting, her Home tab's place.
    await h.app.store.upsertRoute({ teamId: team, groupId: 'g-night', groupName: 'Night staff', channelId: 'C0CARE', setUpBy: SOPHIE });
    await h.app.store.createLinkRequest({ teamId: team, slackUserId: SOPHIE, careUserId: 'care-9', note: 'second account' });
    await h.app.store.setHomeSetting(team, 'escalation', JSON.stringify({ ladder: ['U0OLIVER', SOPHIE] }), SOPHIE);
    await h.app.store.setCursor(workspaceKey(`home-where:${SOPHIE}`, team), 'loc-rose');
    const tables = new Set((await rowsNaming('sqlite', sqliteRaw(join(dir, SQLITE_FILE_NAME)), SOPHIE)).map((r) => r.table));
    expect([...tables].sort()).toEqual(
      expect.arrayContaining([
        'audit_log',
        'channel_subscriptions',
        'deliveries',
        'group_routes',
        'home_settings',
        'identity_links',
        'job_cursors',
        'link_requests',
        'summary_settings',
      ]),
    );
    expect(await filesHolding(dir, SOPHIE)).not.toEqual([]);

    await command(h, 'amelia', `/care forget <@${SOPHIE}>`);
    await h.driver.clickButton('amelia', { ephemeral: true, channel: '#care-team', text: `Forget ${h.driver.user('sophie').real_name}` });
    const done = await h.fake.waitFor(() => h.fake.ephemerals('amelia').find((e) => e.text.startsWith('Done:')), { message: 'the erasure' });
    expect(done.text).toContain(`Done: Care Actions no longer holds anything naming <@${SOPHIE}>.`);

    // Read at once, the app still running (its connection open, the WAL in use).
    expect(await filesHolding(dir, SOPHIE)).toEqual([]);
    expect((await readdir(dir)).sort()).toEqual([SQLITE_FILE_NAME, `${SQLITE_FILE_NAME}-shm`, `${SQLITE_FILE_NAME}-wal`]);
    // The app goes on on the same files: she is a stranger to it again.
    expect((await command(h, 'sophie', '/care whoami')).text).toMatch(/not linked/);
  }, 60_000);

  it('uninstall from a deployment of many: no file of the database holds the workspace’s people’s or bot’s Slack Ids; the other workspace’s are there', async () => {
    const dir = await dataDir();
    const h = await startMultiHarness({ dataDir: dir });
    cleanups.push(() => h.close());
    await installBoth(h);
    for (const [team, admin, other] of [
      ['T0CARE', 'amelia', 'sophie'],
      ['T0SUN', 'erin', 'frank'],
    ] as const) {
      const otherId = h.fake.workspace(team).user(other)!.id;
      const adminId = h.fake.workspace(team).user(admin)!.id;
      await careCommand(h, team, other, 'link');
      await h.app.store.upsertLink({ teamId: team, slackUserId: adminId, careUserId: `care-${admin}`, method: 'admin', linkedBy: adminId });
      expect(await careCommand(h, team, admin, `admins add <@${otherId}>`)).toMatch(/admin/i);
      await careCommand(h, team, admin, 'summary 07:30');
      await careCommand(h, team, admin, `digest here 08:30 <@${otherId}>`);
    }
    expect((await h.app.jobs.tick('changes-poll')).ran).toBe(2);
    // Sunrise's people and its bot, each in the files before.
    const ofSun = ['U0ERIN', 'U0FRANK', 'U0SUNBOT'];
    for (const id of ofSun) expect(await filesHolding(dir, id), id).not.toEqual([]);

    const answers = await h.team('T0SUN').uninstall('T0SUN');
    expect(answers.every((a) => a.acked)).toBe(true);
    await h.fake.waitFor(async () => (await h.app.store.listAudit({ teamId: 'T0SUN', verb: 'workspace.uninstalled' })).length > 0, {
      message: 'the uninstall',
    });

    for (const id of ofSun) expect(await filesHolding(dir, id), id).toEqual([]);
    // Care Home's people are still there (the scan reads what it should), and it goes on.
    expect(await filesHolding(dir, 'U0SOPHIE')).toContain(SQLITE_FILE_NAME);
    expect(await careCommand(h, 'T0CARE', 'amelia', 'summary')).toMatch(/07:30/);
  }, 60_000);

  it('uninstall from a deployment of one: no file of the database holds any of its people’s Slack Ids', async () => {
    const dir = await dataDir();
    const h = await startHarness({ sandbox: { seed: 'empty' }, dataDir: dir });
    cleanups.push(() => h.close());
    expect((await command(h, 'sophie', '/care link')).text).toContain('Linked');
    await command(h, 'sophie', '/care summary 07:30');
    await command(h, 'amelia', `/care digest here 08:30 <@${SOPHIE}>`);
    await command(h, 'visitor', '/care link');
    await poll(h);
    const people = [SOPHIE, 'U0AMELIA', h.driver.user('visitor').id];
    for (const id of people) expect(await filesHolding(dir, id), id).not.toEqual([]);

    const answers = await h.driver.uninstall();
    expect(answers.every((a) => a.acked)).toBe(true);
    await h.fake.waitFor(async () => (await h.app.store.listAudit({ verb: 'workspace.uninstalled' })).length > 0, { message: 'the uninstall' });

    for (const id of people) expect(await filesHolding(dir, id), id).toEqual([]);
  }, 60_000);
});
