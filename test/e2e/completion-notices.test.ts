import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workspaceKey } from '../../src/store/index.js';
import { command, linkDirectly, startHarness, webAppAction, type Harness } from './harness.js';

describe('completion notices', () => {
  let h: Harness;
  let groupId: string;
  beforeAll(async () => {
    h = await startHarness({ jobs: { pollSeconds: 60 } });
    await linkDirectly(h, 'sophie');
    const priyaCare = await linkDirectly(h, 'priya');
    await linkDirectly(h, 'amelia');
    // A notification group with Priya as a user and Amelia by email_to.
    const groups = await h.app.care.notificationGroups.collect({ attributes: ['_id', 'name', 'users', 'email_to'], per_page: 100, limit: 100 });
    const withPriya = groups.find((g) => g.users?.includes(priyaCare));
    expect(withPriya, 'the demo data has a group with Priya in it').toBeTruthy();
    groupId = withPriya!._id;
  });
  afterAll(async () => h?.close());

  it('DMs the group members once when someone completes through Slack', async () => {
    const sophieCare = (await h.app.store.getLinkBySlackUser(h.fake.teamId, 'U0SOPHIE'))!.careUserId;
    const action = await webAppAction(h, {
      task: 'Order more dressings',
      due: new Date(h.now().getTime() + 3600_000),
      assigned_to: sophieCare,
      notify_on_complete: [groupId],
    });
    const reply = await command(h, 'sophie', `/care done ${action.action_no}`);
    expect(reply.text).toContain('Completed');
    await h.fake.waitFor(() => h.fake.dms('priya').some((m) => m.text.includes(`#${action.action_no}`)), { timeoutMs: 10_000 });
    // The poller sees the same completion: it must not send it again.
    await h.app.jobs.runOnce('changes-poll');
    await h.app.jobs.runOnce('changes-poll');
    const notices = h.fake.dms('priya').filter((m) => m.text.includes(`#${action.action_no}`));
    expect(notices).toHaveLength(1);
    expect(h.fake.visibleText(notices[0]!, { viewer: 'priya' })).toContain('Order more dressings');
  });

  it('finds a completion made in the care web app by polling, and notifies again after reopen + complete', async () => {
    const action = await webAppAction(h, { task: 'Check the hoist', due: new Date(h.now().getTime() + 7200_000), notify_on_complete: [groupId] });
    await h.app.jobs.runOnce('changes-poll'); // cursor set; nothing complete yet
    await h.control(`actions/${action._id}/complete`, {});
    await h.app.jobs.runOnce('changes-poll');
    const mine = () => h.fake.dms('priya').filter((m) => m.text.includes(`#${action.action_no}`));
    expect(mine()).toHaveLength(1);
    await h.setTime(new Date(h.now().getTime() + 5_000)); // a later second, so the new completion time differs
    await h.control(`actions/${action._id}/reopen`, {});
    await h.control(`actions/${action._id}/complete`, {});
    await h.app.jobs.runOnce('changes-poll');
    expect(mine()).toHaveLength(2);
  });

  it('asks the care system nothing more when a poll a minute later re-reads a completion it told (the overlap)', async () => {
    const action = await webAppAction(h, { task: 'Restock the gloves', due: new Date(h.now().getTime() + 3600_000), notify_on_complete: [groupId] });
    await h.app.jobs.runOnce('changes-poll');
    await h.control(`actions/${action._id}/complete`, {});
    await h.app.jobs.runOnce('changes-poll');
    const mine = () => h.fake.dms('priya').filter((m) => m.text.includes(`#${action.action_no}`));
    expect(mine()).toHaveLength(1);
    // The next polls, a minute apart as scheduled: the completion is still inside their overlap.
    const groupReads = (stats: { byRoute: Record<string, Record<string, number>> }) =>
      Object.values(stats.byRoute['GET /v1/notification-groups'] ?? {}).reduce((a, b) => a + b, 0);
    await h.control('stats/reset', {});
    for (let i = 0; i < 2; i++) {
      await h.setTime(new Date(h.now().getTime() + 61_000));
      await h.app.jobs.runOnce('changes-poll');
    }
    expect(groupReads(await h.control('stats'))).toBe(0);
    expect(mine()).toHaveLength(1);
  });

  it('tells the group twice when an action is completed, reopened and completed again through Slack within one second', async () => {
    const action = await webAppAction(h, { task: 'Empty the sharps bin', due: new Date(h.now().getTime() + 3600_000), notify_on_complete: [groupId] });
    const mine = () => h.fake.dms('priya').filter((m) => m.text.includes(`#${action.action_no}`));
    // The start of a second on the care system's clock: the three clicks land in that same second.
    await h.setTime(new Date(Math.ceil(h.now().getTime() / 1000) * 1000));
    expect((await command(h, 'sophie', `/care done ${action.action_no}`)).text).toContain('Completed');
    expect((await command(h, 'sophie', `/care reopen ${action.action_no}`)).text).toContain('Reopened');
    expect((await command(h, 'sophie', `/care done ${action.action_no}`)).text).toContain('Completed');
    await h.fake.waitFor(() => mine().length >= 2 || undefined, { timeoutMs: 10_000, message: 'the second completion was not announced' });
    // The poller sees one completion time: it adds nothing.
    await h.app.jobs.runOnce('changes-poll');
    await h.app.jobs.runOnce('changes-poll');
    expect(mine()).toHaveLength(2);
  });
});

