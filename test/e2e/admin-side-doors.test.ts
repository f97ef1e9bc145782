/**
 * Issue 37, item 1: `/care forget` cannot demote admins. An added admin forgetting the first installer, or
 * another added admin, is refused with nothing changed; a Slack workspace admin may forget an admin, and then
 * the audit says so in a row of its own (`admin.removed`, by whom, the person as the erasure's token) and the
 * workspace's admins are told once by DM. `/care admins add` and `remove` write `admin.added` and
 * `admin.removed` and tell the admins once too. Many workspaces, on SQLite and on PostgreSQL.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SQLITE_FILE_NAME } from '../../src/store/index.js';
import { postgresRaw, type RawQuery, rowsNaming, sqliteRaw } from '../helpers/db-scan.js';
import { createTestSchema, TEST_DATABASE_URL } from '../helpers/pg.js';
import { urlWithSchema } from './fixtures/spawn-instance.js';
import { careCommand, installBoth, startMultiHarness } from './multi-harness.js';

const CARE = 'T0CARE';
const AMELIA = 'U0AMELIA';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.reverse()) await c();
  cleanups.length = 0;
});

async function database(kind: 'sqlite' | 'postgres'): Promise<{ raw: RawQuery; schema?: string; options: { dataDir?: string; databaseUrl?: string } }> {
  if (kind === 'postgres') {
    const schema = await createTestSchema(TEST_DATABASE_URL!, 'admindoors');
    cleanups.push(() => schema.drop());
    return { raw: postgresRaw(TEST_DATABASE_URL!, schema.name), schema: schema.name, options: { databaseUrl: urlWithSchema(TEST_DATABASE_URL!, schema.name) } };
  }
  const dataDir = await mkdtemp(join(tmpdir(), 'care-admin-doors-'));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  return { raw: sqliteRaw(join(dataDir, SQLITE_FILE_NAME)), options: { dataDir } };
}

function scenario(kind: 'sqlite' | 'postgres') {
  it('an added admin cannot forget the installer or another admin; a Slack admin can, and the audit and the admins say so once', async () => {
    const db = await database(kind);
    const h = await startMultiHarness(db.options);
    cleanups.push(() => h.close());
    await installBoth(h);
    const care = h.fake.workspace(CARE);
    // Amelia is a member who installed the app, not a Slack admin of the workspace: her admin rights are the app's.
    Object.assign(care.state.users.find((u) => u.id === AMELIA)!, { is_admin: false, is_owner: false, is_primary_owner: false });
    const say = (user: string, line: string) => careCommand(h, CARE, user, line);
    /** The DMs a person got about admin changes, as they read them. */
    const adminDms = (user: string) =>
      care
        .dms(user)
        .map((m) => care.visibleText(m, { viewer: user }))
        .filter((t) => t.startsWith(':key:'));

    // Amelia installed the app; she adds Sophie, then Oliver. Each change has its own audit row and is told once.
    expect(await say('amelia', 'admins add <@U0SOPHIE>')).toMatch(/is now a Care Actions admin here/);
    await care.waitFor(() => adminDms('sophie').length === 1, { message: "Sophie's DM" });
    expect(adminDms('sophie')).toEqual([
      ':key: @amelia made @sophie a Care Actions admin here (/care admins add). It is in the audit log; /care admins shows who the admins are now.',
    ]);
    expect(await say('amelia', 'admins add <@U0OLIVER>')).toMatch(/is now a Care Actions admin here/);
    await care.waitFor(() => adminDms('oliver').length === 1 && adminDms('sophie').length === 2, { message: 'the second change told' });
    expect(adminDms('amelia')).toEqual([]);
    expect((await h.app.store.listAudit({ teamId: CARE, verb: 'admin.added' })).map((a) => [a.userId, a.details.slackUserId])).toEqual([
      [AMELIA, 'U0OLIVER'],
      [AMELIA, 'U0SOPHIE'],
    ]);

    // Sophie, an added admin, tries the side door: refused, nothing changed.
    expect(await say('sophie', 'forget <@U0AMELIA>')).toContain(
      '@amelia is an admin as someone who first installed Care Actions; that cannot be removed here, so they cannot be forgotten here either. Only a Slack workspace admin or owner can forget them. Nothing was changed.',
    );
    expect(await say('sophie', 'forget <@U0OLIVER>')).toContain(
      '@oliver is a Care Actions admin here: remove them as an admin first (/care admins remove @person), then forget them. Nothing was changed.',
    );
    expect(await say('sophie', 'admins')).toMatch(/@amelia \(first installed Care Actions\)[\s\S]*@oliver \(added/);
    expect(await say('amelia', 'settings timezone Europe/Dublin')).toMatch(/time zone is now/);
    expect(await h.app.store.listAudit({ teamId: CARE, verb: 'person.erased' })).toEqual([]);

    // Priya is a Slack workspace admin: she may forget Amelia, and is told first that it takes her admin rights away.
    Object.assign(care.state.users.find((u) => u.id === 'U0PRIYA')!, { is_admin: true });
    expect(await say('priya', 'forget <@U0AMELIA>')).toContain(
      'They are a Care Actions admin (they first installed it): forgetting them takes that away too, and the admins will be told.',
    );
    const label = /"text":"(Forget [^"]+)"/.exec(JSON.stringify(care.ephemerals('priya').at(-1)?.blocks ?? []))?.[1];
    await h.team(CARE).clickButton('priya', { ephemeral: true, channel: '#care-team', text: label! });
    await care.waitFor(() => care.ephemerals('priya').some((e) => e.text.startsWith('Done:')), { message: 'the erasure' });

    const removed = await h.app.store.listAudit({ teamId: CARE, verb: 'admin.removed' });
    expect(removed).toHaveLength(1);
    expect(removed[0]).toMatchObject({ userId: 'U0PRIYA', details: { slackUserId: 'erased-1', was: 'installer', through: 'forget' } });
    const told =
      ':key: @priya, a Slack workspace admin, erased a person’s data here with /care forget. That person was a Care Actions admin (they first installed Care Actions) and no longer is. It is in the audit log; /care admins shows who the admins are now. The audit keeps the change without their name.';
    await care.waitFor(() => adminDms('sophie').length === 3 && adminDms('oliver').length === 2, { message: 'the admins told' });
    expect(adminDms('sophie').at(-1)).toBe(told);
    expect(adminDms('oliver').at(-1)).toBe(told);
    expect(adminDms('priya')).toEqual([]);

    // Amelia is no admin any more, and nothing names her: no DM to her, no ledger row.
    expect(await say('sophie', 'admins')).not.toMatch(/first installed|erased/);
    expect(await say('amelia', 'settings timezone Europe/London')).toMatch(/Only this workspace's Care Actions admins/);
    expect(await rowsNaming(kind, db.raw, AMELIA, db.schema)).toEqual([]);

    // Oliver removed with the command: its own audit row, and he and Sophie are told once.
    expect(await say('sophie', 'admins remove <@U0OLIVER>')).toMatch(/no longer a Care Actions admin/);
    await care.waitFor(() => adminDms('oliver').length === 3, { message: 'Oliver told' });
    expect(adminDms('oliver').at(-1)).toBe(
      ':key: @sophie removed @oliver as a Care Actions admin here (/care admins remove). It is in the audit log; /care admins shows who the admins are now.',
    );
    expect(await h.app.store.listAudit({ teamId: CARE, verb: 'admin.removed' })).toHaveLength(2);
    expect(adminDms('sophie')).toHaveLength(3);
  }, 120_000);
}

describe('admin rights without side doors, SQLite', () => scenario('sqlite'));
describe.skipIf(!TEST_DATABASE_URL)('admin rights without side doors, PostgreSQL', () => scenario('postgres'));
