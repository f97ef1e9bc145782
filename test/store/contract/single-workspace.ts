/**
 * Contract: one key per workspace (migration 016, store/single-workspace.ts). Scoped names follow one rule,
 * `<name>@<team>`: the leases named `<kind>:<team>` before are renamed and stay their holder's. A deployment of
 * one workspace binds its Slack team once, and the rows it kept under `''`, `'single'` and bare names are then
 * read through that team's store; what names no workspace (a replayed request's key), and another team's rows,
 * stay as they were.
 */
import { describe, expect, it } from 'vitest';
import { isStoreError, MIGRATIONS, scopedWorkspaceStore } from '../../../src/store/index.js';
import type { Harness } from '../harness.js';

const FAR = Date.UTC(2100, 0, 1);
const SHIFTS = JSON.stringify([{ name: 'Early', start: '07:00', end: '15:00' }]);

export function singleWorkspaceContract(h: Harness): void {
  describe('one key per workspace', () => {
    it('migration 016 names every scoped lease <name>@<team>: a lease held stays its holder’s, under one name', async () => {
      const before = await h.fresh({ migrations: MIGRATIONS.slice(0, 15) });
      expect(await before.store.acquireLease('changes-poll:T1', 'instance-a', 60_000)).toBe(true);
      expect(await before.store.acquireLease('digests:T12', 'instance-b', 60_000)).toBe(true);
      expect(await before.store.acquireLease('slack-token-refresh:team:T1', 'instance-a', 60_000)).toBe(true);
      expect(await before.store.acquireLease('slack-token-refresh:enterprise:E1', 'instance-a', 60_000)).toBe(true);
      expect(await before.store.acquireLease('slack-history@T1', 'instance-b', 60_000)).toBe(true);
      await before.store.setCursor('job-slot:digests:T12', '1736150400000');
      await before.store.close();

      const store = await before.open({ migrations: MIGRATIONS });
      expect((await store.getLease('changes-poll@T1'))?.holder).toBe('instance-a');
      expect((await store.getLease('digests@T12'))?.holder).toBe('instance-b');
      expect((await store.getLease('slack-token-refresh@T1'))?.holder).toBe('instance-a');
      expect((await store.getLease('slack-history@T1'))?.holder).toBe('instance-b');
      for (const gone of ['changes-poll:T1', 'digests:T12', 'slack-token-refresh:team:T1', 'slack-token-refresh:enterprise:E1'])
        expect(await store.getLease(gone), gone).toBeNull();
      // Its holder goes on renewing it; nobody else takes it.
      expect(await store.renewLeasesOf('instance-a', 60_000)).toEqual(new Set(['changes-poll@T1', 'slack-token-refresh@T1']));
      expect(await store.acquireLease('changes-poll@T1', 'instance-c', 60_000)).toBe(false);
      expect(await store.getCursor('job-slot:digests@T12')).toBe('1736150400000');
      // A workspace's forgetting finds them by the one rule.
      await store.forgetWorkspace('T1');
      expect(await store.getLease('changes-poll@T1')).toBeNull();
      expect(await store.getLease('slack-token-refresh@T1')).toBeNull();
      expect((await store.getLease('digests@T12'))?.holder).toBe('instance-b');
    });

    it('a deployment of one binds its team once: the rows kept under the old keys are that team’s, and a start for another team is refused', async () => {
      // A database a deployment of one workspace wrote before its workspace had one id.
      const before = await h.fresh({ migrations: MIGRATIONS.slice(0, 15) });
      const old = before.store;
      const at = before.clock();
      await old.setHomeSetting('', 'shifts', SHIFTS, 'U0AMELIA');
      await old.setHomeSetting('T9', 'shifts', '[]', 'U9'); // another team's, never touched
      await old.noteCompletion('', 'act-1', { actionNo: '12', completedAt: at - 1_000 });
      await old.addNote('', { actionId: 'act-1', verb: 'complete', slackUserId: 'U0AMELIA', careUserId: null, text: 'Bloods taken' });
      await old.setTwoStaff('', 'act-1', true, 'U0AMELIA');
      await old.setCursor('changes-poll', '2025-01-06T08:59:00.000Z');
      await old.setCursor('urgent-episode:act-1', '{"since":"x"}');
      await old.setCursor('job-slot:digests:single', '1736150400000');
      await old.recordJobFailure('single', { kind: 'changes-poll', at, reason: 'care API down', backoff: [60_000], teller: 'old', tellForMs: 30_000 });
      expect(await old.acquireLease('changes-poll:single', 'old-instance', 60_000)).toBe(true);
      expect(await old.acquireLease('slack-history', 'old-instance', 60_000)).toBe(true);
      expect(await old.markRequestSeen('undo:spent', { now: at, expiresAt: FAR })).toBe(true);
      expect(await old.markRequestSeen('event:Ev1', { now: at, expiresAt: FAR })).toBe(true); // the replay guard's: no workspace's
      await old.close();

      const store = await before.open({ migrations: MIGRATIONS });
      expect(await store.singleWorkspace()).toBeNull();
      const bound = await store.bindSingleWorkspace('T1');
      expect(bound).toMatchObject({ teamId: 'T1', boundAt: at });
      expect(bound.adopted).toMatchObject({
        home_settings: 1,
        action_completions: 1,
        action_notes: 1,
        action_marks: 1,
        job_state: 2,
        job_leases: 2,
        seen_requests: 1,
      });
      expect(bound.adopted.job_cursors).toBe(3);

      const t1 = scopedWorkspaceStore(store, 'T1');
      expect((await t1.getHomeSetting('shifts'))?.value).toBe(SHIFTS);
      expect((await t1.dueRedactions(at)).map((c) => c.actionId)).toEqual(['act-1']);
      expect((await t1.listNotes(['act-1'])).map((n) => n.text)).toEqual(['Bloods taken']);
      expect(await t1.twoStaffMark('act-1')).toBe(true);
      expect(await t1.getCursor('changes-poll')).toBe('2025-01-06T08:59:00.000Z');
      expect(await t1.listCursors('urgent-episode:')).toEqual([{ name: 'urgent-episode:act-1', value: '{"since":"x"}' }]);
      expect(await store.getCursor('job-slot:digests@T1')).toBe('1736150400000');
      expect(await store.readJobState('T1')).toMatchObject({
        episode: { failures: 1, lastKind: 'changes-poll', lastError: 'care API down' },
        kinds: [{ kind: 'changes-poll', failures: 1, backedOffUntil: at + 60_000 }],
      });
      expect(await store.readJobState('single')).toEqual({ workspaceId: 'single', episode: null, kinds: [] });
      expect((await store.getLease('changes-poll@T1'))?.holder).toBe('old-instance');
      expect((await store.getLease('slack-history@T1'))?.holder).toBe('old-instance');
      expect(await t1.markRequestSeen('undo:spent', { now: at, expiresAt: FAR })).toBe(false); // an Undo spent stays spent
      expect(await store.markRequestSeen('event:Ev1', { now: at, expiresAt: FAR })).toBe(false); // still known under its own key
      expect((await store.getHomeSetting('T9', 'shifts'))?.value).toBe('[]');
      expect(await store.getHomeSetting('', 'shifts')).toBeNull();

      // Once: a later start reads the team; binding it again adopts nothing; another team is refused.
      const again = await before.open({ migrations: MIGRATIONS });
      expect(await again.singleWorkspace()).toEqual({ teamId: 'T1', boundAt: at });
      expect((await again.bindSingleWorkspace('T1')).adopted).toEqual({});
      const refused = await again.bindSingleWorkspace('T2').catch((e: unknown) => e);
      expect(isStoreError(refused, 'bad-config')).toBe(true);
      expect((refused as Error).message).toContain('workspace T1');
      expect(await again.singleWorkspace()).toEqual({ teamId: 'T1', boundAt: at });
      expect((await t1.getHomeSetting('shifts'))?.value).toBe(SHIFTS);
    });

    it('two instances starting at once bind the team once', async () => {
      const { store, open } = await h.fresh();
      const other = await open();
      await store.setHomeSetting('', 'shifts', SHIFTS, 'U0AMELIA');
      const [a, b] = await Promise.all([store.bindSingleWorkspace('T1'), other.bindSingleWorkspace('T1')]);
      expect([a.adopted.home_settings ?? 0, b.adopted.home_settings ?? 0].sort()).toEqual([0, 1]);
      expect((await scopedWorkspaceStore(other, 'T1').getHomeSetting('shifts'))?.value).toBe(SHIFTS);
    });

    it('forgetting a deployment of one (uninstalled) forgets its team too', async () => {
      const { store } = await h.fresh();
      await store.bindSingleWorkspace('T1');
      await store.forgetWorkspace();
      expect(await store.singleWorkspace()).toBeNull();
      expect((await store.bindSingleWorkspace('T2')).teamId).toBe('T2');
    });
  });
}
