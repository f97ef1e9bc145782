import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTION_ATTRIBUTES } from '../../src/services/action-model.js';
import { countRequests, poll } from './fixtures/jobs-support.js';
import { command, linkDirectly, startHarness, webAppAction, type Harness } from './harness.js';

/**
 * Answers from memory (src/services/read-cache/): identical reads share one
 * request, a repeated list costs nothing while nothing changed, a change made
 * through Slack shows in the very next answer, a change in the web app shows
 * once the changes feed (the poll, or this instance's own sync) has seen it,
 * and none of it is written to the store or the logs.
 *
 * Clocks: 2026-03-10 10:00 UTC = 10:00 in London.
 */
const START = new Date('2026-03-10T10:00:00Z');
const at = (iso: string) => new Date(iso);

describe('answers from memory, kept fresh by the changes feed and our own writes', () => {
  let h: Harness;
  let dataDir: string;
  let sophie: string;
  const a: Record<string, { _id: string; action_no: string }> = {};
  const stats = () => h.control('stats');
  const resetStats = () => h.control('stats/reset', {});
  const homeText = () => {
    const home = h.fake.home('U0SOPHIE');
    return home ? h.fake.visibleText(home, { viewer: 'sophie' }) : '';
  };
  const sync = async () => {
    const run = await h.app.jobs.runOnce('read-cache-sync');
    expect(run.ran).toBe(true);
    await h.app.reads.idle(); // what it reads ahead in the background is done
  };

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'care-read-cache-'));
    h = await startHarness({ startAt: START, sandbox: { seed: 'empty' }, dataDir });
    sophie = await linkDirectly(h, 'sophie');
    const oliver = await linkDirectly(h, 'oliver');
    await linkDirectly(h, 'priya');
    await linkDirectly(h, 'amelia');
    a.pharmacy = await webAppAction(h, { task: 'Chase the pharmacy about repeat prescriptions', due: at('2026-03-10T16:00:00Z'), assigned_to: sophie });
    a.supplies = await webAppAction(h, { task: 'Order incontinence supplies', due: at('2026-03-13T11:00:00Z'), assigned_to: sophie });
    a.doors = await webAppAction(h, { task: 'Night check of the fire doors', due: at('2026-03-11T02:00:00Z'), assigned_to: oliver });
    await sync(); // this instance starts following the changes feed: answers may come from memory from now on
  });
  afterAll(async () => {
    await h?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('ten identical reads at the same time are one request', async () => {
    await resetStats();
    const query = { filters: { q: 'pharmacy', completed: 'unset' as const }, attributes: [...ACTION_ATTRIBUTES], per_page: 100, limit: 100 };
    const answers = await Promise.all(Array.from({ length: 10 }, () => h.app.reads.actions.list(query)));
    expect(countRequests(await stats(), 'GET /v1/actions')).toBe(1);
    for (const answer of answers) expect(answer.map((x) => x._id)).toEqual([a.pharmacy!._id]);
  });

  it('four people searching the same words at once through Slack cost one request for the list', async () => {
    await resetStats();
    const replies = await Promise.all(['sophie', 'oliver', 'priya', 'amelia'].map((p) => command(h, p, '/care find supplies')));
    for (const r of replies) expect(r.text).toContain('Order incontinence supplies');
    expect(countRequests(await stats(), 'GET /v1/actions')).toBe(1);
  });

  it('a repeated /care mine with nothing changed asks the care API nothing', async () => {
    const first = await command(h, 'sophie', '/care mine');
    expect(first.text).toContain('Chase the pharmacy');
    await resetStats();
    const again = await command(h, 'sophie', '/care mine');
    expect((await stats()).total).toBe(0);
    expect(again.text).toBe(first.text);
    // The Home tab reads the same list: no action read either (only, the first time, the care users' names).
    await h.driver.openHome('sophie');
    await h.fake.waitFor(() => homeText().includes('Chase the pharmacy'), { timeoutMs: 5_000 });
    expect(countRequests(await stats(), 'GET /v1/actions')).toBe(0);
  });

  it('after a change made through Slack the next answers show it, never the state before', async () => {
    expect((await command(h, 'sophie', '/care mine')).text).toContain('Chase the pharmacy');
    const done = await command(h, 'sophie', `/care done ${a.pharmacy!.action_no}`);
    expect(done.text).toContain('Completed');
    // At once, with no poll in between: the list, the card and the Home tab (refreshed by the completion).
    const mine = await command(h, 'sophie', '/care mine');
    expect(mine.text).not.toContain('Chase the pharmacy');
    expect(mine.text).toContain('Order incontinence supplies');
    expect((await command(h, 'sophie', `/care show ${a.pharmacy!.action_no}`)).text).toMatch(/[Cc]ompleted/);
    await h.fake.waitFor(() => !homeText().includes('Chase the pharmacy') && homeText().includes('Order incontinence'), { timeoutMs: 5_000 });
    expect((await command(h, 'sophie', '/care due today')).text).not.toContain('Chase the pharmacy');

    await command(h, 'sophie', `/care reopen ${a.pharmacy!.action_no}`);
    expect((await command(h, 'sophie', '/care mine')).text).toContain('Chase the pharmacy');
    expect((await command(h, 'sophie', '/care due today')).text).toContain('Chase the pharmacy');
  });

  it('a change in the web app shows once the changes poll has seen it (at most one poll behind)', async () => {
    expect((await command(h, 'sophie', '/care mine')).text).not.toContain('Ring the GP');
    const gp = await webAppAction(h, { task: 'Ring the GP about the flu jabs', due: at('2026-03-10T17:00:00Z'), assigned_to: sophie });
    await h.control(`actions/${a.supplies!._id}/complete`, {});
    // Before the poll this instance cannot know: the answer still comes from memory.
    const before = await command(h, 'sophie', '/care mine');
    expect(before.text).not.toContain('Ring the GP');
    expect(before.text).toContain('Order incontinence supplies');
    await resetStats();
    const polled = await poll(h);
    await h.app.reads.idle();
    const after = await command(h, 'sophie', '/care mine');
    expect(after.text).toContain('Ring the GP about the flu jabs');
    expect(after.text).not.toContain('Order incontinence supplies');
    // The list was read again once the poll dropped it (in the background, or by this answer).
    expect(countRequests(await stats(), 'GET /v1/actions')).toBeGreaterThan(polled.requests);
    expect((await command(h, 'sophie', `/care show ${gp.action_no}`)).text).toContain('Ring the GP');
  });

  it('when no poll runs here (another instance holds it), its own sync after the poll tick brings the change', async () => {
    expect((await command(h, 'sophie', '/care mine')).text).toContain('Ring the GP');
    const tea = await webAppAction(h, { task: 'Taste the new tea menu', due: at('2026-03-10T15:00:00Z'), assigned_to: sophie });
    await h.setTime(new Date(h.now().getTime() + 50_000)); // no sync here within half of the 60 s interval
    await sync();
    expect((await command(h, 'sophie', '/care mine')).text).toContain('Taste the new tea menu');
    expect((await command(h, 'sophie', `/care show ${tea.action_no}`)).text).toContain('Taste the new tea menu');
  });

  it('when no sync began within two poll intervals, every answer asks the care API again', async () => {
    await command(h, 'sophie', '/care mine');
    await h.setTime(new Date(h.now().getTime() + 3 * 60_000));
    await resetStats();
    const mine = await command(h, 'sophie', '/care mine');
    expect(mine.text).toContain('Taste the new tea menu');
    expect(countRequests(await stats(), 'GET /v1/actions')).toBeGreaterThan(0);
    await resetStats();
    await command(h, 'sophie', '/care mine');
    expect(countRequests(await stats(), 'GET /v1/actions')).toBeGreaterThan(0);
  });

  it('writes nothing of what it holds to the store, and logs none of it', async () => {
    await sync();
    await command(h, 'sophie', '/care mine');
    await command(h, 'sophie', '/care find pharmacy');
    await command(h, 'oliver', `/care show ${a.doors!.action_no}`);
    expect(h.app.reads.actions.stats().records).toBeGreaterThan(0);
    const tasks = ['Chase the pharmacy', 'Order incontinence supplies', 'Night check of the fire doors', 'Ring the GP', 'Taste the new tea menu'];
    const files = (await readdir(dataDir)).filter((f) => f.startsWith('care-slack.sqlite'));
    expect(files).toContain('care-slack.sqlite');
    for (const f of files) {
      const bytes = await readFile(join(dataDir, f));
      for (const t of tasks) expect(bytes.includes(Buffer.from(t)), `${t} in ${f}`).toBe(false);
    }
    for (const line of h.logs) for (const t of tasks) expect(line).not.toContain(t);
  });
});
