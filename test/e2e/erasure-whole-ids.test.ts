/**
 * Issue 37, item 2: erasure takes only a whole Slack user Id of someone the app has seen in this workspace,
 * and matches stored values by whole token. People with look-alike Ids (U0, U0S, U0SOPHIE) have data in the
 * app; erasing U0S changes only U0S's whole occurrences: Sophie's digest filter, her summary and her audit
 * stay as they were. A "Forget" button whose value was forged to `1`, and `/care forget <@U0>`, are refused
 * with nothing changed, and the poll goes on from its cursor. On a real SQLite file and on PostgreSQL.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SQLITE_FILE_NAME } from '../../src/store/index.js';
import { everyRow, postgresRaw, type RawQuery, sqliteRaw } from '../helpers/db-scan.js';
import { createTestSchema, TEST_DATABASE_URL, type TestSchema } from '../helpers/pg.js';
import { poll } from './fixtures/jobs-support.js';
import { urlWithSchema } from './fixtures/spawn-instance.js';
import { command, type Harness, startHarness } from './harness.js';

const START = new Date('2026-03-10T09:00:00Z');
const SOPHIE = 'U0SOPHIE';
const LOOK_ALIKES = ['U0', 'U0S', SOPHIE];
const ERASURE_TABLES = [
  'identity_links',
  'link_requests',
  'summary_settings',
  'channel_subscriptions',
  'group_routes',
  'deliveries',
  'audit_log',
  'job_cursors',
  'workspace_settings',
  'care_connections',
  'home_settings',
  'slack_installations',
];

function scenario(kind: 'sqlite' | 'postgres') {
  let h: Harness;
  let raw: RawQuery;
  let schemaName: string | undefined;
  let schema: TestSchema | undefined;
  let dataDir: string | undefined;
  /** Every row of the tables an erasure reads or changes (a request's replay key and a job's lease are written anyway). */
  const rows = async () => {
    const all = await everyRow(kind, raw, schemaName);
    return Object.fromEntries(Object.entries(all).filter(([table]) => ERASURE_TABLES.includes(table)));
  };

  beforeAll(async () => {
    if (kind === 'postgres') {
      schema = await createTestSchema(TEST_DATABASE_URL!, 'wholeids');
      schemaName = schema.name;
      h = await startHarness({ startAt: START, sandbox: { seed: 'empty' }, databaseUrl: urlWithSchema(TEST_DATABASE_URL!, schema.name) });
      raw = postgresRaw(TEST_DATABASE_URL!, schema.name);
    } else {
      dataDir = await mkdtemp(join(tmpdir(), 'care-whole-ids-'));
      h = await startHarness({ startAt: START, sandbox: { seed: 'empty' }, dataDir });
      raw = sqliteRaw(join(dataDir, SQLITE_FILE_NAME));
    }
    // Sophie's data, made as people make it: her link, her summary, a digest filtered on her.
    expect((await command(h, 'sophie', '/care link')).text).toContain('Linked');
    expect((await command(h, 'sophie', '/care summary 07:30')).text).toMatch(/07:30/);
    expect((await command(h, 'amelia', `/care digest here 08:30 <@${SOPHIE}>`)).text).toMatch(/digest/i);
    // U0 and U0S (Slack Connect people the app once served): a summary each, an audit row, a digest naming them.
    for (const id of ['U0', 'U0S']) {
      await h.app.store.upsertSummarySetting({ teamId: 'T0CARE', slackUserId: id, time: '08:00', days: 'daily', enabled: true });
      await h.app.store.appendAudit({ teamId: 'T0CARE', userId: id, verb: 'summary.set', details: { time: '08:00', by: `<@${id}>` } });
    }
    await h.app.store.upsertSubscription({
      teamId: 'T0CARE',
      channelId: 'C0LEADS',
      time: '09:00',
      days: 'daily',
      timeZone: 'Europe/London',
      filters: { slackUserIds: LOOK_ALIKES },
      showTaskText: false,
      postWhenEmpty: true,
      urgentAlerts: false,
      channelPrivate: false,
      setUpBy: 'U0AMELIA',
    });
    await poll(h);
  });
  afterAll(async () => {
    await h?.close();
    await schema?.drop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('refuses a Forget button whose value was forged to "1" and changes nothing: the poll goes on from its cursor', async () => {
    const before = await rows();
    await command(h, 'amelia', `/care forget <@${SOPHIE}>`);
    const question = await h.fake.waitFor(() => h.fake.ephemerals('amelia').find((e) => /Forget @sophie/.test(h.fake.visibleText(e, { viewer: 'amelia' }))), {
      message: 'the question',
    });
    // The forger's payload: the button as shown, its value made `1` (edited where the fake keeps the message it sends back).
    const stored = h.fake.state.ephemerals.find((e) => e.ts === question.ts && e.user === question.user)!;
    const button = (stored.blocks as { elements?: { action_id?: string; value?: string }[] }[])
      .flatMap((b) => b.elements ?? [])
      .find((e) => e.action_id === 'care_forget_person');
    expect(button?.value).toBe(SOPHIE);
    button!.value = '1';
    await h.driver.clickButton('amelia', { ephemeral: true, channel: '#care-team', text: `Forget ${h.driver.user('sophie').real_name}` });
    const refusal = await h.fake.waitFor(() => h.fake.ephemerals('amelia').find((e) => /not a Slack person/.test(e.text)), { message: 'the refusal' });
    expect(refusal.text).toContain('That is not a Slack person: pick them with @ from Slack’s list, `/care forget @person`. Nothing was changed.');
    expect(await rows()).toEqual(before);
    await expect(poll(h)).resolves.toBeDefined();
    expect((await command(h, 'sophie', '/care whoami')).text).toMatch(/You are linked/);
  });

  it('refuses /care forget of something that is not a whole Slack Id, or of someone the app never saw here', async () => {
    const before = await rows();
    expect((await command(h, 'amelia', '/care forget <@U0>')).text).toContain('That is not a Slack person');
    expect((await command(h, 'amelia', '/care forget <@U0NOBODY>')).text).toContain(
      'Care Actions holds nothing about @U0NOBODY in this workspace: there is nothing to forget.',
    );
    expect(await rows()).toEqual(before);
  });

  it('forgets U0S and only U0S: Sophie (U0SOPHIE) and U0 keep every row, their digest filters as they were', async () => {
    expect((await command(h, 'amelia', '/care forget <@U0S>')).text).toMatch(
      /This deletes what Care Actions holds about them: 0 links to a care account, 0 link requests, 1 morning summary setting/,
    );
    await h.driver.clickButton('amelia', { ephemeral: true, channel: '#care-team', text: 'Forget this person' });
    await h.fake.waitFor(() => h.fake.ephemerals('amelia').find((e) => e.text.startsWith('Done:') && e.text.includes('<@U0S>')), { message: 'the erasure' });

    const leads = await h.app.store.getSubscription('T0CARE', 'C0LEADS');
    expect(leads?.filters.slackUserIds).toEqual(['U0', 'erased-1', SOPHIE]);
    const sophiesDigest = await h.app.store.getSubscription('T0CARE', 'C0CARE');
    expect(sophiesDigest?.filters.slackUserIds).toEqual([SOPHIE]);
    expect(await h.app.store.getSummarySetting('T0CARE', SOPHIE)).toMatchObject({ time: '07:30' });
    expect(await h.app.store.getSummarySetting('T0CARE', 'U0')).toMatchObject({ time: '08:00' });
    expect(await h.app.store.getSummarySetting('T0CARE', 'U0S')).toBeNull();
    const audit = await h.app.store.listAudit({ verb: 'summary.set', limit: 50 });
    expect(audit.map((a) => [a.userId, a.details.by ?? null]).sort()).toEqual(
      [
        [SOPHIE, null],
        ['U0', '<@U0>'],
        ['erased-1', '<@erased-1>'],
      ].sort(),
    );
    // Nothing reads `erased-1SOPHIE`: no Id was rewritten inside another.
    expect(JSON.stringify(await rows())).not.toMatch(/erased-\d+[A-Z0-9]/);
    expect((await command(h, 'sophie', '/care whoami')).text).toMatch(/You are linked/);
    await expect(poll(h)).resolves.toBeDefined();
  });
}

describe('erasure matches whole Slack Ids, SQLite', () => scenario('sqlite'));
describe.skipIf(!TEST_DATABASE_URL)('erasure matches whole Slack Ids, PostgreSQL', () => scenario('postgres'));
