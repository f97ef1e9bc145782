import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { composeApp, type ComposedApp } from '../../src/compose.js';
import { careWorkspace } from '../../dev/demo/care-workspace.js';
import type { MetricsSettings } from '../../src/metrics/index.js';
import { memoryLogger } from '../../src/logging/logger.js';
import { startSandbox, type RunningSandbox, type SandboxOptions } from '../../dev/sandbox/index.js';
import { createSlackDriver, startSlackFake, type FakeEphemeral, type SlackDriver, type SlackFake, type Workspace } from '../../dev/slack-fake/index.js';

export interface Harness {
  sandbox: RunningSandbox;
  fake: SlackFake;
  driver: SlackDriver;
  app: ComposedApp;
  logs: string[];
  /** The app's clock, which follows the sandbox's virtual clock. */
  now(): Date;
  /** Move both the sandbox's and the app's clocks to this instant. */
  setTime(at: Date | string): Promise<void>;
  /**
   * Runs `work` while the one clock (the app's, the care system's and Slack's) runs `speed` times as fast as the
   * machine's (default 10), then at the machine's pace again. Slack's limits and the app's pacing under them are
   * judged on that clock, so work that waits its turn for Slack (Tier 3's 50 updates a minute, a post a second per
   * channel) takes a fraction of the machine's time, and is still paced as Slack requires; everything else in the
   * app sees that much time pass. For a test about something else whose work queues behind Slack's limits.
   */
  fastForward<T>(work: () => Promise<T>, speed?: number): Promise<T>;
  transport: 'http' | 'socket';
  /** An address on the app's HTTP server (e.g. /healthz; in Socket Mode it serves /healthz and /metrics only). */
  appUrl(path: string): string;
  /** The port of /metrics when the app was given one of its own (`metrics.port`). */
  metricsPort?: number | undefined;
  /** The sandbox's test controls (JSON over HTTP). */
  control(path: string, body?: unknown, method?: string): Promise<any>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  sandbox?: SandboxOptions;
  adminSlackUserIds?: string[];
  /** Client-side pacing of the app's care client (default 50 requests/s). */
  careRateLimitPerSecond?: number;
  /**
   * Start the sandbox's virtual clock and the app's clock at this instant (both
   * then run on in real time), so tests can reason about "today" and "overdue".
   * Default: the real time.
   */
  startAt?: Date;
  /** The Slack workspace (default: the care demo workspace). */
  workspace?: Workspace;
  /** Log level of the app's memory logger (default debug). */
  logLevel?: 'debug' | 'info' | 'warn' | 'error';
  /** PostgreSQL instead of a fresh SQLite file (e.g. a test schema's URL). */
  databaseUrl?: string;
  /** Reuse this data directory (SQLite) instead of a fresh one; it is then not deleted on close. */
  dataDir?: string;
  jobs?: { pollSeconds?: number; overlapMs?: number; staleAfterMs?: number; instanceId?: string };
  /** The app's clock this far ahead of the care system's (default 0): a care system whose clock is behind. */
  appClockAheadMs?: number;
  /** CARE_WEB_URL: the care system's web page of an action (default: none, so no "Open in care system" link). */
  careWebUrl?: string;
  /**
   * How Slack reaches the app: `http` (default: signed requests to /slack/events) or `socket`
   * (the app runs in Socket Mode with the fake's app-level token; the driver sends envelopes).
   */
  transport?: 'http' | 'socket';
  /** The app's metrics settings (default: on, /metrics on the app's port, no token). */
  metrics?: MetricsSettings;
  /**
   * Slack's rate limits as they are today (default on: the app paces itself under them). Off for a test
   * about something else that needs more of Slack than its limits allow (e.g. 130 DMs to one person at once).
   */
  slackLimits?: boolean;
  /**
   * How the app is distributed, as Slack counts it (default internal). `distributed`: a commercially
   * distributed app not approved for the Marketplace, which may read history once a minute, 15 a page.
   */
  distribution?: 'internal' | 'distributed';
  /** RETENTION_DAYS (default: the app's, 30): days after completion the app's messages are edited down; 0 at once, 'off' never. */
  retentionDays?: number | 'off';
}

const SIGNING_SECRET = 'e2e-signing-secret';

