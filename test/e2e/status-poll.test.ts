import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { poll } from './fixtures/jobs-support.js';
import { type Harness, startHarness, webAppAction } from './harness.js';

/**
 * The admins' Status after a quiet night: the changes poll ran on time and
 * found nothing new, which is no lag; only a poll that is itself late shows
 * how far behind it is. Clock: Monday 9 March 2026, 20:10 in London (GMT).
 */
describe("the changes poll on an admin's Status", () => {
  let h: Harness;
  const homeText = () => {
    const home = h.fake.home('amelia');
    return home ? h.fake.visibleText(home, { viewer: 'amelia' }) : '';
  };
  /** Opens Amelia's Home tab and waits for a publish that shows `words`. */
  const homeShowing = async (words: string) => {
    const before = h.fake.calls('views.publish').length;
    await h.driver.openHome('amelia');
    await h.fake.waitFor(() => h.fake.calls('views.publish').length > before && homeText().includes(words), {
      timeoutMs: 15_000,
      message: `Amelia's Home never showed "${words}":\n${homeText()}`,
    });
    return homeText();
  };

  beforeAll(async () => {
    h = await startHarness({ startAt: new Date('2026-03-09T20:10:00Z'), sandbox: { seed: 'empty' } });
    await poll(h);
    await h.setTime('2026-03-09T20:14:00Z');
    await webAppAction(h, { task: 'Night check of the fire doors', due: new Date('2026-03-10T02:00:00Z') });
    await poll(h);
  });
  afterAll(async () => h?.close());

  it('after a quiet night, says when the care system last changed, not a lag of hours', async () => {
    await h.setTime('2026-03-10T08:00:00Z');
    await poll(h); // on time, nothing new since 20:14
    const text = await homeShowing('Changes poll');
    expect(text).toMatch(/:white_check_mark: last run (just now|\d+ s ago): 1 request, \d+ changed\nno changes since yesterday at 8:14 PM/);
    expect(text).not.toContain('lag:');
  });

  it('when the poll itself is late, says so and how far behind it is', async () => {
    await h.setTime('2026-03-10T08:10:00Z'); // ten minutes of a 60 s poll without a run
    const text = await homeShowing('late');
    expect(text).toContain(':warning: late: last run 10 min ago');
    expect(text).toContain('lag: 12 h since the newest change seen');
    expect(text).not.toContain('no changes since');
  });

  it('a failed run keeps the time of the last good one: still late, and since when', async () => {
    await h.setTime('2026-03-10T08:12:00Z');
    await h.control('faults', { errorRate: 1, errorStatus: 500 });
    try {
      await h.app.jobs.runOnce('changes-poll');
    } finally {
      await h.control('faults', { reset: true });
    }
    const text = await homeShowing('last run failed');
    expect(text).toContain(':warning: late: last good run 12 min ago');
    expect(text).toContain('lag: 12 h since the newest change seen');
  });
});
