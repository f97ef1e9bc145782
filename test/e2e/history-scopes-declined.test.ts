/**
 * An install that declined the optional history scopes (im:history, channels:history, groups:history) never
 * reads history: 100 completion notices (50 actions, each told to Sophie and Priya) with a tenth of the
 * posts' answers lost (Slack answers after 3.5 s; the app waits 2 s) are each either sent once or marked
 * uncertain in the ledger and told to the admin once — none twice, none silently dropped, no history call.
 * SQLite, and PostgreSQL with TEST_DATABASE_URL. Clocks: Wednesday 2026-11-25 10:00 UTC = 10:00 in London.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { careWorkspace } from '../../dev/demo/care-workspace.js';
import { createTestSchema, PG_SKIPPED, TEST_DATABASE_URL, type TestSchema } from '../helpers/pg.js';
import { deliveryActionId, deliveryKind, poll } from './fixtures/jobs-support.js';
import { urlWithSchema } from './fixtures/spawn-instance.js';
import { linkDirectly, startHarness, webAppAction, type Harness } from './harness.js';

const START = new Date('2026-11-25T10:00:00Z');
/** 100 notices, ~10 of them slowed (none slowed: odds of 1 in 37,000); 200 proved no more and took twice as long. */
const ACTIONS = 50;
const HISTORY = ['im:history', 'channels:history', 'groups:history'];
const PEOPLE = { sophie: 'U0SOPHIE', priya: 'U0PRIYA' } as const;

/** How the admin's DM names who a notice was for: a person as a mention, a channel as a link. */
function recipientText(recipient: string): string {
  const id = recipient.split('/')[1] ?? '';
  if (recipient.startsWith('user:')) return `<@${id}>`;
  if (recipient.startsWith('channel:')) return `<#${id}>`;
  return 'a notification group address';
}

function withoutHistoryScopes() {
  const workspace = careWorkspace();
  return { ...workspace, bot: { ...workspace.bot, scopes: workspace.bot.scopes.filter((s) => !HISTORY.includes(s)) } };
}

