/**
 * Contract: a workspace's store (scopedWorkspaceStore) keeps tenants apart by construction. Every method of it
 * is walked with two workspaces whose team ids are prefixes of each other (T1, T12), each seeded through its
 * own workspace store with the same names (Slack user U1, channel C1, care user care-1, group g1, action
 * act-1, cursor poll...): neither sees, changes or deletes the other's rows, nor names them by key or id.
 *
 * The methods are read from the store object itself: a method added to it without an isolation case below
 * fails here with its name.
 */
import { describe, expect, it } from 'vitest';
import type { DeliveryKey, Store, SubscriptionInput, WorkspaceStore } from '../../../src/store/index.js';
import { isStoreError, WORKSPACE_SCOPE } from '../../../src/store/index.js';
import { scopedWorkspaceStore as storeForWorkspace, workspaceKey } from '../../../src/store/index.js';
import type { Fresh, Harness } from '../harness.js';

const STALE = 60_000;
const DAY = 24 * 3600_000;
const CURSORS = ['poll', 'first-look'];
const UNDO_KEY = 'undo:k';
const COMPLETED = Date.UTC(2025, 0, 6, 9);
/** An "I can't" to act-1's urgent episode (issue 33), by U1 in each workspace. */
const ANSWER = {
  actionId: 'act-1',
  episode: '2025-01-06T09:00:00Z',
  slackUserId: 'U1',
  careUserId: 'care-1',
  answer: 'cant' as const,
  reason: 'busy',
  at: COMPLETED,
};

interface Seeded {
  /** The ids its seeding made: a pending, a failed and a sent delivery, and a pending link request. */
  pending: number;
  failed: number;
  sent: number;
  request: number;
}

interface Side {
  team: string;
  ws: WorkspaceStore;
  ids: Seeded;
}

interface CaseContext {
  /** The workspace calling the method... */
  mine: Side;
  /** ...and the one it must not reach. */
  other: Side;
  /** The whole database (the registry's store), to look past the workspace stores. */
  store: Store;
  fresh: Fresh;
}

type IsolationCase = (c: CaseContext) => Promise<void>;

const key = (kind: string, recipient: string, actionId = 'act-1'): DeliveryKey => ({ kind, actionId, occurrence: '2025-01-06T09:00:00Z', recipient });
const subscription = (teamId: string, over: Partial<SubscriptionInput> = {}): SubscriptionInput => ({
  teamId,
  channelId: 'C1',
  time: '08:30',
  days: 'weekdays',
  timeZone: 'Europe/London',
  filters: { careUserIds: ['care-1'] },
  showTaskText: false,
  postWhenEmpty: true,
  urgentAlerts: true,
  channelPrivate: false,
  setUpBy: 'UA',
  ...over,
});

/** One of everything a workspace keeps, written through its own workspace store. */
async function seed(ws: WorkspaceStore, team: string): Promise<Seeded> {
  await ws.upsertLink({ slackUserId: 'U1', careUserId: 'care-1', method: 'admin', linkedBy: 'UA' });
  const { request } = await ws.createLinkRequest({ slackUserId: 'U2', careUserId: 'care-2' });
  await ws.upsertSubscription(subscription(team));
  await ws.upsertSummarySetting({ slackUserId: 'U1', time: '07:30', days: 'weekdays', enabled: true });
  await ws.upsertRoute({ groupId: 'g1', groupName: 'Night staff', channelId: 'C1', setUpBy: 'UA' });
  const claim = async (k: DeliveryKey) => (await ws.claimDelivery(k, { holder: 'h', staleAfterMs: STALE })).delivery.id;
  const failed = await claim(key('completion', `user:${team}/U1`));
  await ws.markFailed(failed, 'ratelimited', { retryable: true });
  const pending = await claim(key('completion', `channel:${team}/C1`));
  const sent = await claim(key('digest', `channel:${team}/C1`, '-'));
  await ws.markSent(sent, { channel: 'C1', ts: '1.1' });
  for (const name of CURSORS) await ws.setCursor(name, `${name} of ${team}`);
  await ws.setHomeSetting('shifts', `shifts of ${team}`, 'UA');
  await ws.noteCompletion('act-1', { actionNo: '301', completedAt: COMPLETED });
  await ws.noteDue('act-1', { dueAt: COMPLETED - DAY, modifiedAt: COMPLETED - 2 * DAY, via: 'first-look' });
  await ws.addNote({ actionId: 'act-1', verb: 'complete', slackUserId: 'U1', careUserId: 'care-1', text: `note of ${team}` });
  await ws.acquireLease('slack-history', `holder of ${team}`, DAY);
  await ws.addEpisodeAnswer({ ...ANSWER, note: `note of ${team}` });
  await ws.setTwoStaff('act-1', true, 'UA');
  await ws.markRequestSeen(UNDO_KEY, { now: 0, expiresAt: Date.UTC(2100, 0, 1) });
  await ws.appendAudit({ userId: 'U1', verb: 'action.complete', actionId: 'act-1', details: { by: team } });
  return { pending, failed, sent, request: request.id };
}

