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
  it('every 5 s on a key of 10 requests a second: 2% of it, so a web-app change reaches Slack within seconds', () => {
    const c = loadConfig(good);
    expect(c.CARE_RATE_LIMIT).toBe(10);
    expect(c.COMPLETION_POLL_SECONDS).toBe(5);
    expect(idlePollCost(5, 10)).toEqual({ requestsPerSecond: 0.2, shareOfKey: 0.02 });
  });

  it("a deployment given only part of a shared key polls within 3% of what it has, not of the whole key's", () => {
    expect(loadConfig({ ...good, CARE_RATE_LIMIT: '5' }).COMPLETION_POLL_SECONDS).toBe(7);
    expect(loadConfig({ ...good, CARE_RATE_LIMIT: '2' }).COMPLETION_POLL_SECONDS).toBe(17);
    expect(loadConfig({ ...good, CARE_RATE_LIMIT: '1' }).COMPLETION_POLL_SECONDS).toBe(34);
    for (const rate of [1, 2, 3, 4, 5, 7, 10, 20, 50]) {
      const s = defaultPollSeconds(rate);
      expect(idlePollCost(s, rate).shareOfKey, `${rate}/s`).toBeLessThanOrEqual(POLL_SHARE_OF_KEY);
      // and no slower than it needs to be: a second less would cost more than the share (or go below 5 s)
      if (s > 5) expect(idlePollCost(s - 1, rate).shareOfKey, `${rate}/s`).toBeGreaterThan(POLL_SHARE_OF_KEY);
    }
    expect(defaultPollSeconds(100)).toBe(5); // never more often than every 5 s
  });

  it('COMPLETION_POLL_SECONDS set by the deployer wins; below 5 s it is refused with a clear line', () => {
    expect(loadConfig({ ...good, COMPLETION_POLL_SECONDS: '60' }).COMPLETION_POLL_SECONDS).toBe(60);
    expect(loadConfig({ ...good, COMPLETION_POLL_SECONDS: ' ' }).COMPLETION_POLL_SECONDS).toBe(5);
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
