import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCareClient } from '../../src/care/index.js';
import type { Deployment } from '../../src/compose.js';
import { composeMultiApp } from '../../src/compose-multi.js';
import { KeyRing } from '../../src/crypto/key-ring.js';
import { careWorkspace } from '../../dev/demo/care-workspace.js';
import { memoryLogger } from '../../src/logging/logger.js';
import { startSandbox, type RunningSandbox, type SandboxOptions } from '../../dev/sandbox/index.js';
import { parseCareApiHosts } from '../../src/services/admin/care-hosts.js';
import {
  createSlackDriver,
  secondDemoWorkspace,
  startSlackFake,
  type SlackDriver,
  type SlackFake,
  type TokenRotationConfig,
} from '../../dev/slack-fake/index.js';

export const OAUTH = { clientId: '111.222', clientSecret: 'e2e-client-secret', stateSecret: 'e2e-state-secret-0123456789' };
const SIGNING_SECRET = 'e2e-signing-secret';

/**
 * One clock for the whole world of a test (the care system, Slack, the app, its leases): the real clock plus an
 * offset that the test moves forward by hand (`advance`), so minutes pass in no time and never depend on the
 * machine's clock. Each instance's app clock may lag or lead it (`appSkewMs`: an instance whose clock is off).
 */
export interface WorldClock {
  now(): number;
  /** Move the world (the sandbox's clock too) this far forward. */
  advance(ms: number): Promise<void>;
}

function worldClock(sandbox: RunningSandbox): WorldClock {
  let offsetMs = 0;
  return {
    now: () => Date.now() + offsetMs,
    async advance(ms) {
      const res = await fetch(`${sandbox.controlsUrl}/clock`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ advanceMs: ms }),
      });
      if (!res.ok) throw new Error(`the sandbox's clock: ${res.status}`);
      offsetMs += ms;
    },
  };
}

/** Two care providers on one deployment: Care Home (T0CARE, account 1) and Sunrise Care (T0SUN, account 2). */
export interface MultiHarness {
  sandbox: RunningSandbox;
  fake: SlackFake;
  app: Deployment;
  keyRing: KeyRing;
  logs: string[];
  base: string;
  /** The SQLite files' directory. */
  dataDir: string;
  /** With `steppedClock`: the world's clock (shared with an instance started `beside` this one). */
  world?: WorldClock | undefined;
  /** With `steppedClock`: this instance's app clock is the world's plus this (ms); change it to make the clock drift. */
  appSkewMs: number;
  /** A driver sending as people of this team. */
  team(teamId: string): SlackDriver;
  /** Install the app in a team through /slack/install and the fake's authorize page. */
  install(teamId: string, user: string): Promise<{ status: number; body: string; steps: { url: string; status: number }[] }>;
  /** Connect a team to a sandbox account straight in the store (where connecting is not under test). */
  connectDirectly(teamId: string, account: number, by?: string): Promise<void>;
  close(): Promise<void>;
}

