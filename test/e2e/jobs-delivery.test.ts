/**
 * Exactly-once delivery when Slack fails for a while: nothing is lost when a
 * DM cannot be opened or an address cannot be looked up, and a post that is
 * slow because of 429s never overlaps another attempt at the same delivery.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { command, linkDirectly, startHarness, webAppAction, type Harness } from './harness.js';
import { deliveryActionId, deliveryKind, poll } from './fixtures/jobs-support.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('delivery through passing Slack failures', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  const dms = (h: Harness, person: string, actionId: string) =>
    h.fake.dms(person).filter((m) => deliveryKind(m) === 'completion' && deliveryActionId(m) === actionId);
  const groupId = async (h: Harness, name: string) =>
    (await h.app.care.notificationGroups.collect({ attributes: ['_id', 'name'], per_page: 100, limit: 100 })).find((g) => g.name === name)!._id;
  /**
   * Half an hour later, another action changes: the poll that reads both moves its cursor past the
   * overlap window, so the poller never reads the earlier completion again.
   */
  const somethingElseChangesMuchLater = async (h: Harness) => {
    await h.setTime(new Date(h.now().getTime() + 30 * 60_000));
    await webAppAction(h, { task: 'Something else', due: new Date(h.now().getTime() + 3600_000) });
  };

  it('a DM that could not be opened is retried from the ledger, not lost', async () => {
    h = await startHarness({ sandbox: { seed: 'empty' } });
    await linkDirectly(h, 'priya');
    const nurses = await groupId(h, 'Heather Lodge nurses');
    await poll(h);
    const a = await webAppAction(h, { task: 'Check the controlled drugs register', due: new Date(h.now().getTime() + 3600_000), notify_on_complete: [nurses] });
    await h.control(`actions/${a._id}/complete`, {});
    await somethingElseChangesMuchLater(h);
    h.fake.faults.failNext('conversations.open', 1, 'internal_error');
    await poll(h);
    await poll(h);
    expect(dms(h, 'priya', a._id)).toHaveLength(1);
    const [row] = await h.app.store.listDeliveries({ kind: 'completion', actionId: a._id });
    expect(row).toMatchObject({ state: 'sent', lastError: 'internal_error' });
  });

  it('an email_to address whose lookup failed is looked up again, not dropped', async () => {
    h = await startHarness({ sandbox: { seed: 'empty' } });
    const seniors = await groupId(h, 'Willow Bank seniors'); // emails Amelia
    await poll(h);
    const a = await webAppAction(h, { task: 'Replace the fire door closer', due: new Date(h.now().getTime() + 3600_000), notify_on_complete: [seniors] });
    await h.control(`actions/${a._id}/complete`, {});
    await somethingElseChangesMuchLater(h);
    h.fake.faults.failNext('users.lookupByEmail', 5, { status: 500 });
    const first = await h.app.jobs.runOnce('changes-poll');
    expect(first.ran).toBe(true);
    h.fake.faults.clear();
    await poll(h);
    await poll(h);
    expect(dms(h, 'amelia', a._id)).toHaveLength(1);
    expect(h.logs.join('\n')).not.toContain('amelia.hughes@');
  });

  it('an address whose lookup keeps failing holds back no one else: the rest are told in the same poll, it is retried and told once', async () => {
    h = await startHarness({ sandbox: { seed: 'empty' } });
    await linkDirectly(h, 'sophie');
    await linkDirectly(h, 'priya');
    const seniors = await groupId(h, 'Willow Bank seniors'); // Sophie (linked) and Amelia (email_to)
    const nurses = await groupId(h, 'Heather Lodge nurses'); // Priya (linked)
    await poll(h);
    const due = new Date(h.now().getTime() + 3600_000);
    const a = await webAppAction(h, { task: 'Fix the lift alarm', due, notify_on_complete: [seniors] });
    await h.control(`actions/${a._id}/complete`, {});
    await h.setTime(new Date(h.now().getTime() + 2_000));
    const b = await webAppAction(h, { task: 'Restock the dressing trolley', due, notify_on_complete: [nurses] });
    await h.control(`actions/${b._id}/complete`, {});
    h.fake.faults.failNext('users.lookupByEmail', 1000, { status: 500 }); // Slack cannot look anyone up, all run long

    const first = await poll(h); // does not fail
    expect(first.completions).toBe(2);
    expect(dms(h, 'sophie', a._id)).toHaveLength(1);
    expect(dms(h, 'priya', b._id)).toHaveLength(1); // a later completion, to another group, is not held back
    const pending = (await h.app.store.listDeliveries({ kind: 'completion', actionId: a._id })).filter((d) => d.recipient.startsWith('email:'));
    expect(pending).toHaveLength(1);
    expect(pending[0]).toMatchObject({ state: 'failed', retryable: true });
    expect(pending[0]!.lastError).toContain('lookupByEmail');
    expect(pending[0]!.recipient).not.toContain('amelia'); // the address itself is not stored

    await poll(h); // still failing: retried, nobody told twice
    expect(dms(h, 'sophie', a._id)).toHaveLength(1);
    h.fake.faults.clear();
    await poll(h);
    await poll(h);
    expect(dms(h, 'amelia', a._id)).toHaveLength(1);
    expect(dms(h, 'sophie', a._id)).toHaveLength(1);
    expect(dms(h, 'priya', b._id)).toHaveLength(1);
    const settled = (await h.app.store.listDeliveries({ kind: 'completion', actionId: a._id })).filter((d) => d.recipient.startsWith('email:'));
    expect(settled[0]).toMatchObject({ state: 'sent' });
  });

  it('an urgent alert that failed is sent from the ledger, though the poller will not read the action again', async () => {
    // Claims go stale after 2 s here, so a post gets 1 s of attempts before it is recorded as failed.
    h = await startHarness({ sandbox: { seed: 'empty' }, jobs: { staleAfterMs: 2_000 } });
    await command(h, 'amelia', '/care digest here urgent-only', { channel: '#care-leads' });
    await poll(h);
    const a = await webAppAction(h, { task: 'Urgent: no hot water on the first floor', due: new Date(h.now().getTime() + 3600_000), urgent: true });
    await somethingElseChangesMuchLater(h);
    h.fake.faults.failNext('chat.postMessage', 3, 'internal_error');
    await poll(h);
    await poll(h);
    const alerts = h.fake.messages('#care-leads').filter((m) => deliveryKind(m) === 'urgent' && deliveryActionId(m) === a._id);
    expect(alerts).toHaveLength(1);
  });

  it('a post slowed by 429s ends before its claim can be taken over: one DM, not two', async () => {
    // Claims count as abandoned after 3 s here, so a poll 3.5 s after the click may take them over.
    h = await startHarness({ sandbox: { seed: 'empty' }, jobs: { staleAfterMs: 3_000 } });
    await linkDirectly(h, 'sophie');
    await linkDirectly(h, 'priya');
    const seniors = await groupId(h, 'Willow Bank seniors'); // Sophie (linked) and Amelia (email_to)
    await poll(h);
    const a = await webAppAction(h, {
      task: 'Book the window cleaner',
      due: new Date(h.now().getTime() + 3600_000),
      notify_on_complete: [seniors],
    });
    h.fake.faults.failNext('chat.postMessage', 4, { status: 429, error: 'ratelimited', retryAfterSec: 1 });
    // Priya completes it (the one who completes it is told nothing): the group's two members are told.
    expect((await command(h, 'priya', `/care done ${a.action_no}`)).text).toContain('Completed');
    await sleep(3_500);
    await poll(h);
    await h.fake.waitFor(() => dms(h!, 'sophie', a._id).length >= 1 && dms(h!, 'amelia', a._id).length >= 1, {
      timeoutMs: 15_000,
      message: 'the notices never arrived',
    });
    await sleep(2_500); // anything still retrying would have posted by now
    await poll(h);
    expect(dms(h, 'sophie', a._id)).toHaveLength(1);
    expect(dms(h, 'amelia', a._id)).toHaveLength(1);
    expect(h.fake.calls('chat.postMessage').filter((c) => c.status === 429).length).toBe(4);
  });

  it('never skips a completion when actions change while the poll is reading its pages', async () => {
    // 130 DMs to one person at once: more than Slack allows a channel (this test is about the poll's paging).
    h = await startHarness({ sandbox: { seed: 'empty' }, jobs: { overlapMs: 1_000 }, slackLimits: false });
    const hh = h;
    await linkDirectly(hh, 'priya');
    const nurses = await groupId(hh, 'Heather Lodge nurses');
    const made: { _id: string }[] = [];
    for (let i = 0; i < 150; i += 25) {
      made.push(
        ...(await Promise.all(
          Array.from({ length: 25 }, (_, k) =>
            webAppAction(hh, { task: `Round ${i + k}`, due: new Date(hh.now().getTime() + 3600_000), notify_on_complete: [nurses] }),
          ),
        )),
      );
    }
    await poll(hh);
    await hh.setTime(new Date(hh.now().getTime() + 10_000));
    // 110 completed before the poll; the other 40 (oldest `modified`) open, so they fill the start of page 1.
    for (let i = 0; i < 110; i += 22) await Promise.all(made.slice(i, i + 22).map((a) => hh.control(`actions/${a._id}/complete`, {})));
    // While the poll works through page 1 (posts are slowed), 20 of page 1's open actions are completed:
    // they move to the end of the order, and the actions behind them move up.
    hh.fake.faults.latency(25, { methods: ['chat.postMessage'] });
    let fired = false;
    const late: Promise<unknown>[] = [];
    const off = hh.fake.onChange((change) => {
      if (fired || change.kind !== 'message.posted') return;
      fired = true;
      late.push(
        (async () => {
          await hh.setTime(new Date(hh.now().getTime() + 10_000)); // well after the others, beyond the overlap
          await Promise.all(made.slice(110, 130).map((a) => hh.control(`actions/${a._id}/complete`, {})));
        })(),
      );
    });
    await poll(hh);
    off();
    await Promise.all(late);
    hh.fake.faults.clear();
    await poll(hh);
    const told = new Set(
      hh.fake
        .dms('priya')
        .filter((m) => deliveryKind(m) === 'completion')
        .map((m) => deliveryActionId(m)),
    );
    const missing = made.slice(0, 130).filter((a) => !told.has(a._id)).length;
    expect(missing).toBe(0);
    expect(hh.fake.dms('priya').filter((m) => deliveryKind(m) === 'completion')).toHaveLength(130);
  });
});
