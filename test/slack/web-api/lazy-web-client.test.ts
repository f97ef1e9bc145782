/**
 * Issue 36, memory per idle workspace: a workspace's Slack clients are made on their first use (an idle one may
 * never use them), and then behave as the WebClient itself: its calls reach Slack, its methods and fields are its.
 */
import { WebClient } from '@slack/web-api';
import { afterEach, describe, expect, it } from 'vitest';
import { demoWorkspace, type SlackFake, startSlackFake } from '../../../dev/slack-fake/index.js';
import { lazyWebClient } from '../../../src/slack/web-api/lazy-web-client.js';

describe('a Slack client made on its first use', () => {
  let fake: SlackFake | undefined;
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
  });

  it('is not made until something of it is used; then it is the WebClient, made once', async () => {
    fake = await startSlackFake({ workspaces: [demoWorkspace()] });
    const token = fake.botToken;
    let made = 0;
    const client = lazyWebClient(() => {
      made++;
      return new WebClient(token, { slackApiUrl: fake!.apiUrl });
    });
    const holder = { slack: client };
    expect(holder.slack).toBe(client);
    expect(made).toBe(0);

    const who = await client.auth.test();
    expect(who.ok).toBe(true);
    expect(who.team_id).toBe(fake.teamId);
    expect(made).toBe(1);
    const posted = await client.chat.postMessage({ channel: '#care-team', text: 'hello' });
    expect(posted.ok).toBe(true);
    expect(client.token).toBe(token);
    expect(client instanceof WebClient).toBe(true);
    expect(typeof client.apiCall).toBe('function');
    expect(made).toBe(1);
  });
});