/** Every row of one workspace, read past the workspace stores. */
async function rowsOf(c: CaseContext, h: Harness, team: string): Promise<unknown> {
  const { store, fresh } = c;
  return {
    links: await store.listLinks(team),
    requests: await store.listLinkRequests({ teamId: team }),
    subscriptions: await store.listSubscriptions(team),
    summaries: await store.getSummarySetting(team, 'U1'),
    routes: await store.listRoutes(team),
    deliveries: await store.listDeliveries({ teamId: team }),
    cursors: await Promise.all(CURSORS.map((name) => store.getCursor(workspaceKey(name, team)))),
    homeSettings: await store.listHomeSettings(team),
    lease: await store.getLease(workspaceKey('slack-history', team)),
    seen: await h.raw(fresh, 'SELECT request_key, expires_at FROM seen_requests WHERE request_key = ?', [workspaceKey(UNDO_KEY, team)]),
    audit: await store.listAudit({ teamId: team }),
    completions: await store.dueRedactions(team, Date.UTC(2100, 0, 1)),
    dueTimes: [...(await store.dueHistories(team, ['act-1'])).values()],
    notes: (await store.listNotes(team, ['act-1'])).map((n) => n.text),
    answers: await store.listEpisodeAnswers(team, 'act-1'),
    twoStaff: await store.twoStaffMark(team, 'act-1'),
  };
}