function scenario(databaseUrl: () => string | undefined) {
  let h: Harness;
  let groupIds: string[];

  beforeAll(async () => {
    const url = databaseUrl();
    // Claims go stale after 6 s, so the poster waits 2 s for an answer: a post Slack answers after 3.5 s has lost its answer.
    h = await startHarness({
      startAt: START,
      sandbox: { seed: 'empty' },
      workspace: withoutHistoryScopes(),
      slackLimits: false,
      jobs: { pollSeconds: 3600, staleAfterMs: 6_000 },
      ...(url ? { databaseUrl: url } : {}),
    });
    await linkDirectly(h, 'sophie');
    await linkDirectly(h, 'priya');
    const groups = await h.app.care.notificationGroups.collect({ attributes: ['_id', 'name'], per_page: 100, limit: 100 });
    groupIds = ['Willow Bank seniors', 'Heather Lodge nurses'].map((n) => groups.find((g) => g.name === n)!._id);
    await poll(h); // the app's first look
  });
  afterAll(async () => h?.close());

  it('100 notices, a tenth of the answers lost: each sent once or marked uncertain and told to the admin once; none twice; no history read', {
    timeout: 240_000,
  }, async () => {
    const actions: { _id: string }[] = [];
    for (let i = 0; i < ACTIONS; i += 25) {
      const batch = Array.from({ length: 25 }, (_, k) =>
        webAppAction(h, { task: `Night check ${i + k}`, due: new Date(h.now().getTime() + 6 * 3_600_000), notify_on_complete: groupIds }),
      );
      actions.push(...(await Promise.all(batch)));
    }
    await poll(h);
    for (let i = 0; i < ACTIONS; i += 20) await Promise.all(actions.slice(i, i + 20).map((a) => h.control(`actions/${a._id}/complete`, {})));

    // A tenth of the posts land in Slack only after 3.5 s; the app has stopped waiting after 2 s.
    h.fake.faults.latency(3_500, { methods: ['chat.postMessage'], share: 0.1 });
    await h.setTime(new Date(h.now().getTime() + 5_000));
    await poll(h);
    // Let the slowed posts land (3.5 s after each was sent: Slack has answered every call), then the claims go stale:
    // the next polls' retries meet the posts whose answer was lost.
    await h.fake.waitFor(() => h.fake.callsInFlight() === 0 || undefined, { timeoutMs: 15_000, message: 'slowed posts still in flight' });
    h.fake.faults.clear();
    for (let i = 0; i < 3; i++) {
      await h.setTime(new Date(h.now().getTime() + 20_000));
      await poll(h);
    }

    const ids = new Set(actions.map((a) => a._id));
    const rows = (await h.app.store.listDeliveries({ kind: 'completion' })).filter((r) => ids.has(r.actionId));
    expect(rows.length).toBeGreaterThanOrEqual(2 * ACTIONS);
    const uncertain = rows.filter((r) => r.state === 'failed' && r.lastError?.startsWith('uncertain:'));
    // Some answers were lost (else this would prove nothing) and each such notice was settled, none left pending.
    expect(uncertain.length).toBeGreaterThan(0);
    expect(rows.filter((r) => r.state !== 'sent' && !uncertain.includes(r))).toEqual([]);

    // No notice twice; every notice to a person is in their DMs, or it is uncertain.
    const people = new Set(rows.filter((r) => r.recipient.startsWith('user:')).map((r) => r.recipient.split('/')[1]!));
    expect([...people]).toEqual(expect.arrayContaining([PEOPLE.sophie, PEOPLE.priya]));
    for (const userId of people) {
      const got = new Map<string, number>();
      for (const m of h.fake.dms(userId).filter((x) => deliveryKind(x) === 'completion')) {
        const id = deliveryActionId(m)!;
        got.set(id, (got.get(id) ?? 0) + 1);
      }
      expect([...got.values()].filter((n) => n > 1)).toEqual([]);
      const theirs = rows.filter((r) => r.recipient.endsWith(`/${userId}`));
      const uncertainHere = new Set(uncertain.filter((r) => theirs.includes(r)).map((r) => r.actionId));
      expect(theirs.map((r) => r.actionId).filter((id) => !got.has(id) && !uncertainHere.has(id))).toEqual([]);
    }

    // Amelia (the admin) is told of each uncertain notice exactly once, with who it was for and which action.
    const told = h.fake.dms('amelia').filter((m) => deliveryKind(m) === 'delivery-uncertain');
    expect(told).toHaveLength(uncertain.length);
    for (const row of uncertain) {
      const about = told.filter((m) => deliveryActionId(m) === row.actionId && (m.text ?? '').includes(recipientText(row.recipient)));
      expect(about, `told of ${row.actionId} to ${row.recipient}`).toHaveLength(1);
      expect(h.fake.visibleText(about[0]!, { viewer: 'amelia' })).toMatch(/may not have arrived.*not sent again/s);
    }
    // Her lock screen shows no task text.
    for (const m of told) expect(m.text ?? '').not.toMatch(/Night check/);

    // The app never read history.
    expect(h.fake.calls('conversations.history')).toEqual([]);
    expect(h.fake.calls('conversations.replies')).toEqual([]);

    // Later polls change nothing: nothing is sent again, nobody is told again.
    const before = [...h.fake.dms('sophie'), ...h.fake.dms('priya'), ...h.fake.dms('amelia')].length;
    await h.setTime(new Date(h.now().getTime() + 60_000));
    await poll(h);
    expect([...h.fake.dms('sophie'), ...h.fake.dms('priya'), ...h.fake.dms('amelia')].length).toBe(before);
  });
}

describe('history scopes declined, SQLite', () => scenario(() => undefined));

if (!TEST_DATABASE_URL) it.skip(PG_SKIPPED, () => {});
describe.skipIf(!TEST_DATABASE_URL)('history scopes declined, PostgreSQL', () => {
  let schema: TestSchema;
  let url: string;
  beforeAll(async () => {
    schema = await createTestSchema(TEST_DATABASE_URL!, 'history_declined');
    url = urlWithSchema(TEST_DATABASE_URL!, schema.name);
  });
  afterAll(async () => schema?.drop());
  scenario(() => url);
});
