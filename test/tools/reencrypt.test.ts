import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { KeyRing } from '../../src/crypto/key-ring.js';
import { openStore } from '../../src/store/index.js';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

/** Run `src/tools/reencrypt.ts` with only these variables (and PATH); resolves with its exit code and output. */
function run(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/tools/reencrypt.ts'], {
    cwd: process.cwd(),
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

async function seeded(key: Buffer) {
  const dir = await mkdtemp(join(tmpdir(), 'reencrypt-'));
  dirs.push(dir);
  const store = await openStore({ dataDir: dir, keyRing: new KeyRing([key]) });
  const bot = `xoxb-T1-${randomBytes(8).toString('hex')}`;
  await store.saveInstallation({
    isEnterpriseInstall: false,
    teamId: 'T1',
    bot: { token: bot, scopes: ['commands'], id: 'B1', userId: 'U1' },
    user: { id: 'U0' },
  });
  const care = await store.setCareConnection({
    workspaceId: 'T1',
    baseUrl: 'https://api.carehq.example/v1',
    accountId: 'acct',
    apiKey: `key-${randomBytes(8).toString('hex')}`,
    apiSecret: `secret-${randomBytes(8).toString('hex')}`,
    connectedBy: 'U0',
  });
  await store.close();
  return { dir, secrets: [bot, care.apiKey, care.apiSecret] };
}

describe('npm run reencrypt (src/tools/reencrypt.ts)', () => {
  it('rewrites the stored secrets under the first key, prints counts only, and does nothing the second time', async () => {
    const [oldKey, newKey] = [randomBytes(32), randomBytes(32)];
    const { dir, secrets } = await seeded(oldKey);
    const ENCRYPTION_KEY = `${newKey.toString('base64')},${oldKey.toString('hex')}`;

    const first = await run({ DATA_DIR: dir, ENCRYPTION_KEY });
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    const newId = new KeyRing([newKey]).primary.id;
    expect(first.stdout).toContain(`under key ${newId} (the first of 2 in ENCRYPTION_KEY)`);
    expect(first.stdout).toContain('slack_installations: 1 rows, 1 rewritten, 0 already current, 0 changed meanwhile, 0 unreadable');
    expect(first.stdout).toContain('care_connections: 1 rows, 1 rewritten, 0 already current');
    for (const s of [...secrets, newKey.toString('base64'), oldKey.toString('hex')]) expect(first.stdout).not.toContain(s);

    const second = await run({ DATA_DIR: dir, ENCRYPTION_KEY });
    expect(second.code).toBe(0);
    expect(second.stdout).toContain('slack_installations: 1 rows, 0 rewritten, 1 already current');

    const store = await openStore({ dataDir: dir, keyRing: new KeyRing([newKey]) });
    try {
      expect((await store.getInstallation({ isEnterpriseInstall: false, teamId: 'T1' }))?.bot?.token).toBe(secrets[0]);
      expect((await store.getCareConnection('T1'))?.apiSecret).toBe(secrets[2]);
    } finally {
      await store.close();
    }
  });

  it('exits 1 naming the unreadable rows when their key is not in ENCRYPTION_KEY', async () => {
    const { dir, secrets } = await seeded(randomBytes(32));
    const result = await run({ DATA_DIR: dir, ENCRYPTION_KEY: randomBytes(32).toString('hex') });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('care_connections: 1 rows, 0 rewritten, 0 already current, 0 changed meanwhile, 1 unreadable');
    expect(result.stderr).toContain('unreadable: slack_installations team:T1');
    expect(result.stderr).toContain('unreadable: care_connections T1');
    for (const s of secrets) expect(result.stderr + result.stdout).not.toContain(s);
  });

  it('exits 2 with a clear message when ENCRYPTION_KEY is missing or malformed', async () => {
    const missing = await run({ DATA_DIR: join(tmpdir(), 'never-made') });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('ENCRYPTION_KEY is empty');
    const short = await run({ ENCRYPTION_KEY: 'abc123', DATA_DIR: join(tmpdir(), 'never-made') });
    expect(short.code).toBe(2);
    expect(short.stderr).toContain('1st key in ENCRYPTION_KEY is not 32 bytes');
    expect(short.stderr).not.toContain('abc123');
  });
});
