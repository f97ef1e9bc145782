/** Everything written survives closing the store and opening it again, on both databases. */
import { describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/index.js';
import { PG_SKIPPED, TEST_DATABASE_URL } from '../helpers/pg.js';
import type { Harness } from './harness.js';
import { postgresHarness, sqliteHarness } from './harness.js';

async function writeOneOfEach(store: Store): Promise<void> {
  await store.upsertLink({ teamId: 'T1', slackUserId: 'U1', careUserId: 'care-1', method: 'admin', linkedBy: 'UA' });
  await store.createLinkRequest({ teamId: 'T1', slackUserId: 'U2', careUserId: 'care-2', note: 'new starter' });
  await store.upsertSubscription({
    teamId: 'T1',
    channelId: 'C1',
    time: '07:45',
    days: 'daily',
    timeZone: 'Europe/London',
    filters: { urgentOnly: true, careUserIds: ['care-1'] },
    showTaskText: true,
    postWhenEmpty: false,
    urgentAlerts: true,
    channelPrivate: false,
    setUpBy: 'UA',
  });
  await store.upsertRoute({ teamId: 'T1', groupId: 'g1', groupName: 'Nurses', channelId: 'C2', setUpBy: 'UA' });
  const claim = await store.claimDelivery(
    { kind: 'completion', actionId: 'act-1', occurrence: '2025-01-06T09:00:00Z', recipient: 'user:T1/U1' },
    { holder: 'a', staleAfterMs: 60_000 },
  );
  await store.markSent(claim.delivery.id, { channel: 'D1', ts: '1736154000.000200' });
  await store.setCursor('completions', '2025-01-06 09:00:00');
  await store.acquireLease('digest', 'a', 3_600_000);
  await store.appendAudit({ teamId: 'T1', userId: 'U1', verb: 'action.complete', actionId: 'act-1', details: { from: 'button' } });
}

function restartSuite(h: Harness): void {
  it('reads back after close and re-open what it wrote before', async () => {
    const { store, open } = await h.fresh();
    await writeOneOfEach(store);
    const before = {
      links: await store.listLinks(),
      requests: await store.listLinkRequests(),
      subscriptions: await store.listSubscriptions(),
      routes: await store.listRoutes(),
      deliveries: await store.listDeliveries(),
      lease: await store.getLease('digest'),
      audit: await store.listAudit(),
    };
    await store.close();

    const again = await open();
    expect(again.migration.applied).toEqual([]);
    expect(await again.listLinks()).toEqual(before.links);
    expect(await again.listLinkRequests()).toEqual(before.requests);
    expect(await again.listSubscriptions()).toEqual(before.subscriptions);
    expect(await again.listRoutes()).toEqual(before.routes);
    expect(await again.listDeliveries()).toEqual(before.deliveries);
    expect(await again.getCursor('completions')).toBe('2025-01-06 09:00:00');
    expect(await again.getLease('digest')).toEqual(before.lease);
    expect(await again.listAudit()).toEqual(before.audit);
    expect(before.deliveries[0]).toMatchObject({ state: 'sent', slackTs: '1736154000.000200' });
    // What was sent before the restart is not sent again after it.
    const claim = await again.claimDelivery(
      { kind: 'completion', actionId: 'act-1', occurrence: '2025-01-06T09:00:00Z', recipient: 'user:T1/U1' },
      { holder: 'b', staleAfterMs: 60_000 },
    );
    expect(claim.outcome).toBe('sent');
    expect(await again.acquireLease('digest', 'b', 1000)).toBe(false);
  });
}

describe('restart on SQLite', () => restartSuite(sqliteHarness()));

if (!TEST_DATABASE_URL) {
  console.warn(PG_SKIPPED);
  it.skip(PG_SKIPPED, () => {});
}

describe.skipIf(!TEST_DATABASE_URL)('restart on PostgreSQL', () => restartSuite(postgresHarness(TEST_DATABASE_URL ?? '')));
