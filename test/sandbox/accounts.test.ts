import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_USERS, startSandbox, type RunningSandbox, type SandboxOptions } from '../../dev/sandbox/index.js';
import { controlCall, rawClient } from '../helpers/raw-signer.js';
import { START } from './support.js';

const running: RunningSandbox[] = [];
afterAll(async () => {
  await Promise.all(running.map((s) => s.stop()));
});

async function start(options: SandboxOptions) {
  const sandbox = await startSandbox({ controls: true, rateLimit: 0, startTime: START, seed: 20, ...options });
  running.push(sandbox);
  const api = (i: number) => rawClient(sandbox.url, sandbox.accounts[i]!);
  const control = (i: number, method: string, path: string, body?: unknown) => controlCall(sandbox.accounts[i]!.controlsUrl, method, path, body);
  return { sandbox, api, control };
}

const emailsOf = async (api: ReturnType<typeof rawClient>) =>
  ((await api('GET', 'users', { attributes: ['email'], per_page: 100 })).json.items as { email: string }[]).map((u) => u.email);

describe('a sandbox with several accounts', () => {
  it('keeps one account (the documented defaults) unless asked for more', async () => {
    const { sandbox } = await start({});
    expect(sandbox.accounts).toHaveLength(1);
    expect(sandbox.credentials).toEqual({ accountId: 'sandbox-account', apiKey: 'sandbox-key', apiSecret: 'sandbox-secret' });
    expect(sandbox.accounts[0]).toMatchObject({ ...sandbox.credentials, name: 'Brightwater Care' });
  });

  it('gives every account its own credentials, provider and staff, derived from the first', async () => {
    const { sandbox } = await start({ accounts: 3, accountId: 'acme', apiKey: 'k', apiSecret: 's' });
    expect(sandbox.accounts.map(({ accountId, apiKey, apiSecret }) => ({ accountId, apiKey, apiSecret }))).toEqual([
      { accountId: 'acme', apiKey: 'k', apiSecret: 's' },
      { accountId: 'acme-2', apiKey: 'k-2', apiSecret: 's-2' },
      { accountId: 'acme-3', apiKey: 'k-3', apiSecret: 's-3' },
    ]);
    expect(sandbox.credentials).toEqual({ accountId: 'acme', apiKey: 'k', apiSecret: 's' });
    expect(new Set(sandbox.accounts.map((a) => a.name)).size).toBe(3);
    expect(sandbox.accounts[0]!.people).toEqual(DEMO_USERS);
    const names = sandbox.accounts.map((a) => new Set(a.people.map((p) => `${p.first_name} ${p.last_name}`)));
    for (const name of names[1]!) expect(names[0]!.has(name)).toBe(false);
    expect(sandbox.accounts[2]!.controlsUrl).toBe(`${sandbox.controlsUrl}/accounts/acme-3`);
  });

  it("answers a request signed with one account's key with that account's data only", async () => {
    const { sandbox, api } = await start({ accounts: 2 });
    const [a, b] = [api(0), api(1)];
    const [usersA, usersB] = [await emailsOf(a), await emailsOf(b)];
    expect(usersA.sort()).toEqual(sandbox.accounts[0]!.people.map((p) => p.email).sort());
    expect(usersB.sort()).toEqual(sandbox.accounts[1]!.people.map((p) => p.email).sort());
    expect(usersA.filter((e) => usersB.includes(e))).toEqual([]);

    // The same list query (cached per account) gives each account its own answer.
    const locations = async (c: typeof a) => (await c('GET', 'locations', { attributes: ['name'] })).json.items.map((l: { name: string }) => l.name);
    const [placesA, placesB] = [await locations(a), await locations(b)];
    expect(placesA.filter((n: string) => placesB.includes(n))).toEqual([]);

    const made = await b('PUT', 'actions', { due: '2024-06-11 10:00:00', task: 'Only in the second account' });
    expect(made.status).toBe(200);
    expect((await b('GET', `actions/${made.json._id}`)).status).toBe(200);
    expect((await a('GET', `actions/${made.json._id}`)).status).toBe(404);
    expect((await a('GET', 'actions', { 'filters-q': 'Only in the second' })).json.items).toEqual([]);
    expect((await a('PATCH', `actions/${made.json._id}/complete`)).status).toBe(404);
    expect((await b('GET', `actions/${made.json._id}`)).json.completed).toBeNull();
  });

  it("refuses one account's key or secret under another account's Id", async () => {
    const { sandbox } = await start({ accounts: 2 });
    const [first, second] = sandbox.accounts as [(typeof sandbox.accounts)[0], (typeof sandbox.accounts)[0]];
    const keyOfOther = await rawClient(sandbox.url, { ...second, apiKey: first.apiKey, apiSecret: first.apiSecret })('GET', 'users');
    expect(keyOfOther.status).toBe(401);
    expect(keyOfOther.json.hint).toContain('Unknown API key');
    const secretOfOther = await rawClient(sandbox.url, { ...second, apiSecret: first.apiSecret })('GET', 'users');
    expect(secretOfOther.status).toBe(401);
    expect(secretOfOther.json.hint).toContain('Signature does not match');
    const unknown = await rawClient(sandbox.url, { ...first, accountId: 'no-such-account' })('GET', 'users');
    expect(unknown.status).toBe(401);
    expect(unknown.json.hint).toContain('Unknown account Id');
  });

  it("seeds each account from its own seed value: the first account's data is a one-account sandbox's", async () => {
    const many = await start({ accounts: 2, seedValue: 41 });
    const one = await start({ seedValue: 41 });
    const attrs = { attributes: ['action_no', 'task', 'due', 'assigned_to', 'location'], per_page: 100 };
    const actions0 = (await many.api(0)('GET', 'actions', attrs)).json.items;
    expect(actions0).toEqual((await one.api(0)('GET', 'actions', attrs)).json.items);
    expect(actions0).toHaveLength(20);
    const actions1 = (await many.api(1)('GET', 'actions', attrs)).json.items;
    expect(actions1).toHaveLength(20);
    expect(actions1.map((x: { _id: string }) => x._id)).not.toEqual(actions0.map((x: { _id: string }) => x._id));
  });

  it("limits each account's key on its own: one account at its limit never slows another", async () => {
    // A wide window keeps this deterministic on a busy machine.
    const { api } = await start({ accounts: 2, rateLimit: 2, rateWindowMs: 60_000 });
    const [a, b] = [api(0), api(1)];
    expect((await a('GET', 'users')).status).toBe(200);
    expect((await a('GET', 'users')).status).toBe(200);
    const refused = await a('GET', 'users');
    expect(refused.status).toBe(429);
    const other = await b('GET', 'users');
    expect(other.status).toBe(200);
    expect(other.headers['x-carehq-ratelimit-remaining']).toBe('1');
    expect((await b('GET', 'users')).status).toBe(200);
    expect((await b('GET', 'users')).status).toBe(429);
  });

  it('answers 403 naming the permission when an account key lacks users or literature read', async () => {
    const { api, sandbox } = await start({
      accounts: [{}, { permissions: { actions: ['read', 'create', 'update'], locations: ['read'], notification_groups: ['read'] } }],
    });
    const full = api(0);
    const limited = api(1);
    expect((await full('GET', 'users')).status).toBe(200);
    expect((await full('GET', 'literature-items')).status).toBe(200);
    const users = await limited('GET', 'users');
    expect(users.status).toBe(403);
    expect(users.json.hint).toBe("This API key lacks the 'read' permission on users.");
    const literature = await limited('GET', 'literature-items');
    expect(literature.status).toBe(403);
    expect(literature.json.hint).toBe("This API key lacks the 'read' permission on literature-items.");
    expect((await limited('GET', 'actions')).status).toBe(200);
    expect((await limited('GET', 'notification-groups')).status).toBe(200);
    expect(sandbox.accounts[1]!.accountId).toBe('sandbox-account-2');
  });

  it('adds a key lacking a permission to one account at run time, unknown to the others', async () => {
    const { sandbox, control, api } = await start({ accounts: 2 });
    const added = await control(1, 'POST', 'keys', { apiKey: 'no-literature', apiSecret: 'no-literature-secret', permissions: { actions: ['read'] } });
    expect(added.status).toBe(200);
    const key = { apiKey: 'no-literature', apiSecret: 'no-literature-secret' };
    const onSecond = rawClient(sandbox.url, { ...sandbox.accounts[1]!, ...key });
    expect((await onSecond('GET', 'actions')).status).toBe(200);
    expect((await onSecond('GET', 'literature-items')).status).toBe(403);
    expect((await onSecond('PUT', 'actions', { due: '2024-06-11 10:00:00', task: 'x' })).status).toBe(403);
    expect((await rawClient(sandbox.url, { ...sandbox.accounts[0]!, ...key })('GET', 'actions')).status).toBe(401);
    expect((await api(1)('GET', 'literature-items')).status).toBe(200);
  });

  it('keeps controls per account (reset, faults, stats, the web app) and shares the virtual clock', async () => {
    const { sandbox, control, api } = await start({ accounts: 2 });
    const [a, b] = [api(0), api(1)];

    expect((await control(1, 'POST', 'faults', { errorRate: 1, errorStatus: 503 })).status).toBe(200);
    expect((await b('GET', 'actions')).status).toBe(503);
    expect((await a('GET', 'actions')).status).toBe(200);
    await control(1, 'POST', 'faults', { reset: true });

    await control(0, 'POST', 'stats/reset');
    await control(1, 'POST', 'stats/reset');
    await a('GET', 'users');
    await a('GET', 'users');
    await b('GET', 'users');
    expect((await control(0, 'GET', 'stats')).json.total).toBe(2);
    expect((await control(1, 'GET', 'stats')).json.total).toBe(1);
    // The plain controls act on the first account.
    expect((await controlCall(sandbox.controlsUrl, 'GET', 'stats')).json.total).toBe(2);

    const web = await control(1, 'POST', 'actions', { task: 'Made in the second web app', due: '2024-06-12T10:00:00Z' });
    expect(web.status).toBe(200);
    expect((await b('GET', `actions/${web.json._id}`)).status).toBe(200);
    expect((await a('GET', `actions/${web.json._id}`)).status).toBe(404);
    expect((await control(0, 'GET', `actions/${web.json._id}`)).status).toBe(404);

    const reset = await control(1, 'POST', 'reset', { seed: 'empty' });
    expect(reset.json.counts.actions).toBe(0);
    expect((await a('GET', 'actions', { per_page: 100 })).json.item_count).toBe(20);

    await control(1, 'POST', 'clock', { set: '2025-01-02T03:04:05Z' });
    expect((await control(0, 'GET', 'clock')).json.now.startsWith('2025-01-02T03:0')).toBe(true);
    expect((await a('PUT', 'actions', { due: '2025-01-03 10:00:00', task: 'Clocked' })).json.created.startsWith('2025-01-02 03:0')).toBe(true);

    const list = await controlCall(sandbox.controlsUrl, 'GET', 'accounts');
    expect(list.json.accounts.map((x: { accountId: string; name: string }) => [x.accountId, x.name])).toEqual(
      sandbox.accounts.map((x) => [x.accountId, x.name]),
    );
    expect((await controlCall(sandbox.controlsUrl, 'GET', 'accounts/nobody/stats')).status).toBe(404);
  });

  it('saves and restores every account in one data file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sandbox-accounts-'));
    try {
      const file = join(dir, 'sandbox.json');
      const first = await start({ accounts: 2, dataFile: file, seed: 'empty' });
      const made = (await first.api(1)('PUT', 'actions', { due: '2024-06-11 10:00:00', task: 'Kept for the second account' })).json;
      await first.sandbox.stop();
      expect(JSON.parse(await readFile(file, 'utf8')).moreAccounts.map((x: { accountId: string }) => x.accountId)).toEqual(['sandbox-account-2']);

      const again = await start({ accounts: 2, dataFile: file, seed: 'empty' });
      expect((await again.api(1)('GET', `actions/${made._id}`)).json.task).toBe('Kept for the second account');
      expect((await again.api(0)('GET', `actions/${made._id}`)).status).toBe(404);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses a bad number of accounts or two accounts with one Id', async () => {
    await expect(startSandbox({ accounts: 0 })).rejects.toThrow(/at least 1/);
    await expect(startSandbox({ accounts: [{}, { accountId: 'sandbox-account' }] })).rejects.toThrow(/Two sandbox accounts have the Id sandbox-account/);
  });
});