const teamsOf = (rows: { teamId: string }[]) => [...new Set(rows.map((r) => r.teamId))];
const recipientTeams = (rows: { recipient: string }[]) => [...new Set(rows.map((r) => /^[a-z]+:([^/]*)\//.exec(r.recipient)?.[1]))];
async function refused(promise: Promise<unknown>): Promise<void> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(isStoreError(error, 'other-workspace'), String(error)).toBe(true);
}

/** How each method stays inside its workspace: what `mine` sees and may do, with `other`'s rows there too. */
const CASES: Record<string, IsolationCase> = {
  async upsertLink({ mine, other }) {
    expect(await mine.ws.upsertLink({ slackUserId: 'U9', careUserId: 'care-9', method: 'admin' })).toMatchObject({ teamId: mine.team });
    // @ts-expect-error a workspace's store takes no team: one named anyway is overridden by its own
    expect(await mine.ws.upsertLink({ teamId: other.team, slackUserId: 'U9', careUserId: 'care-9', method: 'admin' })).toMatchObject({ teamId: mine.team });
  },
  async getLinkBySlackUser({ mine }) {
    expect(await mine.ws.getLinkBySlackUser('U1')).toMatchObject({ teamId: mine.team, careUserId: 'care-1' });
  },
  async getLinksByCareUser({ mine }) {
    expect(teamsOf(await mine.ws.getLinksByCareUser('care-1'))).toEqual([mine.team]);
  },
  async listLinks({ mine }) {
    expect(teamsOf(await mine.ws.listLinks())).toEqual([mine.team]);
  },
  async deleteLink({ mine }) {
    expect(await mine.ws.deleteLink('U1')).toBe(true);
  },
  async createLinkRequest({ mine, other }) {
    expect((await mine.ws.createLinkRequest({ slackUserId: 'U2', careUserId: 'care-3' })).created).toBe(false);
    // @ts-expect-error a workspace's store takes no team: one named anyway is overridden by its own
    expect(await mine.ws.createLinkRequest({ teamId: other.team, slackUserId: 'U2', careUserId: 'care-3' })).toMatchObject({ request: { teamId: mine.team } });
    // @ts-expect-error a workspace's store takes no team: one named anyway is overridden by its own
    expect(await mine.ws.createLinkRequest({ teamId: other.team, slackUserId: 'U3' })).toMatchObject({ request: { teamId: mine.team } });
  },
  async getLinkRequest({ mine, other }) {
    expect(await mine.ws.getLinkRequest(mine.ids.request)).toMatchObject({ teamId: mine.team });
    expect(await mine.ws.getLinkRequest(other.ids.request)).toBeNull();
  },
  async listLinkRequests({ mine }) {
    expect(teamsOf(await mine.ws.listLinkRequests())).toEqual([mine.team]);
    expect(teamsOf(await mine.ws.listLinkRequests({ state: 'pending' }))).toEqual([mine.team]);
  },
  async decideLinkRequest({ mine, other }) {
    expect(await mine.ws.decideLinkRequest(other.ids.request, 'approved', 'UA', { careUserId: 'care-5' })).toEqual({ ok: false, reason: 'not-found' });
    expect(await mine.ws.decideLinkRequest(other.ids.request, 'rejected', 'UA')).toEqual({ ok: false, reason: 'not-found' });
    expect(await mine.ws.decideLinkRequest(mine.ids.request, 'approved', 'UA')).toMatchObject({ ok: true, link: { teamId: mine.team } });
  },
  async upsertSubscription({ mine, other }) {
    expect(await mine.ws.upsertSubscription(subscription(mine.team, { time: '09:00' }))).toMatchObject({ teamId: mine.team, time: '09:00' });
    // A subscription naming another team is kept as the store's own: nothing lands in the other workspace.
    expect(await mine.ws.upsertSubscription(subscription(other.team, { time: '09:00' }))).toMatchObject({ teamId: mine.team });
  },
  async getSubscription({ mine }) {
    expect(await mine.ws.getSubscription('C1')).toMatchObject({ teamId: mine.team });
  },
  async listSubscriptions({ mine }) {
    expect(teamsOf(await mine.ws.listSubscriptions())).toEqual([mine.team]);
  },
  async deleteSubscription({ mine }) {
    expect(await mine.ws.deleteSubscription('C1')).toBe(true);
  },
  async upsertSummarySetting({ mine, other }) {
    const setting = { slackUserId: 'U1', time: '06:00', days: 'daily' as const, enabled: false };
    expect(await mine.ws.upsertSummarySetting(setting)).toMatchObject({ teamId: mine.team, time: '06:00' });
    // @ts-expect-error a workspace's store takes no team: one named anyway is overridden by its own
    expect(await mine.ws.upsertSummarySetting({ teamId: other.team, ...setting })).toMatchObject({ teamId: mine.team });
  },
  async getSummarySetting({ mine }) {
    expect(await mine.ws.getSummarySetting('U1')).toMatchObject({ teamId: mine.team });
  },
  async listEnabledSummarySettings({ mine }) {
    expect(teamsOf(await mine.ws.listEnabledSummarySettings())).toEqual([mine.team]);
  },
  async upsertRoute({ mine, other }) {
    const route = { groupId: 'g1', groupName: 'Day staff', channelId: 'C2', setUpBy: 'UB' };
    expect(await mine.ws.upsertRoute(route)).toMatchObject({ teamId: mine.team, channelId: 'C2' });
    // @ts-expect-error a workspace's store takes no team: one named anyway is overridden by its own
    expect(await mine.ws.upsertRoute({ teamId: other.team, ...route })).toMatchObject({ teamId: mine.team });
  },
  async listRoutes({ mine }) {
    expect(teamsOf(await mine.ws.listRoutes())).toEqual([mine.team]);
  },
  async routesForGroups({ mine }) {
    expect(teamsOf(await mine.ws.routesForGroups(['g1', 'g2']))).toEqual([mine.team]);
  },
  async deleteRoute({ mine }) {
    expect(await mine.ws.deleteRoute('g1')).toBe(true);
  },
  async claimDelivery({ mine, other }) {
    const options = { holder: 'x', staleAfterMs: STALE };
    expect(await mine.ws.claimDelivery(key('assignment', `user:${mine.team}/U1`), options)).toMatchObject({ outcome: 'claimed' });
    await refused(mine.ws.claimDelivery(key('assignment', `user:${other.team}/U1`), options));
    await refused(mine.ws.claimDelivery(key('completion', `user:${other.team}/U1`), options));
  },
  async markSent({ mine, other }) {
    for (const id of [other.ids.pending, other.ids.failed]) expect(await mine.ws.markSent(id, { channel: 'C9', ts: '9.9' })).toBe(false);
    expect(await mine.ws.markSent(mine.ids.pending, { channel: 'C1', ts: '2.2' })).toBe(true);
  },
  async markFailed({ mine, other }) {
    expect(await mine.ws.markFailed(other.ids.pending, 'boom', { retryable: false })).toBe(false);
    expect(await mine.ws.markFailed(other.ids.pending, 'boom', { retryable: false, holder: 'h' })).toBe(false);
    expect(await mine.ws.markFailed(mine.ids.pending, 'boom', { retryable: false, holder: 'h' })).toBe(true);
  },
  async markInDoubt({ mine, other }) {
    expect(await mine.ws.markInDoubt(other.ids.pending, 'timeout', { holder: 'h', at: 1 })).toBe(false);
    expect(await mine.ws.markInDoubt(mine.ids.pending, 'timeout', { holder: 'h', at: 1 })).toBe(true);
  },
  async getDelivery({ mine, other }) {
    expect(await mine.ws.getDelivery(key('completion', `user:${mine.team}/U1`))).toMatchObject({ id: mine.ids.failed });
    expect(await mine.ws.getDelivery(key('completion', `user:${other.team}/U1`))).toBeNull();
  },
  async getDeliveryById({ mine, other }) {
    expect(await mine.ws.getDeliveryById(mine.ids.sent)).toMatchObject({ state: 'sent' });
    for (const id of [other.ids.pending, other.ids.failed, other.ids.sent]) expect(await mine.ws.getDeliveryById(id)).toBeNull();
  },
  async listDeliveries({ mine, other }) {
    expect(recipientTeams(await mine.ws.listDeliveries())).toEqual([mine.team]);
    expect(await mine.ws.listDeliveries({ recipient: `user:${other.team}/U1` })).toEqual([]);
    expect(recipientTeams(await mine.ws.listDeliveries({ kind: 'completion', order: 'desc' }))).toEqual([mine.team]);
  },
  async countDeliveries({ mine, other }) {
    expect(await mine.ws.countDeliveries()).toBe(3);
    expect(await mine.ws.countDeliveries({ recipient: `channel:${other.team}/C1` })).toBe(0);
  },
  async unfinishedDeliveries({ mine, fresh }) {
    fresh.clock.advance(STALE);
    expect(recipientTeams(await mine.ws.unfinishedDeliveries('completion', { staleAfterMs: STALE }))).toEqual([mine.team]);
    // Giving up on rows out of attempts: only its own.
    expect(await mine.ws.unfinishedDeliveries('completion', { staleAfterMs: STALE, maxAttempts: 1 })).toEqual([]);
  },
  async anyUnfinishedDeliveries({ mine, other }) {
    expect(await mine.ws.anyUnfinishedDeliveries()).toBe(true);
    // Its own pending and retryable rows finished: the other workspace's unfinished ones do not count.
    expect(await mine.ws.markSent(mine.ids.pending, { channel: 'C1', ts: '2.2' })).toBe(true);
    expect(await mine.ws.markSent(mine.ids.failed, { channel: 'C1', ts: '2.3' })).toBe(true);
    expect(await mine.ws.anyUnfinishedDeliveries()).toBe(false);
    expect(await other.ws.anyUnfinishedDeliveries()).toBe(true);
  },
  async recentDeliveries({ mine }) {
    const recent = await mine.ws.recentDeliveries({ windowMs: DAY });
    expect({ ...recent, failedRows: recipientTeams(recent.failedRows) }).toEqual({ sent: 1, pending: 1, failed: 1, failedRows: [mine.team] });
  },
  async reopenDelivery({ mine, other }) {
    expect(await mine.ws.reopenDelivery(other.ids.failed)).toBeNull();
    expect(await mine.ws.reopenDelivery(mine.ids.failed)).toMatchObject({ attempts: 0, retryable: true });
  },
  async getHomeSetting({ mine }) {
    expect(await mine.ws.getHomeSetting('shifts')).toMatchObject({ name: 'shifts', value: `shifts of ${mine.team}`, updatedBy: 'UA' });
    expect(await mine.ws.getHomeSetting('escalation')).toBeNull();
  },
  async listHomeSettings({ mine }) {
    expect((await mine.ws.listHomeSettings()).map((s) => s.value)).toEqual([`shifts of ${mine.team}`]);
  },
  async setHomeSetting({ mine, other }) {
    await mine.ws.setHomeSetting('shifts', 'changed', 'UB');
    expect(await mine.ws.getHomeSetting('shifts')).toMatchObject({ value: 'changed', updatedBy: 'UB' });
    await mine.ws.setHomeSetting('shifts', null, 'UB');
    expect(await mine.ws.getHomeSetting('shifts')).toBeNull();
    expect(await other.ws.getHomeSetting('shifts')).toMatchObject({ value: `shifts of ${other.team}` });
  },
  async noteCompletion({ mine }) {
    // The same action Id in both workspaces: completed again (a new time) and reopened, in mine alone.
    await mine.ws.noteCompletion('act-1', { actionNo: '301', completedAt: COMPLETED + DAY });
    expect(await mine.ws.dueRedactions(COMPLETED + DAY)).toEqual([{ actionId: 'act-1', actionNo: '301', completedAt: COMPLETED + DAY }]);
    await mine.ws.noteCompletion('act-1', null);
    expect(await mine.ws.dueRedactions(COMPLETED + DAY)).toEqual([]);
  },
  async dueRedactions({ mine }) {
    expect(await mine.ws.dueRedactions(COMPLETED - 1)).toEqual([]);
    expect(await mine.ws.dueRedactions(COMPLETED)).toEqual([{ actionId: 'act-1', actionNo: '301', completedAt: COMPLETED }]);
  },
  async markRedacted({ mine }) {
    expect(await mine.ws.markRedacted({ actionId: 'act-1', completedAt: COMPLETED })).toBe(true);
    expect(await mine.ws.markRedacted({ actionId: 'act-1', completedAt: COMPLETED })).toBe(false);
    expect(await mine.ws.dueRedactions(COMPLETED)).toEqual([]);
  },
  async noteDue({ mine, other }) {
    // The same action Id in both workspaces: rescheduled in mine alone; an older version read late adds nothing.
    expect(await mine.ws.noteDue('act-1', { dueAt: COMPLETED, modifiedAt: COMPLETED - DAY, via: 'poll' })).toBe(true);
    expect(await mine.ws.noteDue('act-1', { dueAt: COMPLETED + DAY, modifiedAt: COMPLETED - 2 * DAY, via: 'poll' })).toBe(false);
    expect(await mine.ws.noteDue('act-1', { dueAt: COMPLETED, modifiedAt: COMPLETED, via: 'slack' })).toBe(false);
    expect((await mine.ws.dueHistories(['act-1'])).get('act-1')).toEqual({
      actionId: 'act-1',
      firstDueAt: COMPLETED - DAY,
      lastDueAt: COMPLETED,
      reschedules: 1,
    });
    expect((await other.ws.dueHistories(['act-1'])).get('act-1')).toMatchObject({ firstDueAt: COMPLETED - DAY, reschedules: 0 });
  },
  async addNote({ mine, other }) {
    // The same action Id in both workspaces: a second note in mine alone, after the first.
    const note = await mine.ws.addNote({ actionId: 'act-1', verb: 'take', slackUserId: 'U2', careUserId: null, text: 'second' });
    expect(note).toMatchObject({ actionId: 'act-1', verb: 'take', slackUserId: 'U2', careUserId: null, text: 'second' });
    expect((await mine.ws.listNotes(['act-1'])).map((n) => n.text)).toEqual([`note of ${mine.team}`, 'second']);
    expect((await other.ws.listNotes(['act-1'])).map((n) => n.text)).toEqual([`note of ${other.team}`]);
  },
  async listNotes({ mine }) {
    expect((await mine.ws.listNotes(['act-1', 'act-2'])).map((n) => [n.actionId, n.text, n.slackUserId, n.careUserId])).toEqual([
      ['act-1', `note of ${mine.team}`, 'U1', 'care-1'],
    ]);
    expect(await mine.ws.listNotes(['act-2'])).toEqual([]);
  },
  async dropNotes({ mine, other }) {
    const [note] = await mine.ws.listNotes(['act-1']);
    expect(await mine.ws.dropNotes('act-1', note!.createdAt - 1)).toBe(0);
    expect(await mine.ws.dropNotes('act-1', note!.createdAt)).toBe(1);
    expect(await mine.ws.listNotes(['act-1'])).toEqual([]);
    expect(await other.ws.listNotes(['act-1'])).toHaveLength(1);
  },
  async dueHistories({ mine }) {
    expect([...(await mine.ws.dueHistories(['act-1', 'act-2'])).keys()]).toEqual(['act-1']);
  },
  async firstDueBetween({ mine }) {
    expect(await mine.ws.firstDueBetween(COMPLETED - DAY, COMPLETED, 10)).toEqual(['act-1']);
    expect(await mine.ws.firstDueBetween(COMPLETED - DAY + 1, COMPLETED + DAY, 10)).toEqual([]);
  },
  async addEpisodeAnswer({ mine, other }) {
    // The same person's same answer is live once per episode; another answer or episode is a row of its own.
    expect(await mine.ws.addEpisodeAnswer(ANSWER)).toBeNull();
    // The same press taken by several instances at once: one row.
    const raced = await Promise.all([1, 2, 3, 4].map(() => mine.ws.addEpisodeAnswer({ ...ANSWER, answer: 'join', at: COMPLETED + 2 })));
    expect(raced.filter((r) => r !== null)).toHaveLength(1);
    expect(await mine.ws.addEpisodeAnswer({ ...ANSWER, answer: 'on-it', at: COMPLETED + 1 })).toMatchObject({ answer: 'on-it', undoneAt: null });
    expect((await mine.ws.listEpisodeAnswers('act-1')).map((a) => a.answer)).toEqual(['cant', 'on-it', 'join']);
    expect((await other.ws.listEpisodeAnswers('act-1')).map((a) => a.answer)).toEqual(['cant']);
  },
  async listEpisodeAnswers({ mine }) {
    expect(await mine.ws.listEpisodeAnswers('act-1')).toEqual([
      expect.objectContaining({ slackUserId: 'U1', answer: 'cant', reason: 'busy', note: `note of ${mine.team}`, undoneAt: null }),
    ]);
    expect(await mine.ws.listEpisodeAnswers('act-2')).toEqual([]);
  },
  async episodeAnswersOf({ mine }) {
    const of = await mine.ws.episodeAnswersOf(['act-1', 'act-2']);
    expect([...of.keys()]).toEqual(['act-1']);
    expect(of.get('act-1')!.map((a) => a.note)).toEqual([`note of ${mine.team}`]);
  },
  async undoEpisodeAnswer({ mine, other }) {
    const [theirs] = await other.ws.listEpisodeAnswers('act-1');
    expect(await mine.ws.undoEpisodeAnswer(theirs!.id, COMPLETED + 5)).toBe(false);
    const [own] = await mine.ws.listEpisodeAnswers('act-1');
    expect(await mine.ws.undoEpisodeAnswer(own!.id, COMPLETED + 5)).toBe(true);
    expect(await mine.ws.undoEpisodeAnswer(own!.id, COMPLETED + 6)).toBe(false);
    expect((await mine.ws.listEpisodeAnswers('act-1'))[0]).toMatchObject({ undoneAt: COMPLETED + 5 });
    // Undone, the same answer may be given again.
    expect(await mine.ws.addEpisodeAnswer({ ...ANSWER, at: COMPLETED + 7 })).toMatchObject({ undoneAt: null });
  },
  async dropAnswerNotes({ mine }) {
    expect(await mine.ws.dropAnswerNotes('act-1')).toBe(1);
    expect(await mine.ws.dropAnswerNotes('act-1')).toBe(0);
    expect((await mine.ws.listEpisodeAnswers('act-1'))[0]).toMatchObject({ note: null, reason: 'busy', slackUserId: 'U1' });
  },
  async setTwoStaff({ mine }) {
    await mine.ws.setTwoStaff('act-1', false, 'UB');
    expect(await mine.ws.twoStaffMark('act-1')).toBe(false);
    await mine.ws.setTwoStaff('act-2', true, 'UB');
    expect(await mine.ws.twoStaffMark('act-2')).toBe(true);
  },
  async twoStaffMark({ mine }) {
    expect(await mine.ws.twoStaffMark('act-1')).toBe(true);
    expect(await mine.ws.twoStaffMark('act-9')).toBeNull();
  },
  async twoStaffMarked({ mine, other }) {
    await other.ws.setTwoStaff('act-2', true, 'UB');
    expect(await mine.ws.twoStaffMarked(['act-1', 'act-2', 'act-9'])).toEqual(new Set(['act-1']));
    await mine.ws.setTwoStaff('act-1', false, 'UB');
    expect(await mine.ws.twoStaffMarked(['act-1', 'act-2'])).toEqual(new Set());
    expect(await other.ws.twoStaffMarked(['act-1', 'act-2'])).toEqual(new Set(['act-1', 'act-2']));
  },
  async getCursor({ mine }) {
    for (const name of CURSORS) expect(await mine.ws.getCursor(name)).toBe(`${name} of ${mine.team}`);
  },
  async setCursor({ mine, other }) {
    await mine.ws.setCursor('poll', 'moved');
    expect(await mine.ws.getCursor('poll')).toBe('moved');
    expect(await other.ws.getCursor('poll')).toBe(`poll of ${other.team}`);
  },
  async listCursors({ mine }) {
    expect(await mine.ws.listCursors('po')).toEqual([{ name: 'poll', value: `poll of ${mine.team}` }]);
    expect(await mine.ws.listCursors('%')).toEqual([]);
  },
  async deleteCursor({ mine, other }) {
    expect(await mine.ws.deleteCursor('poll')).toBe(true);
    expect(await mine.ws.deleteCursor('poll')).toBe(false);
    expect(await mine.ws.getCursor('poll')).toBeNull();
    expect(await other.ws.getCursor('poll')).toBe(`poll of ${other.team}`);
  },
  async acquireLease({ mine, other }) {
    // Each workspace's lease is its own: its own holds it up, the other's does not.
    expect(await mine.ws.acquireLease('slack-history', 'someone else', DAY)).toBe(false);
    expect(await other.ws.acquireLease('gate', 'the other', DAY)).toBe(true);
    expect(await mine.ws.acquireLease('gate', 'someone else', DAY)).toBe(true);
  },
  async markRequestSeen({ mine, other }) {
    expect(await mine.ws.markRequestSeen(UNDO_KEY, { now: 0, expiresAt: DAY })).toBe(false);
    expect(await mine.ws.markRequestSeen('undo:new', { now: 0, expiresAt: DAY })).toBe(true);
    expect(await other.ws.markRequestSeen('undo:new', { now: 0, expiresAt: DAY })).toBe(true);
    // (the other's own key is checked unchanged after every case)
  },
  async forgetRequestSeen({ mine }) {
    expect(await mine.ws.forgetRequestSeen(UNDO_KEY)).toBe(true);
    expect(await mine.ws.forgetRequestSeen(UNDO_KEY)).toBe(false);
  },
  async appendAudit({ mine, other }) {
    expect(await mine.ws.appendAudit({ userId: 'U1', verb: 'link.approve' })).toMatchObject({ teamId: mine.team });
    // @ts-expect-error a workspace's store takes no team: one named anyway is overridden by its own
    expect(await mine.ws.appendAudit({ teamId: other.team, userId: 'U1', verb: 'link.approve' })).toMatchObject({ teamId: mine.team });
  },
  async listAudit({ mine }) {
    expect(teamsOf(await mine.ws.listAudit())).toEqual([mine.team]);
    expect(teamsOf(await mine.ws.listAudit({ verb: 'action.complete', actionIds: ['act-1'] }))).toEqual([mine.team]);
    expect(teamsOf(await mine.ws.listAudit({ actionId: 'act-1' }))).toEqual([mine.team]);
  },
  async personRecords({ mine }) {
    const records = await mine.ws.personRecords('U1');
    expect(records.identity_links!.map((r) => r.team_id)).toEqual([mine.team]);
    expect(records.deliveries!.map((r) => r.recipient)).toEqual([`user:${mine.team}/U1`]);
    expect(records.audit_log!.map((r) => r.team_id)).toEqual([mine.team]);
  },
  async erasePerson({ mine }) {
    const admins = { installerIsAdmin: true, remove: false, verb: 'admin.removed' };
    expect(await mine.ws.erasePerson('U1', { audit: { userId: 'UA', verb: 'person.erased' }, admins })).toMatchObject({
      links: 1,
      deliveries: 1,
    });
    expect(await mine.ws.getLinkBySlackUser('U1')).toBeNull();
  },
  async ping({ mine }) {
    await mine.ws.ping();
  },
  async probeWrite({ mine }) {
    await mine.ws.probeWrite();
  },
};

/** The methods of a workspace's store, read from the object (building one touches no database). */
const METHODS = Object.keys(storeForWorkspace({} as Store, 'T1')).sort();

export function workspaceIsolationContract(h: Harness): void {
  describe('a workspace store walked method by method (T1 and T12)', () => {
    it('is a plain object of methods, each written out (no pass-through to the whole store)', () => {
      const ws = storeForWorkspace({} as Store, 'T1');
      expect(Object.getPrototypeOf(ws)).toBe(Object.prototype);
      expect(ws[WORKSPACE_SCOPE]).toBe('T1');
      for (const name of METHODS) expect(typeof (ws as unknown as Record<string, unknown>)[name], name).toBe('function');
      // Nothing answers beyond the methods listed (a Proxy over the store would).
      expect((ws as unknown as Record<string, unknown>).getInstallation).toBeUndefined();
      expect((ws as unknown as Record<string, unknown>).acquireLease).toBeDefined();
    });

    it('has an isolation case for every method', () => {
      expect(METHODS.filter((name) => !(name in CASES)).map((name) => `${name}: no isolation case`)).toEqual([]);
    });

    for (const method of METHODS) {
      it(`${method} stays in its workspace`, async () => {
        const test = CASES[method];
        if (!test) throw new Error(`${method} has no isolation case in test/store/contract/workspace-isolation.ts: say how it stays inside its workspace`);
        for (const [me, them] of [
          ['T1', 'T12'],
          ['T12', 'T1'],
        ] as const) {
          const fresh = await h.fresh();
          const mineWs = storeForWorkspace(fresh.store, me);
          const otherWs = storeForWorkspace(fresh.store, them);
          const mine: Side = { team: me, ws: mineWs, ids: await seed(mineWs, me) };
          const other: Side = { team: them, ws: otherWs, ids: await seed(otherWs, them) };
          const c: CaseContext = { mine, other, store: fresh.store, fresh };
          const before = await rowsOf(c, h, them);
          await test(c);
          // Whatever it did in its own workspace, the other's rows are as they were.
          expect(await rowsOf(c, h, them), `${method} from ${me} changed ${them}'s rows`).toEqual(before);
        }
      });
    }
  });
}
