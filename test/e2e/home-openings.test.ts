import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countRequests, poll } from './fixtures/jobs-support.js';
import { linkDirectly, startHarness, webAppAction, type Harness } from './harness.js';

/**
 * A shift change: people open the Home tab again and again. Each person's tab
 * is published at most once per quiet time (5 s): openings inside it that find
 * nothing changed publish nothing; one that finds a change brings one publish
 * at the end of the quiet time, with the change in it.
 *
 * Clocks: 2026-03-10 10:00 UTC = 10:00 in London.
 */
const START = new Date('2026-03-10T10:00:00Z');

describe('Home tab openings at a shift change', () => {
  let h: Harness;
  let sophie: string;
  const publishesFor = (user: string) => h.fake.calls('views.publish').filter((c) => c.args.user_id === user).length;
  const homeText = () => {
    const home = h.fake.home('U0SOPHIE');
    return home ? h.fake.visibleText(home, { viewer: 'sophie' }) : '';
  };
  const settle = (ms: number) => new Promise((r) => setTimeout(r, ms));

  beforeAll(async () => {
    h = await startHarness({ startAt: START, sandbox: { seed: 'empty' } });
    sophie = await linkDirectly(h, 'sophie');
    await webAppAction(h, { task: 'Chase the pharmacy about repeat prescriptions', due: new Date('2026-03-10T16:00:00Z'), assigned_to: sophie });
    expect((await h.app.jobs.runOnce('read-cache-sync')).ran).toBe(true); // answers may come from memory from now on
    await h.app.reads.idle();
  });
  afterAll(async () => h?.close());

  it('five openings in a row publish once and read no action twice', async () => {
    const before = publishesFor('U0SOPHIE');
    await h.control('stats/reset', {});
    for (let i = 0; i < 5; i++) await h.driver.openHome('sophie');
    await h.fake.waitFor(() => homeText().includes('Chase the pharmacy'), { timeoutMs: 5_000 });
    await settle(500);
    expect(publishesFor('U0SOPHIE') - before).toBe(1);
    expect(countRequests(await h.control('stats'), 'GET /v1/actions')).toBe(0);
  });

  it('an opening that finds a change inside the quiet time brings one publish at its end, with the change', async () => {
    const before = publishesFor('U0SOPHIE');
    await webAppAction(h, { task: 'Order incontinence supplies', due: new Date('2026-03-10T17:00:00Z'), assigned_to: sophie });
    await poll(h); // the changes poll tells this instance's cache
    await h.app.reads.idle();
    await h.driver.openHome('sophie');
    await h.driver.openHome('sophie');
    await settle(300);
    expect(publishesFor('U0SOPHIE') - before).toBe(0); // not yet: the last publish was a moment ago
    await h.fake.waitFor(() => homeText().includes('Order incontinence supplies'), { timeoutMs: 10_000, message: 'the change never reached the Home tab' });
    await settle(500);
    expect(publishesFor('U0SOPHIE') - before).toBe(1);
  });
});
