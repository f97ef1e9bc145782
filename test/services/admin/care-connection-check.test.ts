/** Checking a care connection against the real sandbox: what an admin is told for good, wrong and half-permitted credentials. */
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AddressRule, createCareClient, type CareClient } from '../../../src/care/index.js';
import { careHostPolicy } from '../../../src/services/admin/care-hosts.js';
import { startSandbox, type RunningSandbox } from '../../../dev/sandbox/index.js';
import { checkCareConnection, connectionReport, type ConnectionCheck } from '../../../src/services/admin/care-connection-check.js';

const START = new Date('2024-06-10T09:30:00Z');
const READ_ALL = { actions: ['read'], users: ['read'], 'notification-groups': ['read'], locations: ['read'], 'literature-items': ['read'] } as const;

let sandbox: RunningSandbox;
const clients: CareClient[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({
    accounts: [
      {
        accountId: 'acct-check',
        apiKey: 'key-good',
        apiSecret: 'secret-good',
        extraKeys: [
          { apiKey: 'key-no-write', apiSecret: 'secret-no-write', permissions: READ_ALL },
          { apiKey: 'key-no-users', apiSecret: 'secret-no-users', permissions: { ...READ_ALL, users: [], actions: ['read', 'create', 'update'] } },
          { apiKey: 'key-no-actions', apiSecret: 'secret-no-actions', permissions: { ...READ_ALL, actions: [] } },
          { apiKey: 'key-nothing', apiSecret: 'secret-nothing', permissions: {} },
        ],
      },
      {},
    ],
    rateLimit: 0,
    startTime: START,
    controls: true,
  });
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await sandbox?.stop();
});

function client(
  over: Partial<{ baseUrl: string; accountId: string; apiKey: string; apiSecret: string; allowAddress: AddressRule | undefined }> = {},
): CareClient {
  const c = createCareClient({
    baseUrl: sandbox.url,
    accountId: 'acct-check',
    apiKey: 'key-good',
    apiSecret: 'secret-good',
    maxRetries: 0,
    timeoutMs: 2000,
    ...over,
  });
  clients.push(c);
  return c;
}

const missing = (check: ConnectionCheck) => check.permissions.filter((p) => !p.ok).map((p) => p.key);

