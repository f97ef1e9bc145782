/**
 * The admins' Home tab: a Team section (per carer, the unassigned queue, the
 * channels and their next posts) and a Status section (care API, changes poll,
 * deliveries with Retry, digests, version), after the person's own list.
 * Non-admins never see either. Clocks: Tuesday 2026-03-10 10:00 in London.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { careUserIdByEmail, command, linkDirectly, startHarness, webAppAction, type Harness } from './harness.js';
import { countRequests, deliveryActionId, deliveryKind, poll } from './fixtures/jobs-support.js';

const START = new Date('2026-03-10T10:00:00Z');
const at = (iso: string) => new Date(iso);
const VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

describe("an admin's Home tab", () => {
  let h: Harness;
  let nurses: string;
  const homeText = (user: string) => {
    const home = h.fake.home(user);
    return home ? h.fake.visibleText(home, { viewer: user }) : '';
  };
  const homeBlocks = (user: string) => (h.fake.home(user)?.blocks ?? []) as { type: string; block_id?: string }[];
  /** Opens the Home tab and waits for a publish that satisfies `ready`. */
  const openHome = async (user: string, ready: (text: string) => boolean) => {
    const before = h.fake.calls('views.publish').length;
    await h.driver.openHome(user);
    await h.fake.waitFor(() => h.fake.calls('views.publish').length > before && ready(homeText(user)), { timeoutMs: 15_000 });
    return homeText(user);
  };
  /** "12 sent · 0 pending · 2 failed" on the admin's Home. */
  const deliveryCounts = (text: string) => {
    const m = /(\d+) sent · (\d+) pending · (?::x: )?\*?(\d+)\*? failed/.exec(text);
    if (!m) throw new Error(`no delivery counts in:\n${text}`);
    return { sent: Number(m[1]), pending: Number(m[2]), failed: Number(m[3]) };
  };

  beforeAll(async () => {
    h = await startHarness({ startAt: START, sandbox: { seed: 'empty' } });
    const sophie = await linkDirectly(h, 'sophie');
    const priya = await linkDirectly(h, 'priya');
    const oliver = await linkDirectly(h, 'oliver');
    const marek = await careUserIdByEmail(h, 'marek.nowak@brightwatercare.example'); // a carer with no Slack account
    nurses = (await h.app.care.notificationGroups.collect({ attributes: ['_id', 'name'], per_page: 100, limit: 100 })).find(
      (g) => g.name === 'Heather Lodge nurses',
    )!._id;
    const seed: Parameters<typeof webAppAction>[1][] = [
      // Sophie: 2 overdue, 1 due today, 1 later this week (not counted), 1 overdue but completed (not counted).
      { task: 'Sophie overdue one', due: at('2026-03-09T09:00:00Z'), assigned_to: sophie },
      { task: 'Sophie overdue two', due: at('2026-03-10T08:00:00Z'), assigned_to: sophie },
      { task: 'Sophie today', due: at('2026-03-10T15:00:00Z'), assigned_to: sophie },
      { task: 'Sophie Thursday', due: at('2026-03-12T15:00:00Z'), assigned_to: sophie },
      // Oliver: 1 overdue. Priya: 2 due today. Marek (care name only): 1 due today.
      { task: 'Oliver overdue', due: at('2026-03-08T12:00:00Z'), assigned_to: oliver },
      { task: 'Priya today one', due: at('2026-03-10T12:00:00Z'), assigned_to: priya },
      { task: 'Priya today two', due: at('2026-03-10T23:30:00Z'), assigned_to: priya },
      { task: 'Marek today', due: at('2026-03-10T18:00:00Z'), assigned_to: marek },
      // Unassigned: 1 overdue, 1 urgent due today, 1 due Friday; one in three weeks is outside the view.
      { task: 'Unassigned overdue', due: at('2026-03-09T16:00:00Z'), assigned_to: null },
      { task: 'Unassigned urgent today', due: at('2026-03-10T17:00:00Z'), assigned_to: null, urgent: true },
      { task: 'Unassigned Friday', due: at('2026-03-13T10:00:00Z'), assigned_to: null },
      { task: 'Unassigned in three weeks', due: at('2026-03-31T10:00:00Z'), assigned_to: null },
    ];
    for (const a of seed) await webAppAction(h, a);
    const done = await webAppAction(h, { task: 'Sophie done already', due: at('2026-03-09T10:00:00Z'), assigned_to: sophie });
    await h.control(`actions/${done._id}/complete`, {});
    await command(h, 'amelia', '/care digest here 08:00', { channel: '#care-team' });
    await command(h, 'amelia', '/care route Heather Lodge nurses <#C0LEADS|care-leads>', { channel: '#care-team' });
  });
  afterAll(async () => h?.close());

  it('a carer who is not an admin sees neither section', async () => {
    const sophie = await openHome('sophie', (t) => t.includes('Sophie overdue one'));
    expect(sophie).not.toContain('Team');
    expect(sophie).not.toContain('Status');
    expect(sophie).not.toContain('unassigned');
    const visitor = await openHome('visitor', (t) => t.includes('not linked'));
    expect(visitor).not.toContain('Team');
    expect(visitor).not.toContain('Status');
  });

  it('shows the admin each carer’s overdue and due-today counts, the unassigned queue with Take it, and the channels', async () => {
    const text = await openHome('amelia', (t) => t.includes('By carer'));
    // Amelia has no care link: her own list is not there, the admin sections are.
    expect(text).toContain('not linked');
    expect(text).toContain('4 overdue · 5 due today · 3 unassigned'); // carers' and unassigned together
    const carers = text.slice(text.indexOf('By carer'), text.indexOf('Unassigned:'));
    expect(carers.split('\n').slice(1).filter(Boolean)).toEqual([
      ':warning: @sophie: 2 overdue · 1 due today',
      '[Reassign work]',
      ':warning: @oliver: 1 overdue',
      '[Reassign work]',
      ':calendar: @priya: 2 due today',
      '[Reassign work]',
      ':calendar: Marek Nowak: 1 due today',
      '[Reassign work]',
    ]);
    expect(text).toContain('Unassigned: 3 due by Mar 17, 2026 (1 overdue, 1 due today)');
    // Urgent first, then the longest overdue, then due soonest; each with Take it (value: the action's Id).
    const queue = text.slice(text.indexOf('Unassigned:'), text.indexOf('Channels'));
    const order = ['Unassigned urgent today', 'Unassigned overdue', 'Unassigned Friday'].map((t) => queue.indexOf(t));
    expect(order.every((i, n) => i > 0 && (n === 0 || i > order[n - 1]!))).toBe(true);
    expect(queue).not.toContain('three weeks');
    const takeIt = (h.fake.home('amelia')!.blocks as { block_id?: string; accessory?: { action_id?: string; value?: string } }[]).filter(
      (b) => b.accessory?.action_id === 'care_take',
    );
    expect(takeIt).toHaveLength(3);
    for (const b of takeIt) expect(b.block_id).toBe(`team_unassigned_${b.accessory!.value}`);
    expect(text).toContain('#care-team: digest 08:00 every day (Europe/London), next tomorrow at 8:00 AM');
    expect(text).toContain('#care-leads: completions of Heather Lodge nurses as they happen');
    expect(text).toContain(`Version\n${VERSION}`);
  });

  it('an admin opening the Home tab again reads the team from memory while nothing changed, and sees a change made in Slack at once', async () => {
    const run = await h.app.jobs.runOnce('read-cache-sync'); // this instance follows the changes feed: answers may come from memory
    expect(run.ran).toBe(true);
    const admin = { teamId: h.fake.state.team.id, userId: h.fake.user('amelia')!.id };
    const first = await h.app.deps.teamView.read(admin);
    await h.app.reads.idle();
    await h.control('stats/reset', {});
    const again = await h.app.deps.teamView.read(admin);
    expect(countRequests(await h.control('stats'), 'GET /v1/actions')).toBe(0);
    expect(JSON.stringify(again)).toBe(JSON.stringify(first));
  });

  it('Status shows a failed delivery with its reason; Retry from the Home sends it once and the numbers change', async () => {
    await poll(h); // the first poll: assignment DMs of the actions above
    const a = await webAppAction(h, { task: 'Check the oxygen cylinders', due: at('2026-03-10T16:00:00Z'), notify_on_complete: [nurses] });
    await h.control(`actions/${a._id}/complete`, {});
    h.fake.faults.failNext('chat.postMessage', 1, 'account_inactive'); // Priya's DM (people first, then routed channels)
    await poll(h);
    const priyaNotices = () => h.fake.dms('priya').filter((m) => deliveryKind(m) === 'completion' && deliveryActionId(m) === a._id);
    expect(priyaNotices()).toHaveLength(0);
    const row = (await h.app.store.listDeliveries({ kind: 'completion', actionId: a._id })).find((d) => d.recipient === 'user:T0CARE/U0PRIYA')!;
    expect(row).toMatchObject({ state: 'failed', retryable: false, lastError: 'account_inactive' });

    const before = await openHome('amelia', (t) => t.includes('account_inactive'));
    expect(before).toContain('Completion notice to @priya: account_inactive');
    // Opened within 5 s of its last publish, the tab is published at the end of those 5 s (home-publisher.ts).
    expect(before).toMatch(
      /Changes poll \(every 60 s\)\n:white_check_mark: last run (just now|[1-9] s ago): \d+ requests?, \d+ changed\nno changes since today at /,
    );
    const counts = deliveryCounts(before);
    expect(counts.failed).toBe(1);
    const retry = homeBlocks('amelia').find((b) => b.block_id === `status_failed_${row.id}`) as { accessory?: { text: { text: string } } };
    expect(retry.accessory?.text.text).toBe('Retry');

    await h.driver.dispatchOn('amelia', { home: true }, `status_failed_${row.id}`, 'care_delivery_retry');
    await h.fake.waitFor(() => !homeText('amelia').includes('account_inactive'), { timeoutMs: 15_000 });
    expect(priyaNotices()).toHaveLength(1);
    expect(deliveryCounts(homeText('amelia'))).toEqual({ sent: counts.sent + 1, pending: counts.pending, failed: 0 });
    expect(await h.app.store.getDeliveryById(row.id)).toMatchObject({ state: 'sent' });

    // A second click on a Home that was not refreshed yet: already sent, nothing posted again.
    const publishes = h.fake.calls('views.publish').length;
    await h.driver.sendPayload('block_actions', 'care_delivery_retry', 'U0AMELIA', retryClick('U0AMELIA', row.id));
    await h.fake.waitFor(() => h.fake.calls('views.publish').length > publishes, { timeoutMs: 15_000 });
    expect(priyaNotices()).toHaveLength(1);
    expect((await h.app.store.listAudit({ verb: 'delivery.retry' })).map((e) => [e.userId, e.details.deliveryId])).toEqual([['U0AMELIA', row.id]]);
  });

  it('a Retry from someone who is not an admin is refused and sends nothing', async () => {
    const a = await webAppAction(h, { task: 'Restock the dressings', due: at('2026-03-10T16:30:00Z'), notify_on_complete: [nurses] });
    await h.control(`actions/${a._id}/complete`, {});
    h.fake.faults.failNext('chat.postMessage', 1, 'account_inactive');
    await poll(h);
    const row = (await h.app.store.listDeliveries({ kind: 'completion', actionId: a._id })).find((d) => d.recipient === 'user:T0CARE/U0PRIYA')!;
    expect(row.state).toBe('failed');
    await h.driver.sendPayload('block_actions', 'care_delivery_retry', 'U0SOPHIE', retryClick('U0SOPHIE', row.id));
    await h.fake.waitFor(() => h.fake.dms('sophie').some((m) => m.text.includes('Only admins')), { timeoutMs: 10_000 });
    expect(await h.app.store.getDeliveryById(row.id)).toMatchObject({ state: 'failed', lastError: 'account_inactive', retryable: false });
  });

  /** A click on Retry on someone's Home tab, as Slack sends it. */
  const retryClick = (user: string, deliveryId: number) => ({
    type: 'block_actions',
    user: { id: user, team_id: 'T0CARE' },
    team: { id: 'T0CARE', domain: 'brightwater' },
    api_app_id: 'A0CAREAPP',
    trigger_id: h.fake.issueTrigger(user),
    container: { type: 'view', view_id: 'V0HOME' },
    view: { id: 'V0HOME', type: 'home', blocks: [] },
    actions: [{ type: 'button', action_id: 'care_delivery_retry', block_id: `status_failed_${deliveryId}`, value: String(deliveryId), action_ts: '1' }],
  });
});

