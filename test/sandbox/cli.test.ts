import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { rawClient } from '../helpers/raw-signer.js';

const children: ChildProcess[] = [];
const dirs: string[] = [];

afterEach(async () => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

function run(args: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'dev/sandbox/cli.ts', ...args], { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const firstLine = new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${stderr}`)));
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, firstLine, exited, stderr: () => stderr };
}

describe('npm run sandbox (cli.ts)', () => {
  it('prints how to connect, logs requests without secrets or queries, and saves --data on Ctrl-C', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sandbox-cli-'));
    dirs.push(dir);
    const file = join(dir, 'data.json');
    const proc = run(['--port', '0', '--seed', 'empty', '--data', file, '--api-key', 'cli-key', '--api-secret', 'cli-secret-value', '--rate-limit', '0']);
    const info = JSON.parse(await proc.firstLine);
    expect(info).toMatchObject({ accountId: 'sandbox-account', apiKey: 'cli-key', apiSecret: 'cli-secret-value', controlsUrl: null });
    expect(info.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);

    const api = rawClient(info.url, info);
    const made = await api('PUT', 'actions', { due: '2024-06-11 10:00:00', task: 'From the CLI test' });
    expect(made.status).toBe(200);
    expect((await api('GET', 'actions', { 'filters-q': 'private-query-text' })).status).toBe(200);

    proc.child.kill('SIGINT');
    expect(await proc.exited).toBe(0);
    const logs = proc.stderr();
    expect(logs).toMatch(/"method":"PUT","path":"\/v1\/actions","status":200,"ms":/);
    expect(logs).not.toContain('cli-secret-value');
    expect(logs).not.toContain('private-query-text');
    expect(logs).not.toContain('From the CLI test');
    expect(await readFile(file, 'utf8')).toContain(made.json._id);
  });

  it('serves several accounts with --accounts and prints every account on the one line', async () => {
    const proc = run(['--port', '0', '--seed', 'empty', '--accounts', '2', '--rate-limit', '0', '--log-level', 'silent']);
    const info = JSON.parse(await proc.firstLine);
    expect(info).toMatchObject({ accountId: 'sandbox-account', apiKey: 'sandbox-key', apiSecret: 'sandbox-secret' });
    expect(info.accounts).toEqual([
      { accountId: 'sandbox-account', apiKey: 'sandbox-key', apiSecret: 'sandbox-secret', name: 'Brightwater Care' },
      { accountId: 'sandbox-account-2', apiKey: 'sandbox-key-2', apiSecret: 'sandbox-secret-2', name: expect.any(String) },
    ]);
    const second = await rawClient(info.url, info.accounts[1])('GET', 'users', { attributes: ['email'] });
    expect(second.status).toBe(200);
    expect(second.json.items[0].email).not.toContain('brightwatercare');
    proc.child.kill('SIGINT');
    expect(await proc.exited).toBe(0);
  });

  it('prints no accounts list for a single account, as before', async () => {
    const proc = run(['--port', '0', '--seed', 'empty', '--log-level', 'silent']);
    expect(Object.keys(JSON.parse(await proc.firstLine))).toEqual(['url', 'controlsUrl', 'accountId', 'apiKey', 'apiSecret']);
  });

  it('rejects a bad flag value with a message and exit code 2', async () => {
    const proc = run(['--seed', 'lots']);
    await expect(proc.firstLine).rejects.toThrow(/--seed/);
    expect(await proc.exited).toBe(2);
    const none = run(['--accounts', '0']);
    await expect(none.firstLine).rejects.toThrow(/--accounts/);
    expect(await none.exited).toBe(2);
  });
});
