import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const TSX = join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs');
const MAIN = join(ROOT, 'dev', 'demo', 'main.ts');

/** Runs `npm run demo`'s entry point (tsx dev/demo/main.ts) in `cwd`. */
function runDemo(cwd: string, args: string[]): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
  let out = '';
  const child = spawn(process.execPath, [TSX, MAIN, ...args], { cwd, env: { ...process.env, PORT: '', LOG_LEVEL: '' }, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
  return { child, output: () => out, exited };
}

async function until<T>(what: string, get: () => T | undefined, output: () => string, timeoutMs = 60_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = get();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}; output:\n${output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('npm run demo (the CLI)', () => {
  const dirs: string[] = [];
  const children: ChildProcess[] = [];
  afterAll(async () => {
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });

  it('prints the URL, serves the playground, starts from a fresh database under ./data/demo, and exits 0 on Ctrl-C', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'care-demo-cli-'));
    dirs.push(cwd);
    // A previous demo's database (here: not even a database) must not survive the next start.
    await mkdir(join(cwd, 'data', 'demo'), { recursive: true });
    await writeFile(join(cwd, 'data', 'demo', 'care-slack.sqlite'), 'left over from the last demo');

    const run = runDemo(cwd, ['--port', '0']);
    children.push(run.child);
    const url = (await until('the URL', () => /open (http:\/\/localhost:\d+\/)/.exec(run.output())?.[1], run.output)).replace('localhost', '127.0.0.1');
    const state = (await (await fetch(`${url}api/state`)).json()) as { team: { name: string }; users: { name: string; is_admin: boolean }[] };
    expect(state.team.name).toBe('Brightwater Care');
    expect(state.users.find((u) => u.name === 'amelia')?.is_admin).toBe(true);
    expect((await readFile(join(cwd, 'data', 'demo', 'care-slack.sqlite'))).subarray(0, 15).toString()).toBe('SQLite format 3');

    run.child.kill('SIGINT');
    expect(await run.exited).toBe(0);
    expect(run.output()).toContain('Stopped.');
    await expect(fetch(`${url}api/state`)).rejects.toThrow();
  }, 120_000); // bounds on waiting for a cold start on a loaded machine, not a speed target

  it('refuses a bad --port with a usage line and exit code 2', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'care-demo-cli-'));
    dirs.push(cwd);
    const run = runDemo(cwd, ['--port', 'lots']);
    children.push(run.child);
    expect(await run.exited).toBe(2);
    expect(run.output()).toContain('The port must be a whole number');
    expect(existsSync(join(cwd, 'data'))).toBe(false);
  });
});
