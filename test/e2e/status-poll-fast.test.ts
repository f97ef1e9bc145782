import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { poll } from './fixtures/jobs-support.js';
import { type Harness, startHarness, webAppAction } from './harness.js';

/**
 * The admins' Status with the default 5 s poll: a poll busy for half a minute
 * (fifty alerts at Slack's post a second) is not called late; one with no good
 * run for more than a minute is. Clock: Tuesday 10 March 2026, 08:00 in London (GMT).
 */
describe("a fast poll on an admin's Status", () => {
  let h: Harness;
  const homeText = () => {
    const home = h.fake.home('amelia');
    return home ? h.fake.visibleText(home, { viewer: 'amelia' }) : '';
  };
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
    h = await startHarness({ startAt: new Date('2026-03-10T08:00:00Z'), sandbox: { seed: 'empty' }, jobs: { pollSeconds: 5 } });
    await webAppAction(h, { task: 'Night check of the fire doors', due: new Date('2026-03-10T20:00:00Z') });
    await poll(h);
  });
  afterAll(async () => h?.close());

  it('45 s without a finished run (nine intervals) is not late', async () => {
    await h.setTime('2026-03-10T08:00:45Z');
    const text = await homeShowing('Changes poll');
    expect(text).toMatch(/:white_check_mark: last run \d+ s ago/);
    expect(text).not.toContain('late');
  });

  it('more than a minute without one is', async () => {
    await h.setTime('2026-03-10T08:02:00Z');
    const text = await homeShowing('late');
    expect(text).toContain(':warning: late: last run 2 min ago');
  });
});
