/**
 * The whole product on one machine: the sandbox care API with demo data, the
 * real app against a fresh SQLite file, the Slack fake, and the playground
 * page that drives it. Everything listens on loopback only.
 */
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { composeApp, type ComposedApp } from '../../src/compose.js';
import { silentLogger, type Logger } from '../../src/logging/logger.js';
import { startPlayground, type PlaygroundServer } from '../playground/server.js';
import { startSandbox, type RunningSandbox } from '../sandbox/index.js';
import { createSlackDriver, startSlackFake, type SlackDriver, type SlackFake } from '../slack-fake/index.js';
import { SQLITE_FILE_NAME } from '../../src/store/sqlite-db.js';
import { createDemoBackend, type DemoBackend } from './backend.js';
import { careWorkspace } from './care-workspace.js';
import { createDemoClock, type DemoClock } from './clock.js';
import { sandboxControls } from './sandbox-controls.js';
import { setUpDemo, type DemoSetup } from './setup.js';
import { createDemoSimulator } from './simulator.js';

export interface DemoOptions {
  /** The playground's port (0 = any free one). Default 3000. */
  port?: number;
  /** Loopback only. Default 127.0.0.1. */
  host?: string;
  /** Where the SQLite file goes; its previous demo files are deleted first. Default ./data/demo. */
  dataDir?: string;
  logger?: Logger;
  /** The app's time zone (and the digests'). Default Europe/London. */
  timeZone?: string;
  /** How often the app polls the care API for changes (default 60 s). */
  pollSeconds?: number;
}

export interface RunningDemo {
  /** The playground page, e.g. http://127.0.0.1:3000/ */
  url: string;
  port: number;
  sandbox: RunningSandbox;
  fake: SlackFake;
  driver: SlackDriver;
  app: ComposedApp;
  backend: DemoBackend;
  clock: DemoClock;
  setup: DemoSetup;
  /** Stops the playground, the app and its jobs, the fake and the sandbox. Safe to call twice. */
  stop(): Promise<void>;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);
/** Seed data is dated this long before the demo's "now", so the first changes poll finds nothing stale to announce. */
const SEED_LEAD_MS = 15 * 60_000;

export async function startDemo(options: DemoOptions = {}): Promise<RunningDemo> {
  const host = options.host ?? '127.0.0.1';
  if (!LOOPBACK.has(host)) throw new Error(`The demo only listens on loopback (got ${host}).`);
  const logger = options.logger ?? silentLogger;
  const timeZone = options.timeZone ?? 'Europe/London';
  const dataDir = resolve(options.dataDir ?? join('data', 'demo'));
  const clock = createDemoClock();
  const stops: Array<() => Promise<unknown>> = [];
  const stopAll = async () => {
    for (const stop of stops.splice(0).reverse()) await stop().catch((err: unknown) => logger.warn('stopping part of the demo failed', { error: err }));
  };

  try {
    await removeDemoDatabase(dataDir);
    const sandbox = await startSandbox({
      port: 0,
      host: '127.0.0.1',
      seed: 'demo',
      controls: true,
      startTime: new Date(clock.nowMs() - SEED_LEAD_MS),
      logger: logger.child({ component: 'sandbox' }),
    });
    stops.push(() => sandbox.stop());
    const controls = sandboxControls(sandbox.controlsUrl);
    await controls.setClock(clock.now());

    // Today's Slack rate limits (the fake's default): the app waits out each Retry-After.
    const fake = await startSlackFake({ workspace: careWorkspace(), clock: { now: () => clock.nowMs() }, logger });
    stops.push(() => fake.close());

    const signingSecret = randomBytes(16).toString('hex');
    const app = await composeApp({
      slack: { botToken: fake.botToken, signingSecret, apiUrl: fake.apiUrl },
      care: { baseUrl: sandbox.url, ...sandbox.credentials },
      store: { dataDir },
      timezone: timeZone,
      adminSlackUserIds: ['U0AMELIA'],
      logger: logger.child({ component: 'app' }),
      now: () => clock.now(),
      // "Open in care system" on cards: the sandbox's own view of the action stands in for the web app.
      careWebUrl: `${sandbox.controlsUrl}/actions/{id}`,
      jobs: { pollSeconds: options.pollSeconds ?? 60, instanceId: `demo-${process.pid}` },
    });
    stops.push(() => app.stop());
    const { port: appPort } = await app.start(0, '127.0.0.1');
    const driver = createSlackDriver({ fake, eventsUrl: `http://127.0.0.1:${appPort}/slack/events`, signingSecret });

    const setup = await setUpDemo({
      app,
      fake,
      timeZone,
      adminUserId: 'U0AMELIA',
      digestChannel: '#care-team',
      alertsChannel: '#care-leads',
      routedGroupName: 'Willow Bank seniors',
      logger,
    });
    // The app's first look at the care system (what is already so is not news), before anyone acts.
    await app.jobs.runOnce('changes-poll');
    app.jobs.start();

    let backend: DemoBackend | undefined;
    const simulate = createDemoSimulator({
      app,
      controls,
      clock,
      teamId: fake.teamId,
      digestChannelId: setup.digestChannelId,
      changed: () => backend?.notify(),
      logger,
    });
    backend = createDemoBackend({ fake, driver, clock, timeZone, appName: 'Care Actions', simulate });
    stops.push(async () => backend?.close());
    const playground: PlaygroundServer = await startPlayground({
      port: options.port ?? 3000,
      host,
      backend,
      logger: logger.child({ component: 'playground' }),
    });
    stops.push(() => playground.close());
    const port = Number(new URL(playground.url).port);

    let stopping: Promise<void> | undefined;
    return {
      url: playground.url,
      port,
      sandbox,
      fake,
      driver,
      app,
      backend,
      clock,
      setup,
      stop: () => (stopping ??= stopAll()),
    };
  } catch (err) {
    await stopAll();
    throw err;
  }
}

/** Fresh on every start: the previous demo's database and its WAL files go. */
async function removeDemoDatabase(dataDir: string): Promise<void> {
  for (const suffix of ['', '-wal', '-shm', '-journal']) await rm(join(dataDir, SQLITE_FILE_NAME + suffix), { force: true });
}