async function closedLoopbackPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('checking a care connection', () => {
  it('finds a good key working with every permission the app uses, and changes no action', async () => {
    const c = client();
    const before = await c.actions.collect({ attributes: ['_id', 'modified', 'completed'], limit: 10_000 });
    const check = await checkCareConnection(c, { address: sandbox.url });
    expect(check).toMatchObject({ ok: true });
    expect(check.problem).toBeUndefined();
    expect(check.permissions.map((p) => [p.key, p.ok])).toEqual([
      ['actions.read', true],
      ['actions.write', true],
      ['users.read', true],
      ['groups.read', true],
      ['locations.read', true],
      ['literature.read', true],
    ]);
    expect(connectionReport(check)).toContain('every permission');
    const after = await c.actions.collect({ attributes: ['_id', 'modified', 'completed'], limit: 10_000 });
    expect(after).toEqual(before);
  });

  it('says the secret is wrong when the signature does not match', async () => {
    const check = await checkCareConnection(client({ apiSecret: 'not-the-secret' }));
    expect(check.ok).toBe(false);
    expect(check.problem?.kind).toBe('credentials');
    expect(check.problem?.sentence).toMatch(/API secret/);
    expect(check.permissions).toEqual([]);
    expect(connectionReport(check)).toContain('API secret');
  });

  it('says the account Id is unknown, and that a key of another account does not belong to this one', async () => {
    const unknown = await checkCareConnection(client({ accountId: 'no-such-account' }));
    expect(unknown.problem).toMatchObject({ kind: 'credentials' });
    expect(unknown.problem?.sentence).toMatch(/account Id/);

    const second = sandbox.accounts[1]!;
    const otherKey = await checkCareConnection(client({ accountId: second.accountId }));
    expect(otherKey.problem).toMatchObject({ kind: 'credentials' });
    expect(otherKey.problem?.sentence).toMatch(/does not know this API key/);
  });

  it('says nothing answers at an address where no server listens', async () => {
    const port = await closedLoopbackPort();
    const address = `http://127.0.0.1:${port}/v1`;
    const check = await checkCareConnection(client({ baseUrl: address }), { address });
    expect(check.ok).toBe(false);
    expect(check.problem?.kind).toBe('unreachable');
    // One sentence whatever happened there: it tells nobody whether a port is closed or silent.
    expect(check.problem?.sentence).toBe(`Could not reach the care system at 127.0.0.1:${port}. Check the API address.`);
  });

  it('says what is allowed, not what answered, when a name resolves to this server’s own network (the sandbox listens there)', async () => {
    const policy = careHostPolicy();
    const address = `http://localhost:${new URL(sandbox.url).port}/v1`;
    const before = (await (await fetch(`${sandbox.accounts[0]!.controlsUrl}/stats`)).json()) as { total: number };
    const check = await checkCareConnection(client({ baseUrl: address, allowAddress: policy.addressRuleFor(address) }), { address, allowed: policy.allowed });
    expect(check).toMatchObject({ ok: false, problem: { kind: 'unreachable' }, permissions: [] });
    expect(check.problem?.sentence).toBe(
      `localhost:${new URL(sandbox.url).port} is not an address this app connects to. The care API must be at a public https:// address, given by its host name (e.g. https://api.carehq.co.uk/v1). If your care system is on a private address, ask whoever runs this deployment.`,
    );
    const after = (await (await fetch(`${sandbox.accounts[0]!.controlsUrl}/stats`)).json()) as { total: number };
    expect(typeof before.total).toBe('number');
    expect(after.total).toBe(before.total); // nothing reached the sandbox
  });

  it('says an address that answers, but not as the care API, is wrong', async () => {
    const address = sandbox.url.replace(/\/v1$/, '/not-the-api');
    const check = await checkCareConnection(client({ baseUrl: address }), { address });
    expect(check.problem).toMatchObject({ kind: 'unreachable' });
    expect(check.problem?.sentence).toMatch(/not as the care API/);
  });

  it('finds a read-only key working, but says nobody can change actions from Slack', async () => {
    const check = await checkCareConnection(client({ apiKey: 'key-no-write', apiSecret: 'secret-no-write' }));
    expect(check.ok).toBe(true);
    expect(missing(check)).toEqual(['actions.write']);
    const report = connectionReport(check);
    expect(report).toContain('Actions: create and update');
    expect(report).toMatch(/Nobody can create, change, complete/);
  });

  it('reports a key that may not read users: people cannot be linked by email', async () => {
    const check = await checkCareConnection(client({ apiKey: 'key-no-users', apiSecret: 'secret-no-users' }));
    expect(check.ok).toBe(true);
    expect(missing(check)).toEqual(['users.read']);
    expect(connectionReport(check)).toMatch(/Users: read\*: People cannot be linked to their care account by their email/);
  });

  it('knows the credentials are right even when the key may not read actions (a 403, not a 401)', async () => {
    const check = await checkCareConnection(client({ apiKey: 'key-no-actions', apiSecret: 'secret-no-actions' }));
    expect(check.ok).toBe(true);
    expect(missing(check)).toEqual(['actions.read', 'actions.write']);
  });

  it('does not call a key that may do nothing at all connected, and says to check its permissions', async () => {
    const check = await checkCareConnection(client({ apiKey: 'key-nothing', apiSecret: 'secret-nothing' }));
    expect(check.ok).toBe(false);
    expect(check.problem).toMatchObject({ kind: 'credentials' });
    expect(check.problem?.sentence).toMatch(/refused everything.*Check the key’s permissions/);
    expect(missing(check)).toHaveLength(6);
  });

  it('counts an API without the users endpoint (404) as users not readable', async () => {
    const bare = await startSandbox({ usersEndpoint: false, rateLimit: 0, startTime: START });
    try {
      const c = createCareClient({ baseUrl: bare.url, ...bare.credentials, maxRetries: 0 });
      clients.push(c);
      const check = await checkCareConnection(c);
      expect(check.ok).toBe(true);
      expect(missing(check)).toEqual(['users.read']);
    } finally {
      await bare.stop();
    }
  });
});
