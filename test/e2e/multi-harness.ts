import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { composeMultiApp, type MultiComposedApp } from '../../src/compose-multi.js';
import { KeyRing } from '../../src/crypto/key-ring.js';
import { careWorkspace } from '../../src/demo/care-workspace.js';
import { memoryLogger } from '../../src/logging/logger.js';
import { startSandbox, type RunningSandbox, type SandboxOptions } from '../../src/sandbox/index.js';
import { parseCareApiHosts } from '../../src/services/care-hosts.js';
import { createSlackDriver, secondDemoWorkspace, startSlackFake, type SlackDriver, type SlackFake } from '../../src/slack-fake/index.js';

export const OAUTH = { clientId: '111.222', clientSecret: 'e2e-client-secret', stateSecret: 'e2e-state-secret-0123456789' };
const SIGNING_SECRET = 'e2e-signing-secret';

/** Two care providers on one deployment: Care Home (T0CARE, account 1) and Sunrise Care (T0SUN, account 2). */
export interface MultiHarness {
  sandbox: RunningSandbox;
  fake: SlackFake;
  app: MultiComposedApp;
  keyRing: KeyRing;
  logs: string[];
  base: string;
  /** The SQLite files' directory. */
  dataDir: string;
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
  } = {},
): Promise<MultiHarness> {
  const sandbox = options.beside?.sandbox ?? (await startSandbox({ port: 0, seed: 'demo', controls: true, rateLimit: 0, accounts: 2, ...options.sandbox }));
  // Neither workspace has the app yet: each gets its bot token by installing it.
  const fake =
    options.beside?.fake ??
    (await startSlackFake({
      // Installed from "Add to Slack": a distributed app, not (yet) in the Marketplace, as Slack counts it.
      workspaces: [
        { ...careWorkspace(), botToken: null, appDistribution: 'distributed' },
        { ...secondDemoWorkspace(), botToken: null, appDistribution: 'distributed' },
      ],
      oauth: { clientId: OAUTH.clientId, clientSecret: OAUTH.clientSecret },
    }));
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'care-multi-')));
  const logger = memoryLogger('debug');
  const keyRing = options.keyRing ?? new KeyRing([randomBytes(32)]);
  const hosts = options.careApiHosts === null ? undefined : parseCareApiHosts(options.careApiHosts ?? new URL(sandbox.url).host);
  if (hosts && !hosts.ok) throw new Error(`CARE_API_HOSTS ${hosts.problem}`);
  const app = await composeMultiApp({
    slack: { signingSecret: SIGNING_SECRET, ...OAUTH, apiUrl: fake.apiUrl, lookupFailureTtlMs: 0 },
    careApiHosts: hosts?.hosts,
    keyRing,
    care: { rateLimitPerSecond: 50 },
    store: { dataDir, databaseUrl: options.databaseUrl },
    timezone: 'Europe/London',
    logger,
    ...(options.jobs ? { jobs: options.jobs } : {}),
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