/** Sandbox + SQLite store + the real Bolt app + Slack fake + driver, all on free loopback ports. */
export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const startAt = options.startAt;
  let offsetMs = startAt ? startAt.getTime() - Date.now() : 0;
  const ahead = options.appClockAheadMs ?? 0;
  const transport = options.transport ?? 'http';
  // One clock for the care system (the sandbox), Slack (the fake: message times and the reader's
  // "today"/"yesterday") and the app (ahead of the others by `appClockAheadMs`).
  const worldNow = () => Date.now() + offsetMs;
  const now = () => new Date(worldNow() + ahead);
  const sandbox = await startSandbox({ port: 0, seed: 'demo', controls: true, rateLimit: 0, ...(startAt ? { startTime: startAt } : {}), ...options.sandbox });
  const fake = await startSlackFake({
    workspace: { ...(options.workspace ?? careWorkspace()), appDistribution: options.distribution ?? 'internal' },
    rateLimits: options.slackLimits !== false,
    clock: { now: worldNow },
  });
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'care-e2e-')));
  const logger = memoryLogger(options.logLevel ?? 'debug');
  const app = await composeApp({
    // A failed email lookup is not remembered here: tests clear a fault and poll again at once.
    slack: {
      botToken: fake.botToken,
      signingSecret: SIGNING_SECRET,
      apiUrl: fake.apiUrl,
      lookupFailureTtlMs: 0,
      paced: options.slackLimits !== false,
      distribution: options.distribution ?? 'internal',
      ...(transport === 'socket' ? { appToken: fake.appToken } : {}),
    },
    care: { baseUrl: sandbox.url, ...sandbox.credentials, rateLimitPerSecond: options.careRateLimitPerSecond ?? 50 },
    // Claims and leases on the same clock as Slack's message times (so a look in the history finds them).
    store: { dataDir, databaseUrl: options.databaseUrl, sharedClock: worldNow },
    timezone: 'Europe/London',
    adminSlackUserIds: options.adminSlackUserIds ?? ['U0AMELIA'],
    logger,
    now,
    ...(options.jobs ? { jobs: options.jobs } : {}),
    ...(options.careWebUrl ? { careWebUrl: options.careWebUrl } : {}),
    ...(options.retentionDays !== undefined ? { retentionDays: options.retentionDays } : {}),
    ...(options.metrics ? { metrics: options.metrics } : {}),
  });
  const { port, metricsPort } = await app.start(0);
  const driver =
    transport === 'socket'
      ? createSlackDriver({ fake, transport: 'socket' })
      : createSlackDriver({ fake, eventsUrl: `http://127.0.0.1:${port}/slack/events`, signingSecret: SIGNING_SECRET });
  return {
    sandbox,
    fake,
    driver,
    app,
    logs: logger.lines,
    now,
    transport,
    appUrl: (path) => `http://127.0.0.1:${port}${path}`,
    metricsPort,
    async setTime(at) {
      const target = new Date(at);
      const res = await fetch(`${sandbox.controlsUrl}/clock`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ set: target.toISOString() }),
      });
      if (!res.ok) throw new Error(`setTime: ${res.status}`);
      offsetMs = target.getTime() - Date.now();
    },
    async fastForward(work, speed = 10) {
      let running = true;
      // Every 20 ms of the machine's time the world moves on by `speed` times as much: the care system first, then
      // the app and Slack (a few ms apart at most, as two machines' clocks are).
      const pump = (async () => {
        let last = performance.now();
        while (running) {
          await new Promise((resolve) => setTimeout(resolve, 20));
          const now = performance.now();
          const extra = Math.round((now - last) * (speed - 1));
          last = now;
          const res = await fetch(`${sandbox.controlsUrl}/clock`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ advanceMs: extra }),
          });
          if (!res.ok) throw new Error(`fastForward: ${res.status}`);
          offsetMs += extra;
        }
      })();
      try {
        return await work();
      } finally {
        running = false;
        await pump;
      }
    },
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
      if (!options.dataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A calendar day as a person in `tz` reads it on the harness's clock, `days` from today
 * (`YYYY-MM-DD`, as a date picker takes it): what a test types instead of a date of its own.
 */
export function dayOn(h: Pick<Harness, 'now'>, days = 0, tz = 'Europe/London'): string {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit' }).format(h.now());
  const [y, m, d] = today.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

/** A reply the app posted through a response_url, as the person sees it. */
export interface Reply {
  message: FakeEphemeral;
  /** What the person reads (mentions, dates in their zone, buttons as [Label]). */
  text: string;
  /** The raw JSON the app posted (to check escaping). */
  raw: string;
}

/** Types a slash command and waits for the app's answer through that command's response_url. */
export async function command(
  h: Harness,
  user: string,
  line: string,
  where: { channel?: string; dm?: boolean } = { channel: '#care-team' },
  timeoutMs = 10_000,
): Promise<Reply> {
  const sent = await h.driver.slash(user, line, where);
  if (!sent.acked) throw new Error(`${line}: not acked (${sent.failure ?? sent.status})`);
  return replyOn(h, user, sent.responseUrl!, timeoutMs);
}

/** The message the app posted through a response_url (waits for it). */
export async function replyOn(h: Harness, user: string, responseUrl: string, timeoutMs = 10_000): Promise<Reply> {
  const posted = await h.fake.waitFor(() => h.fake.state.responseUrls.find((r) => r.url === responseUrl)?.lastPosted, {
    timeoutMs,
    message: `no answer on ${responseUrl}`,
  });
  const message = h.fake.ephemerals(user).find((e) => e.ts === posted.ts && e.channel === posted.channel);
  if (!message) throw new Error(`the answer ${posted.ts} is not among ${user}'s ephemerals`);
  return { message, text: h.fake.visibleText(message, { viewer: user }), raw: JSON.stringify({ text: message.text, blocks: message.blocks }) };
}

/** A care user's Id by the email the demo data gives them. */
export async function careUserIdByEmail(h: Harness, email: string): Promise<string> {
  const page = await h.app.care.users.list({ filters: { q: email }, attributes: ['_id', 'email'], per_page: 10 });
  const hit = page.items.find((u) => u.email?.toLowerCase() === email.toLowerCase());
  if (!hit) throw new Error(`no care user ${email}`);
  return hit._id;
}

/** Links a Slack person to the care user with their email, straight in the store (where linking is not under test). */
export async function linkDirectly(h: Harness, slackUser: string): Promise<string> {
  const user = h.driver.user(slackUser);
  const careUserId = await careUserIdByEmail(h, user.profile.email!);
  await h.app.store.upsertLink({ teamId: h.fake.teamId, slackUserId: user.id, careUserId, method: 'admin', linkedBy: 'U0AMELIA' });
  return careUserId;
}

/** An action made in the care system's own web app (the sandbox controls), not through Slack. */
export async function webAppAction(
  h: Harness,
  input: { task: string; due: Date; assigned_to?: string | null; urgent?: boolean; notify_on_complete?: string[] },
): Promise<{ _id: string; action_no: string; [k: string]: unknown }> {
  return h.control('actions', { ...input, due: input.due.toISOString() });
}
