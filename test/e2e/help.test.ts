import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { command, linkDirectly, startHarness, type Harness } from './harness.js';

describe('/care help through Slack', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => h?.close());

  it('answers a person privately with what they can do and that they are not linked yet', async () => {
    const answer = await h.driver.slash('sophie', '/care help', { channel: '#care-team' });
    expect(answer.status).toBe(200);
    await h.fake.waitFor(() => h.fake.ephemerals('sophie').length > 0);
    const text = h.fake.visibleText(h.fake.ephemerals('sophie').at(-1)!, { viewer: 'sophie' });
    expect(text).toContain('/care mine');
    expect(text).toContain('not linked');
    expect(text).not.toContain('Admin');
    expect(h.fake.messages('#care-team')).toHaveLength(0);
    expect(h.fake.ackStats().failures).toBe(0);
  });

  it('offers New action only to linked people; the others are shown how to link', async () => {
    const unlinked = (await command(h, 'priya', '/care help')).text;
    expect(unlinked).not.toContain('[New action]');
    expect(unlinked).toContain('To link: type /care link. If your Slack email is the one the care system has, you are linked at once');
    await linkDirectly(h, 'priya');
    const linked = (await command(h, 'priya', '/care help')).text;
    expect(linked).toContain('[New action]');
    expect(linked).not.toContain('To link:');
    // Placeholders read as words, not as Slack links that swallow them.
    expect(linked).toContain('/care find <words>');
  });

  it('shows admins the admin commands', async () => {
    await h.driver.slash('amelia', '/care', { channel: '#care-team' });
    await h.fake.waitFor(() => h.fake.ephemerals('amelia').length > 0);
    expect(h.fake.visibleText(h.fake.ephemerals('amelia').at(-1)!)).toContain('/care digest here');
  });

  it('refuses a forged request and changes nothing', async () => {
    const res = await h.driver.rawRequest('command=%2Fcare&text=help&user_id=U0SOPHIE', { signature: 'v0=deadbeef' });
    expect(res.status).toBe(401);
  });
});
