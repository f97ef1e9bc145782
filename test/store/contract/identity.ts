/** Contract: identity links and link requests. */
import { describe, expect, it } from 'vitest';
import { isStoreError, MIGRATIONS } from '../../../src/store/index.js';
import type { Harness } from '../harness.js';

export function identityContract(h: Harness): void {
  describe('identity links', () => {
    it('links a Slack user to a care user and finds the link from either side', async () => {
      const { store, clock } = await h.fresh();
      const link = await store.upsertLink({ teamId: 'T1', slackUserId: 'U1', careUserId: 'care-1', method: 'email' });
      expect(link).toEqual({ teamId: 'T1', slackUserId: 'U1', careUserId: 'care-1', method: 'email', linkedBy: null, linkedAt: clock() });
      expect(await store.getLinkBySlackUser('T1', 'U1')).toEqual(link);
      expect(await store.getLinksByCareUser('care-1')).toEqual([link]);
      expect(await store.getLinkBySlackUser('T1', 'U2')).toBeNull();
    });

    it('re-linking a Slack user replaces its care user and records who did it', async () => {
      const { store, clock } = await h.fresh();
      await store.upsertLink({ teamId: 'T1', slackUserId: 'U1', careUserId: 'care-1', method: 'email' });
      clock.advance(60_000);
      await store.upsertLink({ teamId: 'T1', slackUserId: 'U1', careUserId: 'care-2', method: 'admin', linkedBy: 'UADMIN' });
      expect(await store.getLinkBySlackUser('T1', 'U1')).toMatchObject({ careUserId: 'care-2', method: 'admin', linkedBy: 'UADMIN', linkedAt: clock() });
      expect(await store.getLinksByCareUser('care-1')).toEqual([]);
    });

    it('keeps the same user id in two workspaces apart and lists per workspace', async () => {
      const { store } = await h.fresh();
      await store.upsertLink({ teamId: 'T1', slackUserId: 'U1', careUserId: 'care-1', method: 'email' });
      await store.upsertLink({ teamId: 'T2', slackUserId: 'U1', careUserId: 'care-1', method: 'admin', linkedBy: 'UA' });
      expect((await store.getLinksByCareUser('care-1')).map((l) => l.teamId)).toEqual(['T1', 'T2']);
      expect((await store.listLinks('T2')).map((l) => l.method)).toEqual(['admin']);
      expect(await store.listLinks()).toHaveLength(2);
    });

    it('a care user has one Slack person per workspace: a second is refused and nothing changes; the same person again, or another workspace, is fine', async () => {
      const { store } = await h.fresh();
      const first = await store.upsertLink({ teamId: 'T1', slackUserId: 'U1', careUserId: 'care-1', method: 'email' });
      const refused = await store
        .upsertLink({ teamId: 'T1', slackUserId: 'U2', careUserId: 'care-1', method: 'admin', linkedBy: 'UA' })
        .catch((e: unknown) => e);
      expect(isStoreError(refused, 'care-user-taken')).toBe(true);
      expect(await store.getLinkBySlackUser('T1', 'U2')).toBeNull();
      // U2 linked elsewhere is not moved onto care-1 either.
      await store.upsertLink({ teamId: 'T1', slackUserId: 'U2', careUserId: 'care-2', method: 'email' });
      expect(
        isStoreError(
          await store.upsertLink({ teamId: 'T1', slackUserId: 'U2', careUserId: 'care-1', method: 'admin' }).catch((e: unknown) => e),
          'care-user-taken',
        ),
      ).toBe(true);
      expect(await store.getLinkBySlackUser('T1', 'U2')).toMatchObject({ careUserId: 'care-2' });
      expect(await store.upsertLink({ teamId: 'T1', slackUserId: 'U1', careUserId: 'care-1', method: 'admin', linkedBy: 'UA' })).toMatchObject({
        method: 'admin',
      });
      expect(await store.upsertLink({ teamId: 'T2', slackUserId: 'U2', careUserId: 'care-1', method: 'email' })).toMatchObject({ teamId: 'T2' });
      expect((await store.getLinksByCareUser('care-1', 'T1')).map((l) => l.slackUserId)).toEqual([first.slackUserId]);
    });

    it('links made before that rule (two people on one care user) survive the migration: both stay, a third is refused, and the later one linked again is refused while the first stays', async () => {
      const before = await h.fresh({ migrations: MIGRATIONS.slice(0, 4) });
      // Rows as the app before migration 005 wrote them: U2 first, then U1 and U3 at the same moment.
      const insert = 'INSERT INTO identity_links (team_id, slack_user_id, care_user_id, method, linked_by, linked_at) VALUES (?, ?, ?, ?, ?, ?)';
      await h.raw(before, insert, ['T1', 'U2', 'care-1', 'email', null, 1_000]);
      await h.raw(before, insert, ['T1', 'U1', 'care-1', 'admin', 'UA', 2_000]);
      await h.raw(before, insert, ['T1', 'U3', 'care-1', 'admin', 'UA', 2_000]);
      await before.store.close();

      const store = await before.open({ migrations: MIGRATIONS });
      expect(store.migration.applied).toContain(5);
      expect((await store.getLinksByCareUser('care-1', 'T1')).map((l) => l.slackUserId)).toEqual(['U1', 'U2', 'U3']);
      expect(
        isStoreError(
          await store.upsertLink({ teamId: 'T1', slackUserId: 'U4', careUserId: 'care-1', method: 'admin' }).catch((e: unknown) => e),
          'care-user-taken',
        ),
      ).toBe(true);
      // U1 (a later link) made again now obeys the rule: U2, the first, has care-1.
      expect(
        isStoreError(
          await store.upsertLink({ teamId: 'T1', slackUserId: 'U1', careUserId: 'care-1', method: 'admin' }).catch((e: unknown) => e),
          'care-user-taken',
        ),
      ).toBe(true);
      expect(await store.getLinkBySlackUser('T1', 'U1')).toMatchObject({ careUserId: 'care-1', method: 'admin' });
      // Once the others are unlinked, the care user is U2's alone, and U2 may be linked again.
      expect(await store.deleteLink('T1', 'U1')).toBe(true);
      expect(await store.deleteLink('T1', 'U3')).toBe(true);
      expect(await store.upsertLink({ teamId: 'T1', slackUserId: 'U2', careUserId: 'care-1', method: 'admin', linkedBy: 'UA' })).toMatchObject({
        method: 'admin',
      });
    });

    it('unlinks once', async () => {
      const { store } = await h.fresh();
      await store.upsertLink({ teamId: 'T1', slackUserId: 'U1', careUserId: 'care-1', method: 'email' });
      expect(await store.deleteLink('T1', 'U1')).toBe(true);
      expect(await store.deleteLink('T1', 'U1')).toBe(false);
      expect(await store.getLinkBySlackUser('T1', 'U1')).toBeNull();
    });
  });

  describe('link requests', () => {
    it('opens one pending request per Slack user; asking again updates it', async () => {
      const { store, clock } = await h.fresh();
      const first = await store.createLinkRequest({ teamId: 'T1', slackUserId: 'U1', note: 'I am Sam' });
      expect(first.created).toBe(true);
      expect(first.request).toMatchObject({ state: 'pending', careUserId: null, note: 'I am Sam', requestedAt: clock(), decidedBy: null });
      const again = await store.createLinkRequest({ teamId: 'T1', slackUserId: 'U1', careUserId: 'care-9', note: 'Sam Jones' });
      expect(again.created).toBe(false);
      expect(again.request).toMatchObject({ id: first.request.id, careUserId: 'care-9', note: 'Sam Jones' });
      expect(await store.listLinkRequests({ state: 'pending' })).toHaveLength(1);
    });

    it('approving links the requester (method "request", by the approver); a second decision changes nothing', async () => {
      const { store, clock } = await h.fresh();
      const { request } = await store.createLinkRequest({ teamId: 'T1', slackUserId: 'U1', careUserId: 'care-9' });
      clock.advance(5_000);
      const approved = await store.decideLinkRequest(request.id, 'approved', 'UADMIN');
      expect(approved).toMatchObject({ ok: true, request: { state: 'approved', decidedBy: 'UADMIN', decidedAt: clock() } });
      expect(await store.getLinkBySlackUser('T1', 'U1')).toEqual({
        teamId: 'T1',
        slackUserId: 'U1',
        careUserId: 'care-9',
        method: 'request',
        linkedBy: 'UADMIN',
        linkedAt: clock(),
      });
      const late = await store.decideLinkRequest(request.id, 'rejected', 'UOTHER');
      expect(late).toMatchObject({ ok: false, reason: 'already-decided', request: { state: 'approved', decidedBy: 'UADMIN' } });
      expect(await store.getLinkBySlackUser('T1', 'U1')).toMatchObject({ careUserId: 'care-9' });
    });

    it('an approver may name the care user; without one, approval is refused and the request stays pending', async () => {
      const { store } = await h.fresh();
      const { request } = await store.createLinkRequest({ teamId: 'T1', slackUserId: 'U1' });
      const refused = await store.decideLinkRequest(request.id, 'approved', 'UADMIN').catch((e: unknown) => e);
      expect(isStoreError(refused, 'invalid-input')).toBe(true);
      expect(await store.getLinkRequest(request.id)).toMatchObject({ state: 'pending' });
      const ok = await store.decideLinkRequest(request.id, 'approved', 'UADMIN', { careUserId: 'care-3' });
      expect(ok).toMatchObject({ ok: true, request: { careUserId: 'care-3' }, link: { careUserId: 'care-3' } });
    });

    it('rejecting makes no link, and the user may ask again', async () => {
      const { store } = await h.fresh();
      const { request } = await store.createLinkRequest({ teamId: 'T1', slackUserId: 'U1', careUserId: 'care-9' });
      expect(await store.decideLinkRequest(request.id, 'rejected', 'UADMIN')).toMatchObject({ ok: true, link: null });
      expect(await store.getLinkBySlackUser('T1', 'U1')).toBeNull();
      const next = await store.createLinkRequest({ teamId: 'T1', slackUserId: 'U1' });
      expect(next.created).toBe(true);
      expect(next.request.id).not.toBe(request.id);
      expect((await store.listLinkRequests({ state: 'rejected' })).map((r) => r.id)).toEqual([request.id]);
      expect(await store.listLinkRequests()).toHaveLength(2);
    });

    it('approving a request for a care user someone else of the workspace has is refused, and the request stays pending', async () => {
      const { store } = await h.fresh();
      await store.upsertLink({ teamId: 'T1', slackUserId: 'U1', careUserId: 'care-9', method: 'email' });
      const { request } = await store.createLinkRequest({ teamId: 'T1', slackUserId: 'U2' });
      const refused = await store.decideLinkRequest(request.id, 'approved', 'UADMIN', { careUserId: 'care-9' }).catch((e: unknown) => e);
      expect(isStoreError(refused, 'care-user-taken')).toBe(true);
      expect(await store.getLinkRequest(request.id)).toMatchObject({ state: 'pending', careUserId: null });
      expect(await store.getLinkBySlackUser('T1', 'U2')).toBeNull();
    });

    it('deciding an unknown request says so', async () => {
      const { store } = await h.fresh();
      expect(await store.decideLinkRequest(424242, 'rejected', 'UADMIN')).toEqual({ ok: false, reason: 'not-found' });
      expect(await store.getLinkRequest(424242)).toBeNull();
    });

    it('two admins deciding at once: exactly one decision wins', async () => {
      const { store } = await h.fresh();
      const { request } = await store.createLinkRequest({ teamId: 'T1', slackUserId: 'U1', careUserId: 'care-9' });
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) => store.decideLinkRequest(request.id, i % 3 ? 'approved' : 'rejected', `UADMIN${i}`)),
      );
      expect(results.filter((r) => r.ok)).toHaveLength(1);
      expect(results.filter((r) => !r.ok && r.reason === 'already-decided')).toHaveLength(9);
    });
  });
}
