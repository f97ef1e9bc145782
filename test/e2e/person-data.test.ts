/**
 * Issue 28, a person's data on request: an admin's `/care export @person` (a JSON file in the admin's own DM)
 * and `/care forget @person` (asked first; Cancel changes nothing; Forget leaves no row of any table naming
 * them), on a real SQLite file and, when TEST_DATABASE_URL is set, on PostgreSQL. The person's data is made
 * the way people make it: linking, a morning summary, a digest naming them, an assignment DM.
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
import { careUserIdByEmail, command, type Harness, startHarness, webAppAction } from './harness.js';
import { careCommand, installBoth, startMultiHarness } from './multi-harness.js';

const START = new Date('2026-03-10T09:00:00Z');
const SOPHIE = 'U0SOPHIE';

interface Db {
  kind: 'sqlite' | 'postgres';
  raw: RawQuery;
  schema?: string;
}

function scenario(kind: 'sqlite' | 'postgres') {
  let h: Harness;
  let db: Db;
  let schema: TestSchema | undefined;
  let dataDir: string | undefined;
  let sophieName: string;
  let sophieEmail: string;
  const naming = (value: string) => rowsNaming(db.kind, db.raw, value, db.schema);

  beforeAll(async () => {
    if (kind === 'postgres') {
      schema = await createTestSchema(TEST_DATABASE_URL!, 'persondata');
      h = await startHarness({ startAt: START, sandbox: { seed: 'empty' }, databaseUrl: urlWithSchema(TEST_DATABASE_URL!, schema.name) });
      db = { kind, schema: schema.name, raw: postgresRaw(TEST_DATABASE_URL!, schema.name) };
    } else {
      dataDir = await mkdtemp(join(tmpdir(), 'care-person-data-'));
      h = await startHarness({ startAt: START, sandbox: { seed: 'empty' }, dataDir });
      db = { kind, raw: sqliteRaw(join(dataDir, SQLITE_FILE_NAME)) };
    }
    const sophie = h.driver.user('sophie');
    sophieName = sophie.profile.real_name ?? '';
    sophieEmail = sophie.profile.email!;
    // Sophie's data, made as people make it.
    expect((await command(h, 'sophie', '/care link')).text).toContain('Linked');
    expect((await command(h, 'sophie', '/care summary 07:30')).text).toMatch(/07:30/);
    expect((await command(h, 'amelia', `/care digest here 08:30 <@${SOPHIE}>`)).text).toMatch(/digest/i);
    await poll(h);
    await h.setTime(new Date(h.now().getTime() + 5_000));
    await webAppAction(h, {
      task: 'Restock the dressing trolley',
      due: new Date(START.getTime() + 3 * 3600_000),
      assigned_to: await careUserIdByEmail(h, sophieEmail),
    });
    await poll(h);
    await h.fake.waitFor(() => h.fake.dms('sophie').some((m) => /assigned/i.test(h.fake.visibleText(m, { viewer: 'sophie' }))), {
      timeoutMs: 10_000,
      message: "Sophie's assignment DM",
    });
  });
  afterAll(async () => {
    await h?.close();
    await schema?.drop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('export: someone not an admin is told so in one sentence and gets no file', async () => {
    const reply = await command(h, 'oliver', `/care export <@${SOPHIE}>`);
    expect(reply.text).toBe(':warning: Only admins can do that. Ask a workspace admin; /care help shows what you can do yourself.');
    expect(h.fake.files({ all: true })).toEqual([]);
  });

  it('export: the admin alone gets a JSON file in their DM with everything held about the person; the channel answer says where it went', async () => {
    const reply = await command(h, 'amelia', `/care export <@${SOPHIE}>`);
    expect(reply.text).toBe(
      'I sent you what Care Actions holds about @sophie as a JSON file, in your direct messages with the app. Only you can see it there.',
    );
    const [file] = await h.fake.waitFor(() => (h.fake.files({ dm: 'amelia' }).length ? h.fake.files({ dm: 'amelia' }) : undefined), {
      message: 'the export file',
    });
    expect(h.fake.files({ all: true })).toHaveLength(1);
    expect(h.fake.files({ dm: 'sophie' })).toEqual([]);
    expect(file!.name).toBe(`care-actions-data-${SOPHIE}-2026-03-10.json`);
    // The DM's text (the lock screen) says nothing of the data.
    const dm = h.fake.dms('amelia').at(-1)!;
    expect(h.fake.visibleText(dm, { viewer: 'amelia' })).toBe(`The data export you asked for is ready.\n[file: ${file!.name}]`);

    const data = JSON.parse(file!.text) as { slackUserId: string; tables: Record<string, Record<string, unknown>[]> };
    expect(data.slackUserId).toBe(SOPHIE);
    const t = data.tables;
    expect(t.identity_links!.map((r) => [r.slack_user_id, r.method])).toEqual([[SOPHIE, 'email']]);
    expect(t.summary_settings!.map((r) => [r.summary_time, r.summary_days])).toEqual([['07:30', 'daily']]);
    expect(t.channel_subscriptions!.map((r) => r.channel_id)).toEqual(['C0CARE']);
    expect(t.deliveries!.map((r) => [r.kind, r.recipient, r.state])).toEqual([['assignment', `user:T0CARE/${SOPHIE}`, 'sent']]);
    expect(t.audit_log!.map((r) => r.verb).sort()).toEqual(['link.email', 'subscription.set', 'summary.set']);
    // No message text is kept, so none is exported; no token either.
    expect(file!.text).not.toMatch(/Restock|xox[bpe]-/);
  });

  it('forget: asks first with what will be deleted; Cancel leaves every row as it was', async () => {
    const before = await naming(SOPHIE);
    expect(before.length).toBeGreaterThan(5);
    const question = await command(h, 'amelia', `/care forget <@${SOPHIE}>`);
    expect(question.text).toContain(
      `Forget @sophie (${sophieName})? This deletes what Care Actions holds about them: 1 link to a care account, 0 link requests, 1 morning summary setting, 1 record of a message sent to them.`,
    );
    expect(question.text).toMatch(/other rows \(the audit of what they did, digests or routes they set up\) will be kept without their name/);
    await h.driver.clickButton('amelia', { ephemeral: true, channel: '#care-team', text: 'Cancel' });
    await h.fake.waitFor(() => h.fake.ephemerals('amelia').some((e) => e.text === 'Cancelled: nothing was deleted.'), { message: 'the cancel' });
    expect(await naming(SOPHIE)).toEqual(before);
    expect((await command(h, 'sophie', '/care whoami')).text).toMatch(/You are linked/);
  });

  it('forget: someone not an admin is refused; an admin cannot forget themselves', async () => {
    expect((await command(h, 'oliver', `/care forget <@${SOPHIE}>`)).text).toMatch(/^:warning: Only admins can do that\./);
    expect((await command(h, 'amelia', '/care forget <@U0AMELIA>')).text).toMatch(/You cannot erase yourself: ask another Care Actions admin to do it\.$/);
  });

  it('forget: "Forget Sophie" leaves no row of any table naming her (Id, name or email); the audit keeps that the admin did it', async () => {
    await command(h, 'amelia', `/care forget <@${SOPHIE}>`);
    await h.driver.clickButton('amelia', { ephemeral: true, channel: '#care-team', text: `Forget ${sophieName}` });
    const done = await h.fake.waitFor(() => h.fake.ephemerals('amelia').find((e) => e.text.startsWith('Done:')), { message: 'the erasure' });
    expect(done.text).toContain(
      `Done: Care Actions no longer holds anything naming <@${SOPHIE}>. Deleted 1 link, 0 link requests, 1 summary setting, 0 remembered choices and 1 message record;`,
    );

    expect(await naming(SOPHIE)).toEqual([]);
    expect(await naming(sophieEmail)).toEqual([]);
    if (sophieName) expect(await naming(sophieName)).toEqual([]);
    const erased = (await h.app.store.listAudit({ verb: 'person.erased' }))[0];
    expect(erased).toMatchObject({ userId: 'U0AMELIA', details: { links: 1, summarySettings: 1, deliveries: 1 } });
    // Her old audit rows are there, under one anonymous token.
    const hers = (await h.app.store.listAudit({ limit: 100 })).filter((a) => a.userId.startsWith('erased-'));
    expect(new Set(hers.map((a) => a.userId))).toEqual(new Set(['erased-1']));
    expect(hers.map((a) => a.verb).sort()).toEqual(['link.email', 'summary.set']);
    // She is a stranger to the app again.
    expect((await command(h, 'sophie', '/care whoami')).text).toMatch(/not linked/);
  });
}

describe('a person’s data on request, SQLite', () => scenario('sqlite'));
describe.skipIf(!TEST_DATABASE_URL)('a person’s data on request, PostgreSQL', () => scenario('postgres'));

describe('a person’s data on request, in a deployment of many workspaces', () => {
  it("an admin's export holds their own workspace's rows only; another workspace's admin exporting the same Id gets nothing of it, and Forget there deletes nothing here", async () => {
    const h = await startMultiHarness();
    try {
      await installBoth(h);
      const care = h.fake.workspace('T0CARE');
      const sun = h.fake.workspace('T0SUN');
      await careCommand(h, 'T0CARE', 'sophie', 'link');
      await h.app.store.upsertSummarySetting({ teamId: 'T0CARE', slackUserId: SOPHIE, time: '07:30', days: 'daily', enabled: true });

      expect(await careCommand(h, 'T0CARE', 'amelia', `export <@${SOPHIE}>`)).toMatch(/as a JSON file, in your direct messages/);
      const [file] = await care.waitFor(() => (care.files({ dm: 'amelia' }).length ? care.files({ dm: 'amelia' }) : undefined), { message: 'the export' });
      const data = JSON.parse(file!.text) as { tables: Record<string, Record<string, unknown>[]> };
      expect(data.tables.summary_settings).toHaveLength(1);
      expect(file!.text).not.toMatch(/T0SUN|U0ERIN|U0FRANK/);

      // Sunrise's owner names the same Slack Id: Sunrise holds nothing of it, and Care Home's rows stay.
      expect(await careCommand(h, 'T0SUN', 'erin', `export <@${SOPHIE}>`)).toMatch(/as a JSON file/);
      const [theirs] = await sun.waitFor(() => (sun.files({ dm: 'erin' }).length ? sun.files({ dm: 'erin' }) : undefined), { message: "Sunrise's export" });
      const empty = JSON.parse(theirs!.text) as { tables: Record<string, unknown[]> };
      expect(Object.values(empty.tables).flat()).toEqual([]);
      expect(await careCommand(h, 'T0SUN', 'erin', `forget <@${SOPHIE}>`)).toMatch(/This deletes what Care Actions holds about them: 0 links/);
      const label = /"text":"(Forget [^"]+)"/.exec(JSON.stringify(sun.ephemerals('erin').at(-1)?.blocks ?? []))?.[1];
      expect(label).toBeDefined();
      await h.team('T0SUN').clickButton('erin', { ephemeral: true, channel: '#care-team', text: label! });
      await sun.waitFor(() => sun.ephemerals('erin').some((e) => e.text.startsWith('Done:')), { message: 'the erasure in Sunrise' });
      expect(await h.app.store.getLinkBySlackUser('T0CARE', SOPHIE)).not.toBeNull();
      expect(await h.app.store.getSummarySetting('T0CARE', SOPHIE)).not.toBeNull();
      expect(care.files({ dm: 'sophie' })).toEqual([]);
    } finally {
      await h.close();
    }
  });
});