export async function startMultiHarness(
  options: {
    sandbox?: SandboxOptions;
    databaseUrl?: string;
    dataDir?: string;
    keyRing?: KeyRing;
    jobs?: { pollSeconds?: number };
    recheckMs?: number;
    /** Another instance of the same deployment: this harness's sandbox and Slack (not stopped by close). */
    beside?: MultiHarness;
    /**
     * CARE_API_HOSTS as the deployment sets it. Default: the sandbox's own host:port, allowed explicitly (it is on
     * 127.0.0.1, which a deployment otherwise never connects to); `null`: unset (any public https host).
     */
    careApiHosts?: string | null;
    /** One stepped clock for the world (`world.advance`); the app's clock, its leases and Slack's follow it. */
    steppedClock?: boolean;
    /** With `steppedClock`: this instance's clock this far from the world's (ms). */
    appSkewMs?: number;
    /** The Slack app has token rotation on (the fake's OAuth app): bot tokens expire this long after issue. */
    tokenRotation?: TokenRotationConfig;
    /** A name for this instance in leases and claims. */
    instanceId?: string;
  } = {},
): Promise<MultiHarness> {
  const sandbox = options.beside?.sandbox ?? (await startSandbox({ port: 0, seed: 'demo', controls: true, rateLimit: 0, accounts: 2, ...options.sandbox }));
  const world = options.beside ? options.beside.world : options.steppedClock ? worldClock(sandbox) : undefined;
  // Neither workspace has the app yet: each gets its bot token by installing it.
  const fake =
    options.beside?.fake ??
    (await startSlackFake({
      // Installed from "Add to Slack": a distributed app, not (yet) in the Marketplace, as Slack counts it.
      workspaces: [
        { ...careWorkspace(), botToken: null, appDistribution: 'distributed' },
        { ...secondDemoWorkspace(), botToken: null, appDistribution: 'distributed' },
      ],
      oauth: { clientId: OAUTH.clientId, clientSecret: OAUTH.clientSecret, ...(options.tokenRotation ? { tokenRotation: options.tokenRotation } : {}) },
      ...(world ? { clock: { now: world.now } } : {}),
    }));
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'care-multi-')));
  const logger = memoryLogger('debug');
  const keyRing = options.keyRing ?? new KeyRing([randomBytes(32)]);
  const hosts = options.careApiHosts === null ? undefined : parseCareApiHosts(options.careApiHosts ?? new URL(sandbox.url).host);
  if (hosts && !hosts.ok) throw new Error(`CARE_API_HOSTS ${hosts.problem}`);
  const skew = { ms: options.appSkewMs ?? 0 };
  const app = await composeMultiApp({
    slack: { signingSecret: SIGNING_SECRET, ...OAUTH, apiUrl: fake.apiUrl, lookupFailureTtlMs: 0 },
    careApiHosts: hosts?.hosts,
    keyRing,
    care: { rateLimitPerSecond: 50 },
    // Leases and claims on the world's clock (as on the database's in production).
    store: { dataDir, databaseUrl: options.databaseUrl, ...(world ? { sharedClock: world.now } : {}) },
    timezone: 'Europe/London',
    logger,
    ...(world ? { now: () => new Date(world.now() + skew.ms) } : {}),
    ...(options.jobs || options.instanceId ? { jobs: { ...options.jobs, ...(options.instanceId ? { instanceId: options.instanceId } : {}) } } : {}),
    ...(options.recheckMs !== undefined ? { recheckMs: options.recheckMs } : {}),
  });
  const { port } = await app.start(0);
  const base = `http://127.0.0.1:${port}`;
  if (!options.beside) fake.oauth.redirectUris.splice(0, fake.oauth.redirectUris.length, `${base}/slack/oauth_redirect`);
  const driver = createSlackDriver({ fake, eventsUrl: `${base}/slack/events`, signingSecret: SIGNING_SECRET });
  return {
    sandbox,
    fake,
    app,
    keyRing,
    logs: logger.lines,
    base,
    dataDir,
    world,
    get appSkewMs() {
      return skew.ms;
    },
    set appSkewMs(ms: number) {
      skew.ms = ms;
    },
    team: (teamId) => driver.forTeam(teamId),
    async install(teamId, user) {
      const done = await driver.installApp(teamId, user, { installUrl: `${base}/slack/install` });
      return { status: done.status, body: done.body, steps: done.steps };
    },
    async connectDirectly(teamId, account, by = 'U0AMELIA') {
      const a = sandbox.accounts[account - 1]!;
      await app.store.setCareConnection({
        workspaceId: teamId,
        baseUrl: sandbox.url,
        accountId: a.accountId,
        apiKey: a.apiKey,
        apiSecret: a.apiSecret,
        connectedBy: by,
      });
      await app.registry.refresh(teamId);
    },
    async close() {
      await app.stop();
      if (options.beside) return;
      await fake.close();
      await sandbox.stop();
      if (!options.dataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Both providers installed (Amelia in Brightwater Care, Erin in Sunrise Care), each connected to its own account. */
export async function installBoth(h: MultiHarness): Promise<void> {
  for (const [teamId, user, account] of [
    ['T0CARE', 'amelia', 1],
    ['T0SUN', 'erin', 2],
  ] as const) {
    const done = await h.install(teamId, user);
    if (done.status !== 200) throw new Error(`installing in ${teamId}: ${done.status}`);
    await h.connectDirectly(teamId, account, h.fake.workspace(teamId).user(user)!.id);
  }
}

/** What a person reads in the app's answer to `/care <line>` typed in #care-team of a team (the ack's text, or the response_url's). */
export async function careCommand(h: MultiHarness, teamId: string, user: string, line: string): Promise<string> {
  const team = h.fake.workspace(teamId);
  const sent = await h.team(teamId).slash(user, `/care ${line}`, { channel: '#care-team' });
  if (!sent.acked) throw new Error(`${line}: not acked (${sent.failure ?? sent.status})`);
  if (sent.text) return sent.text;
  const posted = await team.waitFor(() => team.state.responseUrls.find((r) => r.url === sent.responseUrl)?.lastPosted, {
    timeoutMs: 10_000,
    message: `no answer to ${line}`,
  });
  return team.visibleText(team.ephemerals(user).find((e) => e.ts === posted.ts && e.channel === posted.channel)!, { viewer: user });
}

/** An action made in a care account's own web app (the sandbox's per-account controls). */
export async function webActionIn(
  h: MultiHarness,
  account: number,
  input: { task: string; due: Date; assigned_to?: string; urgent?: boolean; notify_on_complete?: string[] },
): Promise<{ _id: string; action_no: number }> {
  const res = await fetch(`${h.sandbox.accounts[account - 1]!.controlsUrl}/actions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...input, due: input.due.toISOString() }),
  });
  if (!res.ok) throw new Error(`web action: ${res.status} ${await res.text()}`);
  return (await res.json()) as { _id: string; action_no: number };
}

/** Link a Slack person to the first care user of an account (where linking is not under test); resolves to the care user's Id. */
export async function linkFirstCareUser(h: MultiHarness, teamId: string, user: string, account: number): Promise<string> {
  const a = h.sandbox.accounts[account - 1]!;
  const care = createCareClient({ baseUrl: h.sandbox.url, accountId: a.accountId, apiKey: a.apiKey, apiSecret: a.apiSecret });
  const page = await care.users.list({ attributes: ['_id', 'email'], per_page: 1 });
  await care.close();
  const careUserId = page.items[0]!._id;
  const slackUserId = h.fake.workspace(teamId).user(user)!.id;
  await h.app.store.upsertLink({ teamId, slackUserId, careUserId, method: 'admin', linkedBy: slackUserId });
  return careUserId;
}

/** Everything the people of a workspace can read from the app: messages, DMs and thread replies, ephemerals and command answers, modals, Home tabs. */
export function seenByPeople(team: SlackFake): string {
  const { messages, ephemerals, modals, homes } = team.state;
  return JSON.stringify({ messages, ephemerals, modals, homes });
}
