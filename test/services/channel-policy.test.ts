import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { WebClient } from '@slack/web-api';
import { afterEach, describe, expect, it } from 'vitest';
import { createChannelPolicy } from '../../src/services/channel-policy.js';
import { type SlackFake, startSlackFake } from '../../dev/slack-fake/index.js';
import { type OpenedStore, openStore, scopedWorkspaceStore } from '../../src/store/index.js';

/** Where task text may appear, against the Slack fake's conversations.info and a real SQLite store. */
describe('task text in a channel', () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  async function parts(): Promise<{ fake: SlackFake; store: OpenedStore; policy: ReturnType<typeof createChannelPolicy> }> {
    const fake = await startSlackFake({ postRateLimit: false });
    cleanups.push(() => fake.close());
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'channel-policy-'));
    cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    const store = await openStore({ dataDir: dir });
    cleanups.push(() => store.close());
    const slack = new WebClient(fake.botToken, { slackApiUrl: fake.apiUrl, retryConfig: { retries: 0 } });
    return { fake, store, policy: createChannelPolicy({ slack, store: scopedWorkspaceStore(store, fake.teamId), ttlMs: 0 }) };
  }
  const digest = (teamId: string, channelId: string, showTaskText: boolean, channelPrivate: boolean) => ({
    teamId,
    channelId,
    time: '08:00',
    days: 'daily' as const,
    timeZone: 'Europe/London',
    showTaskText,
    postWhenEmpty: true,
    urgentAlerts: false,
    channelPrivate,
    setUpBy: 'U0AMELIA',
  });

  it('is shown in a public channel only when confirmed there, and not on an opt-in given while it was private', async () => {
    const { fake, store, policy } = await parts();
    const leads = fake.channel('#care-leads')!;
    expect(leads.is_private).toBe(true);
    await store.upsertSubscription(digest(fake.teamId, leads.id, true, true));
    expect(await policy.showTasksIn(leads.id)).toBe(true);
    // The channel is made public: everyone in the workspace could read it now.
    leads.is_private = false;
    expect(await policy.showTasksIn(leads.id)).toBe(false);
    // Confirmed in the public channel (as confirmShowTasks records it): shown.
    await store.upsertSubscription(digest(fake.teamId, leads.id, true, false));
    expect(await policy.showTasksIn(leads.id)).toBe(true);
  });
});
