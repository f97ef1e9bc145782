import { describe, expect, it } from 'vitest';
import { type ConfigError, loadConfig } from '../../src/config.js';
import { defaultPollSeconds, idlePollCost, POLL_SHARE_OF_KEY } from '../../src/jobs/poll-interval.js';

const good = {
  SLACK_BOT_TOKEN: 'xoxb-1',
  SLACK_SIGNING_SECRET: 'sig',
  CARE_API_BASE_URL: 'http://127.0.0.1:4010/v1',
  CARE_ACCOUNT_ID: 'acc',
  CARE_API_KEY: 'key',
  CARE_API_SECRET: 'sec',
};

describe('how often the care system is asked what changed, by default', () => {
  it('every 6 s on a key of 10 requests a second: under 2% of it, so a web-app change reaches Slack within seconds', () => {
    const c = loadConfig(good);
    expect(c.CARE_RATE_LIMIT).toBe(10);
    expect(c.COMPLETION_POLL_SECONDS).toBe(6);
    expect(idlePollCost(6, 10).shareOfKey).toBeCloseTo(1 / 60, 10);
  });

  it("a deployment given only part of a shared key polls within 3% of what it has, not of the whole key's", () => {
    expect(loadConfig({ ...good, CARE_RATE_LIMIT: '5' }).COMPLETION_POLL_SECONDS).toBe(7);
    expect(loadConfig({ ...good, CARE_RATE_LIMIT: '2' }).COMPLETION_POLL_SECONDS).toBe(17);
    expect(loadConfig({ ...good, CARE_RATE_LIMIT: '1' }).COMPLETION_POLL_SECONDS).toBe(34);
    for (const rate of [1, 2, 3, 4, 5, 7, 10, 20, 50]) {
      const s = defaultPollSeconds(rate);
      expect(idlePollCost(s, rate).shareOfKey, `${rate}/s`).toBeLessThanOrEqual(POLL_SHARE_OF_KEY);
      // and no slower than it needs to be: a second less would cost more than the share (or go below 6 s)
      if (s > 6) expect(idlePollCost(s - 1, rate).shareOfKey, `${rate}/s`).toBeGreaterThan(POLL_SHARE_OF_KEY);
    }
    expect(defaultPollSeconds(100)).toBe(6); // by default never more often than every 6 s
    expect(defaultPollSeconds(10)).toBe(6);
  });

  it('COMPLETION_POLL_SECONDS set by the deployer wins; below 5 s it is refused with a clear line', () => {
    expect(loadConfig({ ...good, COMPLETION_POLL_SECONDS: '60' }).COMPLETION_POLL_SECONDS).toBe(60);
    expect(loadConfig({ ...good, COMPLETION_POLL_SECONDS: '5' }).COMPLETION_POLL_SECONDS).toBe(5);
    expect(loadConfig({ ...good, COMPLETION_POLL_SECONDS: ' ' }).COMPLETION_POLL_SECONDS).toBe(6);
    for (const [bad, line] of [
      ['4', 'COMPLETION_POLL_SECONDS must be at least 5'],
      ['2.5', 'COMPLETION_POLL_SECONDS must be a whole number of seconds'],
      ['soon', 'COMPLETION_POLL_SECONDS must be a whole number of seconds'],
    ] as const) {
      let err: unknown;
      try {
        loadConfig({ ...good, COMPLETION_POLL_SECONDS: bad });
      } catch (e) {
        err = e;
      }
      expect((err as ConfigError).problems, bad).toEqual([line]);
    }
  });
});
