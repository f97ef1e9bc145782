/**
 * Contract: one Slack person's data read (an export) and erased, and an uninstalled workspace forgotten, on the
 * real database. After each, every table of the database (listed from the database itself) is scanned for the
 * person's Id, or for anything of the workspace but its anonymous audit rows.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { KeyRing } from '../../../src/crypto/key-ring.js';
import type { Store } from '../../../src/store/index.js';
import { workspaceKey } from '../../../src/store/index.js';
import { everyRow, rowsNaming } from '../../helpers/db-scan.js';
import type { Fresh, Harness } from '../harness.js';

const AMELIA = 'U0AMELIA';
const OLIVER = 'U0OLIVER';
const ADMIN = 'U0ADMIN';
/** An erasure that may take an admin's rights away (a Slack workspace admin asked). */
const REMOVE = { installerIsAdmin: true, remove: true, verb: 'admin.removed' };

/** One of everything a workspace keeps that can name Amelia, and Oliver's own rows beside hers. */
async function seed(store: Store, team: string): Promise<void> {
  await store.saveInstallation({
    isEnterpriseInstall: false,
    teamId: team,
    teamName: `Team ${team}`,
    enterpriseId: null,
    appId: 'A0APP',
    authVersion: 'v2',
    bot: { token: `xoxb-${team}-${randomBytes(4).toString('hex')}`, scopes: ['commands'], id: `B0${team}`, userId: `U0${team}BOT` },
    user: { id: AMELIA, token: `xoxp-${team}-user`, scopes: ['identity.basic'] },
  });
  await store.setCareConnection({
    workspaceId: team,
    baseUrl: 'https://api.carehq.example/v1',
    accountId: `acct-${team}`,
    apiKey: 'k',
    apiSecret: 's',
    connectedBy: AMELIA,
  });
  await store.setWorkspaceSettings(team, { adminUserIds: [OLIVER, AMELIA], timeZone: 'Europe/London' }, AMELIA);
  await store.upsertLink({ teamId: team, slackUserId: AMELIA, careUserId: 'care-1', method: 'email' });
  await store.upsertLink({ teamId: team, slackUserId: OLIVER, careUserId: 'care-2', method: 'admin', linkedBy: AMELIA });
  const { request } = await store.createLinkRequest({ teamId: team, slackUserId: AMELIA, careUserId: 'care-9', note: 'please' });
  await store.decideLinkRequest(request.id, 'rejected', ADMIN);
  await store.createLinkRequest({ teamId: team, slackUserId: AMELIA, careUserId: 'care-1' });
  const { request: olivers } = await store.createLinkRequest({ teamId: team, slackUserId: OLIVER, careUserId: 'care-2' });
  await store.decideLinkRequest(olivers.id, 'approved', AMELIA);
  await store.upsertSummarySetting({ teamId: team, slackUserId: AMELIA, time: '07:30', days: 'weekdays', enabled: true });
  await store.upsertSummarySetting({ teamId: team, slackUserId: OLIVER, time: '08:00', days: 'daily', enabled: true });
  await store.upsertSubscription({
    teamId: team,
    channelId: 'C0CARE',
    time: '08:30',
    days: 'weekdays',
    timeZone: 'Europe/London',
    filters: { slackUserIds: [AMELIA, OLIVER] },
    showTaskText: false,
    postWhenEmpty: true,
    urgentAlerts: true,
    channelPrivate: false,
    setUpBy: AMELIA,
  });
  await store.upsertRoute({ teamId: team, groupId: 'g1', groupName: 'Night staff', channelId: 'C0CARE', setUpBy: AMELIA });
  for (const recipient of [`user:${team}/${AMELIA}`, `user:${team}/${OLIVER}`, `channel:${team}/C0CARE`]) {
    const { delivery } = await store.claimDelivery(
      { kind: 'assignment', actionId: 'act-1', occurrence: '2025-01-06T09:00:00Z', recipient },
      { holder: 'h', staleAfterMs: 60_000 },
    );
    await store.markSent(delivery.id, { channel: 'D0DM', ts: '1.1' }, team);
  }
  // A Take it she won: the claim's holder is her Slack user (issue 36).
  const take = await store.claimDelivery(
    { kind: 'take', actionId: 'act-1', occurrence: '2025-01-06T09:00:00Z|-|2025-01-06T11:00:00Z', recipient: `action:${team}/act-1` },
    { holder: AMELIA, staleAfterMs: 60_000 },
  );
  await store.markSent(take.delivery.id, { channel: '', ts: '' }, team);
  await store.setCursor(workspaceKey('assignment:act-1', team), JSON.stringify({ to: 'care-1', by: AMELIA }));
  await store.setCursor(workspaceKey('job-slot:digests', team), '12');
  await store.acquireLease(workspaceKey('slack-history', team), 'holder', 60_000);
  await store.markRequestSeen(workspaceKey('undo:k', team), { now: 0, expiresAt: Date.UTC(2100, 0, 1) });
  await store.appendAudit({ teamId: team, userId: AMELIA, verb: 'action.complete', actionId: 'act-1', details: { completedBy: AMELIA } });
  await store.appendAudit({ teamId: team, userId: ADMIN, verb: 'link.admin', details: { slackUserId: AMELIA, careUserId: 'care-1' } });
  await store.appendAudit({ teamId: team, userId: OLIVER, verb: 'summary.set', details: { time: '08:00' } });
  await store.setHomeSetting(team, 'escalation', JSON.stringify({ ladder: [OLIVER, AMELIA] }), AMELIA);
  // What the rota remembers: a person's Home-tab location, and a reassign run naming people.
  await store.setCursor(workspaceKey(`home-where:${AMELIA}`, team), 'loc-rose');
  await store.setCursor(
    workspaceKey('reassign:run-1', team),
    JSON.stringify({ state: 'done', plan: { from: { slackUserId: AMELIA, name: 'Amelia Hughes' } } }),
  );
  // A reassign run's Undo (until its window ends): the two sides and the actions moved.
  await store.setCursor(
    workspaceKey('reassign:run-2', team),
    JSON.stringify({
      state: 'undoable',
      from: { careUserId: 'care-2', slackUserId: OLIVER },
      to: { careUserId: 'care-1', slackUserId: AMELIA },
      moved: [{ id: 'act-1', no: '301' }],
      expiresAt: 1,
    }),
  );
  await store.noteCompletion(team, 'act-1', { actionNo: '301', completedAt: Date.UTC(2026, 10, 1) });
  await store.noteDue(team, 'act-1', { dueAt: Date.UTC(2026, 9, 1), modifiedAt: Date.UTC(2026, 8, 1), via: 'poll' });
  // Notes on an action (issue 33): hers, and Oliver's naming her as Slack writes a mention.
  await store.addNote(team, { actionId: 'act-1', verb: 'complete', slackUserId: AMELIA, careUserId: 'care-1', text: HER_NOTE });
  await store.addNote(team, { actionId: 'act-1', verb: 'take', slackUserId: OLIVER, careUserId: 'care-2', text: `handed over by <@${AMELIA}>, ok` });
  // Her "I can't" with a note she wrote, and Oliver's "I'm on it" naming her as the one doing it (issue 33).
  const episode = '2026-09-01T09:00:00Z';
  const answer = { actionId: 'act-1', episode, careUserId: 'care-1', at: Date.UTC(2026, 8, 1, 9, 5) };
  await store.addEpisodeAnswer(team, { ...answer, slackUserId: AMELIA, answer: 'cant', reason: 'busy', note: 'with Mrs Patel in room 4' });
  await store.addEpisodeAnswer(team, { ...answer, slackUserId: OLIVER, careUserId: 'care-2', answer: 'on-it', doerSlackUserId: AMELIA });
  await store.setTwoStaff(team, 'act-1', true, AMELIA);
}

