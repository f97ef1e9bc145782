import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../dev/sandbox/index.js';
import { rawClient } from '../helpers/raw-signer.js';
import { START } from './support.js';

let dir: string;
const running: RunningSandbox[] = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sandbox-data-'));
});
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.stop()));
  await rm(dir, { recursive: true, force: true });
});

async function start(file: string, extra: Parameters<typeof startSandbox>[0] = {}) {
  const s = await startSandbox({ dataFile: file, seed: 'empty', rateLimit: 0, startTime: START, ...extra });
  running.push(s);
  return { s, api: rawClient(s.url, s.credentials) };
}

describe('persistence with a data file', () => {
  it('keeps actions, edits and numbering across a restart', async () => {
    const file = join(dir, 'nested', 'sandbox.json');
    const first = await start(file);
    const a = (await first.api('PUT', 'actions', { due: '2024-06-11 10:00:00', task: 'Survives restarts' })).json;
    await first.api('PATCH', `actions/${a._id}/complete`);
    await first.s.stop();

    const second = await start(file, { startTime: undefined });
    const back = await second.api('GET', `actions/${a._id}`);
    expect(back.status).toBe(200);
    expect(back.json.task).toBe('Survives restarts');
    expect(back.json.completed).not.toBeNull();
    const next = (await second.api('PUT', 'actions', { due: '2024-06-11 10:00:00', task: 'Next' })).json;
    expect(Number(next.action_no)).toBe(Number(a.action_no) + 1);
    // The virtual clock carries on from where it was, not from the real date.
    expect(next.created.startsWith('2024-06-10')).toBe(true);
  });

  it('ignores the seed option when the file exists', async () => {
    const file = join(dir, 'sandbox.json');
    const first = await start(file, { seed: 3 });
    await first.s.stop();
    const second = await start(file, { seed: 'demo' });
    expect((await second.api('GET', 'actions')).json.item_count).toBe(3);
  });

  it('saves soon after a change without waiting for stop, atomically', async () => {
    const file = join(dir, 'sandbox.json');
    const { api } = await start(file);
    const a = (await api('PUT', 'actions', { due: '2024-06-11 10:00:00', task: 'Saved while running' })).json;
    let text = '';
    for (let i = 0; i < 50 && !text.includes(a._id); i++) {
      await new Promise((r) => setTimeout(r, 50));
      text = await readFile(file, 'utf8').catch(() => '');
    }
    expect(text).toContain(a._id);
    expect(JSON.parse(text).format).toBe('care-sandbox/1');
    expect((await readdir(dir)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('refuses to start on a file that is not sandbox data, and leaves it alone', async () => {
    const file = join(dir, 'other.json');
    await writeFile(file, '{"hello":"world"}');
    await expect(startSandbox({ dataFile: file })).rejects.toThrow(/format/);
    expect(await readFile(file, 'utf8')).toBe('{"hello":"world"}');
  });
});