describe("an admin's Home tab with a big care home's numbers", () => {
  // Due times in the seed are on the quarter hour: at 10:05 nothing is due while the test runs.
  const BIG_START = new Date('2026-03-10T10:05:00Z');
  let h: Harness;
  const homeText = (user: string) => {
    const home = h.fake.home(user);
    return home ? h.fake.visibleText(home, { viewer: user }) : '';
  };

  beforeAll(async () => {
    h = await startHarness({ startAt: BIG_START, sandbox: { seed: 3000 } });
    await linkDirectly(h, 'amelia');
    await linkDirectly(h, 'sophie');
    // 40 failed deliveries, 30 channels with digests and 30 with routes.
    for (let i = 0; i < 40; i++) {
      const c = await h.app.store.claimDelivery(
        { kind: 'completion', actionId: `a${i}`, occurrence: '2026-03-10T09:00:00Z', recipient: 'user:T0CARE/U0SOPHIE' },
        { holder: 'test', staleAfterMs: 60_000 },
      );
      await h.app.store.markFailed(c.delivery.id, `gave up after 5 attempts; last error: ratelimited (${i})`, { retryable: false });
    }
    for (let i = 0; i < 30; i++) {
      const channelId = `C0BIG${String(i).padStart(3, '0')}`;
      await h.app.store.upsertSubscription({
        teamId: 'T0CARE',
        channelId,
        time: '08:00',
        days: 'weekdays',
        timeZone: 'Europe/London',
        filters: {},
        showTaskText: false,
        postWhenEmpty: true,
        urgentAlerts: false,
        channelPrivate: false,
        setUpBy: 'U0AMELIA',
      });
      await h.app.store.upsertRoute({ teamId: 'T0CARE', groupId: `g${i}`, groupName: `Group number ${i}`, channelId, setUpBy: 'U0AMELIA' });
    }
  });
  afterAll(async () => h?.close());

  it('stays inside the 100-block limit with the carer’s own list first and its pages still working, and the counts are the care system’s', async () => {
    await h.driver.openHome('amelia');
    await h.fake.waitFor(() => homeText('amelia').includes('By carer'), { timeoutMs: 30_000 });
    const blocks = h.fake.home('amelia')!.blocks as unknown[];
    expect(blocks.length).toBeLessThanOrEqual(100);
    const text = homeText('amelia');
    // Her own list comes first and pages on; the admin sections follow it.
    expect(text.indexOf('Overdue (')).toBeGreaterThan(0);
    expect(text.indexOf('Show more (')).toBeGreaterThan(text.indexOf('Overdue ('));
    expect(text.indexOf('\nTeam\n')).toBeGreaterThan(text.indexOf('Show more ('));
    expect(text.indexOf('\nStatus\n')).toBeGreaterThan(text.indexOf('\nTeam\n'));
    expect(text).toMatch(/…and \d+ more unassigned\./);
    expect(text).toContain('…and 35 more failed in the last 24 h (newest shown).');
    expect(text).toMatch(/…and \d+ more channels: \/care digest list, \/care routes\./);
    expect(text).toContain('0 sent · 0 pending · :x: 40 failed');

    // The counts, worked out here from every open action the care system has (London: GMT in March).
    const now = h.now().getTime();
    const tomorrow = Date.parse('2026-03-11T00:00:00Z');
    const open = await h.app.care.actions.collect({
      filters: { completed: 'no', end_date: '2026-03-17' },
      attributes: ['_id', 'due', 'assigned_to'],
      per_page: 100,
      limit: 10_000,
    });
    const due = (a: { due?: string | null }) => Date.parse(`${a.due!.replace(' ', 'T')}Z`);
    const overdue = open.filter((a) => due(a) < now);
    const today = open.filter((a) => due(a) >= now && due(a) < tomorrow);
    const unassigned = open.filter((a) => !a.assigned_to);
    expect(overdue.length).toBeGreaterThan(100);
    expect(text).toContain(`${overdue.length} overdue · ${today.length} due today · ${unassigned.length} unassigned`);
    const sophie = await careUserIdByEmail(h, 'sophie.marsh@brightwatercare.example');
    const mine = (list: typeof open) => list.filter((a) => a.assigned_to === sophie).length;
    const parts = [mine(overdue) ? `${mine(overdue)} overdue` : '', mine(today) ? `${mine(today)} due today` : ''].filter(Boolean).join(' · ');
    expect(text).toContain(`@sophie: ${parts}`);

    // The next page of her list: the sections are still there, still inside the limit.
    const first = text.slice(text.indexOf('Overdue ('), text.indexOf('Show more ('));
    await h.driver.clickButton('amelia', { home: true, text: /\[(Show more \(\d+ more\))\]/.exec(text)![1]! });
    await h.fake.waitFor(() => homeText('amelia').includes('Back to the top') && homeText('amelia').includes('By carer'), { timeoutMs: 30_000 });
    expect((h.fake.home('amelia')!.blocks as unknown[]).length).toBeLessThanOrEqual(100);
    expect(homeText('amelia')).not.toContain(first.split('\n')[1]!);
    expect(homeText('amelia')).toContain('\nStatus\n');
  });
});