/** Her note's words: task text that names a resident. */
const HER_NOTE = 'Gave Mrs Halloran 2 tablets at 10:05';

async function opened(h: Harness): Promise<Fresh> {
  return h.fresh({ keyRing: new KeyRing([randomBytes(32)]) });
}

export function personDataContract(h: Harness): void {
  const scan = (fresh: Fresh, value: string) => rowsNaming(h.kind, (sql, params) => h.raw(fresh, sql, params), value, fresh.config.schema);
  const every = (fresh: Fresh) => everyRow(h.kind, (sql, params) => h.raw(fresh, sql, params), fresh.config.schema);

  describe('one person’s data', () => {
    it('reads every row naming the person in one workspace, none of another’s, and no sealed token', async () => {
      const fresh = await opened(h);
      await seed(fresh.store, 'T1');
      await seed(fresh.store, 'T12');
      const records = await fresh.store.personRecords(AMELIA, 'T1');
      const text = JSON.stringify(records);
      expect(text).not.toMatch(/T12/);
      expect(text).not.toMatch(/xox[bp]-/);
      expect(records.identity_links!.map((r) => r.slack_user_id).sort()).toEqual([AMELIA, OLIVER]);
      expect(records.link_requests).toHaveLength(3);
      expect(records.summary_settings).toHaveLength(1);
      expect(records.channel_subscriptions).toHaveLength(1);
      expect(records.group_routes).toHaveLength(1);
      expect(records.deliveries!.map((r) => r.recipient)).toEqual([`user:T1/${AMELIA}`]);
      expect(records.audit_log!.map((r) => r.verb)).toEqual(['action.complete', 'link.admin']);
      expect(records.job_cursors).toHaveLength(4);
      expect(records.workspace_settings).toHaveLength(1);
      expect(records.care_connections).toHaveLength(1);
      expect(records.slack_installations).toHaveLength(1);
      expect(records.home_settings).toHaveLength(1);
      // Her note, and Oliver's that mentions her.
      expect(records.action_notes!.map((r) => r.slack_user_id)).toEqual([AMELIA, OLIVER]);
      expect(records.episode_answers!.map((r) => r.answer)).toEqual(['cant', 'on-it']);
      expect(records.episode_answers![0]).toMatchObject({ note: 'with Mrs Patel in room 4' });
      expect(records.action_marks).toHaveLength(1);
    });

    it('erased: no row of any table names them in that workspace; the other workspace and the other people keep theirs', async () => {
      const fresh = await opened(h);
      await seed(fresh.store, 'T1');
      await seed(fresh.store, 'T12');
      const otherBefore = (await scan(fresh, 'T12')).length;
      const oliverBefore = await fresh.store.personRecords(OLIVER, 'T1');
      const counts = await fresh.store.erasePerson(AMELIA, { teamId: 'T1', audit: { teamId: 'T1', userId: ADMIN, verb: 'person.erased' }, admins: REMOVE });
      expect(counts).toMatchObject({ links: 1, linkRequests: 2, summarySettings: 1, deliveries: 1, adminRemoved: { was: 'installer', token: 'erased-1' } });
      // Both reassign runs naming her are gone (the Undo names her as the receiving side), and her Home location.
      expect(await fresh.store.getCursor(workspaceKey('reassign:run-2', 'T1'))).toBeNull();
      expect(await fresh.store.getCursor(workspaceKey('reassign:run-1', 'T1'))).toBeNull();
      expect(await fresh.store.getCursor(workspaceKey('reassign:run-2', 'T12'))).not.toBeNull();

      const left = (await scan(fresh, AMELIA)).filter((f) => !JSON.stringify(f.row).includes('T12'));
      expect(left).toEqual([]);
      expect(await scan(fresh, 'T12')).toHaveLength(otherBefore);
      expect(Object.values(await fresh.store.personRecords(AMELIA, 'T12')).flat().length).toBeGreaterThan(10);
      // Oliver's own rows stay; Amelia's name is gone from them (linked by, approved by, the admin list).
      expect(await fresh.store.getLinkBySlackUser('T1', OLIVER)).toMatchObject({ careUserId: 'care-2', linkedBy: null });
      expect((await fresh.store.getWorkspaceSettings('T1'))?.adminUserIds).toEqual([OLIVER]);
      expect(await fresh.store.getSummarySetting('T1', OLIVER)).toMatchObject({ time: '08:00' });
      expect(oliverBefore.deliveries).toHaveLength(1);
      expect((await fresh.store.personRecords(OLIVER, 'T1')).deliveries).toHaveLength(1);
      // Her note is gone; Oliver's stays, naming the token where it named her; T12's notes are as they were.
      expect(counts.notes).toBe(1);
      expect((await fresh.store.listNotes('T1', ['act-1'])).map((n) => [n.slackUserId, n.text])).toEqual([[OLIVER, 'handed over by <@erased-1>, ok']]);
      expect(await fresh.store.listNotes('T12', ['act-1'])).toHaveLength(2);
      // The audit stays, anonymous: the same token for every row that named her, and the erasure by the admin.
      const audit = await fresh.store.listAudit({ teamId: 'T1' });
      expect(audit.find((a) => a.verb === 'action.complete')).toMatchObject({ userId: 'erased-1', details: { completedBy: 'erased-1' } });
      expect(audit.find((a) => a.verb === 'link.admin')).toMatchObject({ userId: ADMIN, details: { slackUserId: 'erased-1' } });
      const { adminRemoved, ...counted } = counts;
      expect(audit.find((a) => a.verb === 'person.erased')).toMatchObject({ userId: ADMIN, details: { ...counted, adminRemoved: 'installer' } });
      // Her admin rights went with her, in an audit row of their own that names the token and who did it.
      expect(audit.find((a) => a.verb === 'admin.removed')).toMatchObject({
        id: adminRemoved!.auditId,
        userId: ADMIN,
        details: { slackUserId: 'erased-1', was: 'installer', through: 'forget' },
      });
      expect((await fresh.store.getInstallation({ isEnterpriseInstall: false, teamId: 'T1' }))?.user).toMatchObject({ id: 'erased-1', token: null });
      // Her answer stays as evidence that someone could not, without her name or the note she wrote.
      const answers = await fresh.store.listEpisodeAnswers('T1', 'act-1');
      expect(answers.map((a) => [a.slackUserId, a.careUserId, a.note, a.doerSlackUserId])).toEqual([
        ['erased-1', null, null, null],
        [OLIVER, 'care-2', null, 'erased-1'],
      ]);
      expect((await fresh.store.listEpisodeAnswers('T12', 'act-1'))[0]).toMatchObject({ slackUserId: AMELIA, note: 'with Mrs Patel in room 4' });
    });

    it('erased in a deployment of one (no team given): every row naming them, whatever its team', async () => {
      const fresh = await opened(h);
      await seed(fresh.store, 'T1');
      await seed(fresh.store, 'T12');
      await fresh.store.erasePerson(AMELIA, { audit: { teamId: 'T1', userId: ADMIN, verb: 'person.erased' }, admins: REMOVE });
      expect(await scan(fresh, AMELIA)).toEqual([]);
    });

    it('erased: no byte of the database names them (SQLite: the main file with its free pages, the WAL and shm; PostgreSQL: every row)', async () => {
      const fresh = await opened(h);
      await seed(fresh.store, 'T1');
      expect((await h.dump(fresh)).includes(AMELIA)).toBe(true);
      await fresh.store.erasePerson(AMELIA, { audit: { teamId: 'T1', userId: ADMIN, verb: 'person.erased' }, admins: REMOVE });
      expect((await h.dump(fresh)).includes(AMELIA)).toBe(false);
      // Nor her note's words (SQLite zeroes what it deleted).
      expect((await h.dump(fresh)).includes('Mrs Halloran')).toBe(false);
      // Oliver's rows are there to read: the dump is of the live database.
      expect((await h.dump(fresh)).includes(OLIVER)).toBe(true);
    });

    it('refuses to erase an admin (the first installer, or one added) unless told to remove them, and changes nothing', async () => {
      const fresh = await opened(h);
      await seed(fresh.store, 'T1');
      const before = await every(fresh);
      const keep = { installerIsAdmin: true, remove: false, verb: 'admin.removed' };
      // Amelia installed it; Oliver was added.
      for (const who of [AMELIA, OLIVER])
        await expect(
          fresh.store.erasePerson(who, { teamId: 'T1', audit: { teamId: 'T1', userId: ADMIN, verb: 'person.erased' }, admins: keep }),
        ).rejects.toMatchObject({ code: 'person-is-admin' });
      expect(await every(fresh)).toEqual(before);
      // Where the installer is no admin (a deployment of one), only the added list counts.
      await fresh.store.setWorkspaceSettings('T1', { adminUserIds: [OLIVER] }, ADMIN);
      const counts = await fresh.store.erasePerson(AMELIA, {
        teamId: 'T1',
        audit: { teamId: 'T1', userId: ADMIN, verb: 'person.erased' },
        admins: { ...keep, installerIsAdmin: false },
      });
      expect(counts.adminRemoved).toBeUndefined();
    });

    it('matches an Id whole, never as a substring: erasing U0S leaves U0 and U0SOPHIE everywhere as they were', async () => {
      const fresh = await opened(h);
      const ids = ['U0', 'U0S', 'U0SOPHIE'];
      // Each look-alike in every column an erasure reads or rewrites, in every way a value holds an Id.
      await fresh.store.setWorkspaceSettings('T1', { adminUserIds: ['U0SOPHIE', 'U0S0'] }, 'U0SOPHIE');
      for (const [i, id] of ids.entries()) {
        await fresh.store.upsertLink({ teamId: 'T1', slackUserId: id, careUserId: `care-${i}`, method: 'admin', linkedBy: `${id}X` });
        await fresh.store.createLinkRequest({ teamId: 'T1', slackUserId: id, careUserId: null });
        await fresh.store.upsertSummarySetting({ teamId: 'T1', slackUserId: id, time: '07:30', days: 'daily', enabled: true });
        await fresh.store.upsertSubscription({
          teamId: 'T1',
          channelId: `C0${i}`,
          time: '08:30',
          days: 'daily',
          timeZone: 'Europe/London',
          filters: { slackUserIds: [id, `${id}1`], note: `<@${id}>SOPHIE` },
          showTaskText: false,
          postWhenEmpty: true,
          urgentAlerts: false,
          channelPrivate: false,
          setUpBy: id,
        });
        await fresh.store.upsertRoute({ teamId: 'T1', groupId: `g-${i}`, groupName: 'Night', channelId: 'C0', setUpBy: id });
        const { delivery } = await fresh.store.claimDelivery(
          { kind: 'assignment', actionId: 'act-1', occurrence: 'o', recipient: `user:T1/${id}` },
          { holder: 'h', staleAfterMs: 60_000 },
        );
        await fresh.store.markSent(delivery.id, { channel: 'D0', ts: '1.1' }, 'T1');
        await fresh.store.appendAudit({ teamId: 'T1', userId: id, verb: 'summary.set', details: { slackUserId: id, text: `by ${id}SOPHIE`, n: 1 } });
        await fresh.store.setCursor(workspaceKey(`home-where:${id}X`, 'T1'), 'loc-rose');
        await fresh.store.setHomeSetting('T1', `escalation-${i}`, JSON.stringify({ ladder: [`${id}0`, 'U0SOPHIE'] }), 'U0SOPHIE');
      }
      await fresh.store.setCursor(workspaceKey('changes-poll', 'T1'), JSON.stringify({ since: '2026-01-01T10:00:01Z', n: 1 }));
      await fresh.store.setCursor(workspaceKey('assignment:act-1', 'T1'), JSON.stringify({ by: 'U0SOPHIE', to: 'U0S', was: ['U0', 'xU0S'] }));
      const before = await every(fresh);

      const counts = await fresh.store.erasePerson('U0S', { teamId: 'T1', audit: { teamId: 'T1', userId: ADMIN, verb: 'person.erased' }, admins: REMOVE });
      expect(counts).toMatchObject({ links: 1, linkRequests: 1, summarySettings: 1, deliveries: 1, remembered: 0 });
      const after = await every(fresh);
      /** Each row with every whole `U0S` made the token: what the erasure may do to a row it keeps. */
      const wholeU0S = /(?<![A-Za-z0-9])U0S(?![A-Za-z0-9])/g;
      const asErased = (row: Record<string, unknown>) => JSON.stringify(row).replace(wholeU0S, 'erased-1');
      /** U0S's own rows, which the erasure deletes. */
      const own = (table: string, r: Record<string, unknown>) =>
        (['identity_links', 'link_requests', 'summary_settings'].includes(table) && r.slack_user_id === 'U0S') ||
        (table === 'deliveries' && r.recipient === 'user:T1/U0S');
      for (const [table, rows] of Object.entries(before)) {
        if (table === 'sqlite_sequence') continue; // SQLite's own counters (the new audit row)
        const expected = rows.filter((r) => !own(table, r)).map(asErased);
        const kept = (after[table] ?? []).filter((r) => !(table === 'audit_log' && r.verb === 'person.erased')).map((r) => JSON.stringify(r));
        // Rows of U0 and U0SOPHIE are byte for byte as they were; U0S's kept rows differ only where U0S stood whole.
        expect(kept.sort(), table).toEqual(expected.sort());
      }
      expect(await scan(fresh, '"U0S"')).toEqual([]);
      expect((await fresh.store.getWorkspaceSettings('T1'))?.adminUserIds).toEqual(['U0SOPHIE', 'U0S0']);
    });
  });

  describe('a workspace forgotten (uninstalled)', () => {
    it('leaves no row of it in any table but its audit, with no Slack user Id; the other workspace is untouched', async () => {
      const fresh = await opened(h);
      await seed(fresh.store, 'T1');
      await seed(fresh.store, 'T12');
      const before = await every(fresh);
      const result = await fresh.store.forgetWorkspace('T1');
      expect(result.auditAnonymised).toBe(3);
      const after = await every(fresh);
      for (const [table, rows] of Object.entries(after)) {
        const ofT1 = rows.filter((r) => /"T1"|[:@]T1"|[:@]T1\//.test(JSON.stringify(r)));
        if (table === 'audit_log') {
          expect(ofT1).toHaveLength(3);
          for (const r of ofT1) expect(JSON.stringify(r)).not.toMatch(/U0[A-Z]+/);
        } else expect(ofT1, table).toEqual([]);
        // Every row of T12 is as it was.
        const ofT12 = (rs: Record<string, unknown>[]) => rs.filter((r) => JSON.stringify(r).includes('T12'));
        expect(ofT12(rows), table).toEqual(ofT12(before[table] ?? []));
      }
    });

    it('in a deployment of one: no byte of the database names any of its people (SQLite’s files, free pages and WAL included)', async () => {
      const fresh = await opened(h);
      await seed(fresh.store, 'T1');
      const people = [AMELIA, OLIVER, ADMIN, 'U0T1BOT'];
      for (const id of people) expect((await h.dump(fresh)).includes(id), id).toBe(true);
      await fresh.store.forgetWorkspace();
      const dump = await h.dump(fresh);
      for (const id of people) expect(dump.includes(id), id).toBe(false);
    });
  });
}
