import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { careWorkspace } from '../../dev/demo/care-workspace.js';
import { startSandbox, type RunningSandbox } from '../../dev/sandbox/index.js';
import { createSlackDriver, startSlackFake, type SlackFake } from '../../dev/slack-fake/index.js';

const ROOT = resolve(import.meta.dirname, '../..');
/** What `npm start` runs: the built artefact, made by `npm run build` (this test builds it first). */
const MAIN = join(ROOT, 'dist', 'main.js');

function run(env: Record<string, string>): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
  let out = '';
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !/^(SLACK|CARE|DATABASE|DATA_DIR|APP_|ADMIN|PORT|LOG_LEVEL|COMPLETION|INSTANCE)/.test(k)),
  );
  const child = spawn(process.execPath, [MAIN], { cwd: ROOT, env: { ...clean, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  return { child, output: () => out, exited: new Promise((done) => child.on('exit', (code) => done(code))) };
}

/** The start line once the process logged it (fails with its output when it exits or takes over 20 s). */
async function startLine(r: ReturnType<typeof run>): Promise<unknown> {
  const deadline = Date.now() + 20_000;
  while (!r.output().includes('is running')) {
    if (Date.now() > deadline || r.child.exitCode !== null) throw new Error(`did not start:\n${r.output()}`);
    await new Promise((res) => setTimeout(res, 100));
  }
  return JSON.parse(
    r
      .output()
      .split('\n')
      .find((l) => l.includes('is running'))!,
  );
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  await new Promise((r) => server.close(r));
  return port;
}

describe('npm start', () => {
  let sandbox: RunningSandbox;
  let fake: SlackFake;
  let dataDir: string;
  const children: ChildProcess[] = [];
  /** Every required variable, pointing at this test's Slack fake and sandbox. */
  const validEnv = () => ({
    SLACK_BOT_TOKEN: fake.botToken,
    SLACK_SIGNING_SECRET: 'main-test-secret',
    SLACK_API_URL: fake.apiUrl,
    CARE_API_BASE_URL: sandbox.url,
    CARE_ACCOUNT_ID: sandbox.credentials.accountId,
    CARE_API_KEY: sandbox.credentials.apiKey,
    CARE_API_SECRET: sandbox.credentials.apiSecret,
  });

  beforeAll(async () => {
    // npm run build, as a deployment would: the sources compiled to dist/ (plain node runs them, no tsx).
    const build = spawnSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    if (build.status !== 0) throw new Error(`npm run build failed:\n${build.stdout}${build.stderr}`);
    sandbox = await startSandbox({ port: 0, seed: 'empty' });
    fake = await startSlackFake({ workspace: careWorkspace() });
    dataDir = await mkdtemp(join(tmpdir(), 'care-main-'));
  });
  afterAll(async () => {
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
    await fake?.close();
    await sandbox?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('names every missing or invalid variable and exits 2 without starting', async () => {
    const r = run({ SLACK_BOT_TOKEN: 'not-a-bot-token', APP_TIMEZONE: 'Nowhere/Else' });
    children.push(r.child);
    expect(await r.exited).toBe(2);
    for (const name of ['SLACK_BOT_TOKEN', 'SLACK_SIGNING_SECRET', 'CARE_API_BASE_URL', 'CARE_ACCOUNT_ID', 'CARE_API_KEY', 'CARE_API_SECRET', 'APP_TIMEZONE']) {
      expect(r.output()).toMatch(new RegExp(`^\\s*- ${name} `, 'm'));
    }
    expect(r.output()).not.toContain('not-a-bot-token');
  });

  it('says the database cannot be reached and exits 3', async () => {
    const deadPort = await freePort();
    const r = run({
      ...validEnv(),
      DATABASE_URL: `postgres://nobody:secret-pw@127.0.0.1:${deadPort}/care`,
      PORT: String(await freePort()),
    });
    children.push(r.child);
    expect(await r.exited).toBe(3);
    expect(r.output()).toContain('Cannot start:');
    expect(r.output()).not.toContain('secret-pw');
  });

  it('serves /healthz with the store and the care API checked, and stops cleanly on SIGTERM', async () => {
    const port = await freePort();
    const r = run({
      ...validEnv(),
      DATA_DIR: dataDir,
      PORT: String(port),
      LOG_LEVEL: 'info',
      // A UK server's default zone.
      TZ: 'Europe/London',
    });
    children.push(r.child);
    // One start line says what runs: version, HTTP or Socket Mode, single or multi-workspace, store kind, the process's time zone.
    expect(await startLine(r)).toMatchObject({
      version: '0.1.0',
      mode: 'http',
      workspaces: 'single',
      store: 'sqlite',
      processTimeZone: 'Europe/London',
      appTimeZone: 'Europe/London',
    });
    const health = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ ok: true, checks: { store: { ok: true }, careApi: { ok: true } } });
    r.child.kill('SIGTERM');
    expect(await r.exited).toBe(0);
    expect(r.output()).toContain('"msg":"stopped"');
    expect(r.output()).not.toContain(sandbox.credentials.apiSecret);
    expect(r.output()).not.toContain(fake.botToken);
  });

  it('says the care API is unreachable in /healthz (503) instead of pretending', async () => {
    const port = await freePort();
    const deadPort = await freePort();
    const r = run({
      ...validEnv(),
      CARE_API_BASE_URL: `http://127.0.0.1:${deadPort}/v1`,
      CARE_ACCOUNT_ID: 'a',
      CARE_API_KEY: 'k',
      CARE_API_SECRET: 's',
      DATA_DIR: dataDir,
      PORT: String(port),
      LOG_LEVEL: 'warn',
    });
    children.push(r.child);
    const deadline = Date.now() + 20_000;
    let res: Response | undefined;
    while (!res) {
      res = await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => undefined);
      if (!res && (Date.now() > deadline || r.child.exitCode !== null)) throw new Error(`did not start:\n${r.output()}`);
      if (!res) await new Promise((done) => setTimeout(done, 100));
    }
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ ok: false, checks: { store: { ok: true }, careApi: { ok: false } } });
    r.child.kill('SIGTERM');
    expect(await r.exited).toBe(0);
  });
  it('runs in Socket Mode with SLACK_APP_TOKEN: answers over its connections, serves /healthz on PORT, closes its connections on SIGTERM', async () => {
    const port = await freePort();
    const socketDir = await mkdtemp(join(tmpdir(), 'care-main-socket-'));
    const r = run({
      ...validEnv(),
      SLACK_APP_TOKEN: fake.appToken,
      DATA_DIR: socketDir,
      PORT: String(port),
      LOG_LEVEL: 'info',
    });
    children.push(r.child);
    try {
      expect(await startLine(r)).toMatchObject({ mode: 'socket', port });
      const mine = fake.socket.openConnections().map((c) => c.id);
      expect(mine).toHaveLength(2);
      expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);

      const driver = createSlackDriver({ fake, transport: 'socket' });
      const sent = await driver.slash('oliver', '/care help', { channel: '#care-team' });
      expect(sent.acked).toBe(true);
      await fake.waitFor(() => fake.state.responseUrls.find((u) => u.url === sent.responseUrl)?.lastPosted, { timeoutMs: 10_000 });

      r.child.kill('SIGTERM');
      expect(await r.exited).toBe(0);
      const closed = await fake.waitFor(() => {
        const ours = fake.socket.connections().filter((c) => mine.includes(c.id));
        return ours.every((c) => c.state === 'closed') ? ours : undefined;
      });
      expect(closed.map((c) => [c.state, c.closedBy, c.closeCode])).toEqual([
        ['closed', 'app', 1000],
        ['closed', 'app', 1000],
      ]);
      expect(r.output()).not.toContain(fake.appToken);
      expect(r.output()).not.toContain(fake.botToken);
    } finally {
      await rm(socketDir, { recursive: true, force: true });
    }
  });

  it('serves many workspaces with the OAuth variables and ENCRYPTION_KEY: the Add to Slack page, /healthz, no token needed', async () => {
    const port = await freePort();
    const multiDir = await mkdtemp(join(tmpdir(), 'care-main-multi-'));
    const r = run({
      SLACK_SIGNING_SECRET: 'main-test-secret',
      SLACK_CLIENT_ID: '111.222',
      SLACK_CLIENT_SECRET: 'main-client-secret',
      SLACK_STATE_SECRET: 'main-state-secret-0123456789',
      ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
      SLACK_API_URL: fake.apiUrl,
      DATA_DIR: multiDir,
      PORT: String(port),
      LOG_LEVEL: 'info',
    });
    children.push(r.child);
    try {
      expect(await startLine(r)).toMatchObject({ mode: 'http', workspaces: 'multi', store: 'sqlite' });
      const install = await fetch(`http://127.0.0.1:${port}/slack/install`);
      expect(install.status).toBe(200);
      expect(await install.text()).toContain('client_id=111.222');
      expect(await (await fetch(`http://127.0.0.1:${port}/healthz`)).json()).toMatchObject({ ok: true, checks: { store: { ok: true } } });
      r.child.kill('SIGTERM');
      expect(await r.exited).toBe(0);
      expect(r.output()).not.toContain('main-client-secret');
    } finally {
      await rm(multiDir, { recursive: true, force: true });
    }
  });
});
