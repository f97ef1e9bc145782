/**
 * Contract: one Slack person's data read (an export) and erased, and an uninstalled workspace forgotten, on the
 * real database. After each, every table of the database (listed from the database itself) is scanned for the
 * person's Id, or for anything of the workspace but its anonymous audit rows.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { KeyRing } from '../../../src/crypto/key-ring.js';
import type { Store } from '../../../src/store/index.js';
import { workspaceCursor } from '../../../src/store/index.js';
import { everyRow, rowsNaming } from '../../helpers/db-scan.js';
import type { Fresh, Harness } from '../harness.js';

const AMELIA = 'U0AMELIA';
const OLIVER = 'U0OLIVER';
const ADMIN = 'U0ADMIN';

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
  await store.setCursor(workspaceCursor('assignment:act-1', team), JSON.stringify({ to: 'care-1', by: AMELIA }));
  await store.setCursor(`job-slot:digests:${team}`, '12');
  await store.acquireLease(workspaceCursor('slack-history', team), 'holder', 60_000);
  await store.markRequestSeen(workspaceCursor('undo:k', team), { now: 0, expiresAt: Date.UTC(2100, 0, 1) });
  await store.appendAudit({ teamId: team, userId: AMELIA, verb: 'action.complete', actionId: 'act-1', details: { completedBy: AMELIA } });
  await store.appendAudit({ teamId: team, userId: ADMIN, verb: 'link.admin', details: { slackUserId: AMELIA, careUserId: 'care-1' } });
  await store.appendAudit({ teamId: team, userId: OLIVER, verb: 'summary.set', details: { time: '08:00' } });
  await store.setHomeSetting(team, 'escalation', JSON.stringify({ ladder: [OLIVER, AMELIA] }), AMELIA);
  // What the rota remembers: a person's Home-tab location, and a reassign run naming people.
  await store.setCursor(workspaceCursor(`home-where:${AMELIA}`, team), 'loc-rose');
  await store.setCursor(
    workspaceCursor('reassign:run-1', team),
    JSON.stringify({ state: 'done', plan: { from: { slackUserId: AMELIA, name: 'Amelia Hughes' } } }),
  );
  await store.noteCompletion(team, 'act-1', { actionNo: '301', completedAt: Date.UTC(2026, 10, 1) });
}

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
      expect(records.job_cursors).toHaveLength(3);
      expect(records.workspace_settings).toHaveLength(1);
      expect(records.care_connections).toHaveLength(1);
      expect(records.slack_installations).toHaveLength(1);
      expect(records.home_settings).toHaveLength(1);
    });

    it('erased: no row of any table names them in that workspace; the other workspace and the other people keep theirs', async () => {
      const fresh = await opened(h);
      await seed(fresh.store, 'T1');
      await seed(fresh.store, 'T12');
      const otherBefore = (await scan(fresh, 'T12')).length;
      const oliverBefore = await fresh.store.personRecords(OLIVER, 'T1');
      const counts = await fresh.store.erasePerson(AMELIA, { teamId: 'T1', audit: { teamId: 'T1', userId: ADMIN, verb: 'person.erased' } });
      expect(counts).toMatchObject({ links: 1, linkRequests: 2, summarySettings: 1, deliveries: 1 });

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
      // The audit stays, anonymous: the same token for every row that named her, and the erasure by the admin.
      const audit = await fresh.store.listAudit({ teamId: 'T1' });
      expect(audit.find((a) => a.verb === 'action.complete')).toMatchObject({ userId: 'erased-1', details: { completedBy: 'erased-1' } });
      expect(audit.find((a) => a.verb === 'link.admin')).toMatchObject({ userId: ADMIN, details: { slackUserId: 'erased-1' } });
      expect(audit[0]).toMatchObject({ verb: 'person.erased', userId: ADMIN, details: counts });
      expect((await fresh.store.getInstallation({ isEnterpriseInstall: false, teamId: 'T1' }))?.user).toMatchObject({ id: 'erased-1', token: null });
    });

    it('erased in a deployment of one (no team given): every row naming them, whatever its team', async () => {
      const fresh = await opened(h);
      await seed(fresh.store, 'T1');
      await seed(fresh.store, 'T12');
      await fresh.store.erasePerson(AMELIA, { audit: { teamId: 'T1', userId: ADMIN, verb: 'person.erased' } });
      expect(await scan(fresh, AMELIA)).toEqual([]);
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
  });
}
