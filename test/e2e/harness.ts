import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { composeApp, type ComposedApp } from '../../src/compose.js';
import { careWorkspace } from '../../src/demo/care-workspace.js';
import { memoryLogger } from '../../src/logging/logger.js';
import { startSandbox, type RunningSandbox, type SandboxOptions } from '../../src/sandbox/index.js';
import { createSlackDriver, startSlackFake, type SlackDriver, type SlackFake } from '../../src/slack-fake/index.js';

export interface Harness {
  sandbox: RunningSandbox;
  fake: SlackFake;
  driver: SlackDriver;
  app: ComposedApp;
  logs: string[];
  /** The sandbox's test controls (JSON over HTTP). */
  control(path: string, body?: unknown, method?: string): Promise<any>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  sandbox?: SandboxOptions;
  adminSlackUserIds?: string[];
}

const SIGNING_SECRET = 'e2e-signing-secret';

/** Sandbox + SQLite store + the real Bolt app + Slack fake + driver, all on free loopback ports. */
export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const sandbox = await startSandbox({ port: 0, seed: 'demo', controls: true, rateLimit: 0, ...options.sandbox });
  const fake = await startSlackFake({ workspace: careWorkspace(), postRateLimit: false });
  const dataDir = await mkdtemp(join(tmpdir(), 'care-e2e-'));
  const logger = memoryLogger('debug');
  const app = await composeApp({
    slack: { botToken: fake.botToken, signingSecret: SIGNING_SECRET, apiUrl: fake.apiUrl },
    care: { baseUrl: sandbox.url, ...sandbox.credentials, rateLimitPerSecond: 50 },
    store: { dataDir },
    timezone: 'Europe/London',
    adminSlackUserIds: options.adminSlackUserIds ?? ['U0AMELIA'],
    logger,
  });
  const { port } = await app.start(0);
  const driver = createSlackDriver({ fake, eventsUrl: `http://127.0.0.1:${port}/slack/events`, signingSecret: SIGNING_SECRET });
  return {
    sandbox,
    fake,
    driver,
    app,
    logs: logger.lines,
    async control(path, body, method = body === undefined ? 'GET' : 'POST') {
      const res = await fetch(`${sandbox.controlsUrl}/${path.replace(/^\//, '')}`, {
        method,
        headers: { 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await res.text();
      if (!res.ok) throw new Error(`control ${path}: ${res.status} ${text}`);
      return text ? JSON.parse(text) : null;
    },
    async close() {
      await app.stop();
      await fake.close();
      await sandbox.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
