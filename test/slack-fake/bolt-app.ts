import { App, LogLevel } from '@slack/bolt';
import { WebClient, LogLevel as WebLogLevel } from '@slack/web-api';
import type { AddressInfo } from 'node:net';
import { createSlackDriver, type SlackDriver, type SlackFake } from '../../dev/slack-fake/index.js';

export const SIGNING_SECRET = 'test-signing-secret';

/** A WebClient against the fake, retries off (a 429 would otherwise pause it for seconds). */
export function webClient(fake: SlackFake, token: string = fake.botToken, extra: { rejectRateLimitedCalls?: boolean } = {}): WebClient {
  return new WebClient(token, { slackApiUrl: fake.apiUrl, retryConfig: { retries: 0 }, logger: quietLogger, ...extra });
}

/** WebClient prints Slack's `[ERROR]` response messages; the tests read them from the error instead. */
const quietLogger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  setLevel: () => undefined,
  getLevel: () => WebLogLevel.ERROR,
  setName: () => undefined,
};

/** A tiny real Bolt app wired to the fake, listening on a free loopback port. */
export async function startBoltApp(
  fake: SlackFake,
  register: (app: App) => void,
  driverOptions: { ackTimeoutMs?: number; waitTimeoutMs?: number } = {},
): Promise<{ app: App; driver: SlackDriver; eventsUrl: string; stop: () => Promise<void> }> {
  const app = new App({
    token: fake.botToken,
    signingSecret: SIGNING_SECRET,
    clientOptions: { slackApiUrl: fake.apiUrl, retryConfig: { retries: 0 } },
    logLevel: LogLevel.ERROR,
  });
  register(app);
  // Bolt 5's HTTPReceiver.start takes net.ListenOptions and resolves with the http.Server.
  const server = await app.start({ port: 0, host: '127.0.0.1' });
  const { port } = server.address() as AddressInfo;
  const eventsUrl = `http://127.0.0.1:${port}/slack/events`;
  const driver = createSlackDriver({ fake, eventsUrl, signingSecret: SIGNING_SECRET, teamId: fake.teamId, ...driverOptions });
  return {
    app,
    driver,
    eventsUrl,
    stop: async () => {
      const stopped = app.stop();
      server.closeAllConnections();
      await stopped;
    },
  };
}

/** The Slack error code a Web API call failed with (fails the test if it did not fail). */
export async function errorOf(call: Promise<unknown>): Promise<string> {
  try {
    await call;
  } catch (e) {
    const data = (e as { data?: { error?: string } }).data;
    if (data?.error) return data.error;
    throw e;
  }
  throw new Error('expected the call to fail');
}