describe("completion notices when the care system's clock is behind the app's", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ sandbox: { seed: 'empty' }, appClockAheadMs: 30 * 60_000 });
    await linkDirectly(h, 'priya');
  });
  afterAll(async () => h?.close());

  it('loses no completion made in the web app after the first poll, though the care clock is 30 minutes behind', async () => {
    const nurses = (await h.app.care.notificationGroups.collect({ attributes: ['_id', 'name'], limit: 100 })).find(
      (g) => g.name === 'Heather Lodge nurses',
    )!._id;
    const action = await webAppAction(h, { task: 'Check the oxygen cylinders', due: new Date(h.now().getTime() + 3600_000), notify_on_complete: [nurses] });
    await h.app.jobs.runOnce('changes-poll'); // the first poll ever: the cursor is set
    await h.control(`actions/${action._id}/complete`, {});
    await h.app.jobs.runOnce('changes-poll');
    await h.app.jobs.runOnce('changes-poll');
    expect(h.fake.dms('priya').filter((m) => m.text.includes(`#${action.action_no}`))).toHaveLength(1);
  });
});

describe('completion notices when the first poll ever is cut short', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ sandbox: { seed: 'empty' }, jobs: { overlapMs: 1_000 } });
    await linkDirectly(h, 'priya');
  });
  afterAll(async () => h?.close());

  it('resumes from where the first poll started, so a completion made before it is not lost', async () => {
    const nurses = (await h.app.care.notificationGroups.collect({ attributes: ['_id', 'name'], limit: 100 })).find(
      (g) => g.name === 'Heather Lodge nurses',
    )!._id;
    const action = await webAppAction(h, { task: 'Check the fridge temperatures', due: new Date(h.now().getTime() + 3600_000), notify_on_complete: [nurses] });
    await h.control(`actions/${action._id}/complete`, {});
    // The first poll ever keeps where it starts, then dies before it is done (the care system stops answering
    // just as it reads the changes: its answers are slow, and fail from the moment the starting point is kept).
    await h.control('faults', { latencyMs: 1_500 });
    const running = h.app.jobs.runOnce('changes-poll');
    const kept = workspaceKey('changes-poll', h.fake.teamId);
    await h.fake.waitFor(async () => ((await h.app.store.getCursor(kept)) !== null ? true : undefined), { timeoutMs: 30_000 });
    await h.control('faults', { errorRate: 1, latencyMs: 0 });
    const first = await running;
    expect((first.result as { error?: string }).error).toBeTruthy();
    await h.control('faults', { reset: true });
    // Something else changes later, before the next poll (a minute on: a failed poll waits a minute, jobs/backoff.ts).
    await h.setTime(new Date(h.now().getTime() + 60_000));
    await webAppAction(h, { task: 'Something else', due: new Date(h.now().getTime() + 3600_000) });
    await h.app.jobs.runOnce('changes-poll');
    expect(h.fake.dms('priya').filter((m) => m.text.includes(`#${action.action_no}`))).toHaveLength(1);
  });
});
