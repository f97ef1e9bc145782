import { WebClient } from '@slack/web-api';
import { afterEach, describe, expect, it } from 'vitest';
import { type SlackFake, startSlackFake } from '../../../dev/slack-fake/index.js';
import { createSlackProfiles } from '../../../src/services/people/slack-profiles.js';

/** Slack profiles against the Slack fake over HTTP (its rate limits on), on a clock the test moves. */
describe('Slack profiles (users.info with a short memory)', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  async function parts() {
    const fake: SlackFake = await startSlackFake();
    cleanups.push(() => fake.close());
    let now = Date.parse('2026-11-24T10:00:00Z');
    const slack = new WebClient(fake.botToken, { slackApiUrl: fake.apiUrl, retryConfig: { retries: 0 } });
    const profiles = createSlackProfiles({ slack, defaultTz: 'Europe/London', now: () => now });
    return { fake, profiles, advance: (ms: number) => (now += ms), asked: () => fake.calls('users.info').length };
  }

  it('asks Slack once for someone it does not know for 30 seconds, then again; someone it knows, once in 10 minutes', async () => {
    const { fake, profiles, advance, asked } = await parts();
    await expect(profiles.get('U0NOBODY')).rejects.toThrow(/user_not_found/);
    await expect(profiles.get('U0NOBODY')).rejects.toThrow(/user_not_found/);
    expect(asked()).toBe(1);
    advance(31_000);
    await expect(profiles.get('U0NOBODY')).rejects.toThrow(/user_not_found/);
    expect(asked()).toBe(2);

    const alice = fake.user('alice')!.id;
    expect((await profiles.get(alice)).handle).toBe('alice');
    advance(5 * 60_000);
    await profiles.get(alice);
    expect(asked()).toBe(3);
  });

  it('never asks Slack about what is not a Slack user id (a team id, nothing, an object)', async () => {
    const { profiles, asked } = await parts();
    for (const wrong of ['T0SUN', '', 'U', undefined, { userId: 'U0AMELIA' }]) {
      await expect(profiles.get(wrong as string)).rejects.toThrow(/user_not_found/);
      expect(await profiles.tz(wrong as string)).toBe('Europe/London');
    }
    expect(asked()).toBe(0);
  });

  it('asks again at once after a failure that is not "no such person" (Slack was down)', async () => {
    const { fake, profiles, asked } = await parts();
    const alice = fake.user('alice')!.id;
    fake.faults.failNext('users.info', 1, { error: 'internal_error' });
    await expect(profiles.get(alice)).rejects.toThrow(/internal_error/);
    expect((await profiles.get(alice)).id).toBe(alice);
    expect(asked()).toBe(2);
  });
});
