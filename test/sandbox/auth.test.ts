import { describe, expect, it } from 'vitest';
import { rawCall, rawSignV1, rawSignV2 } from '../helpers/raw-signer.js';
import { useSandbox } from './support.js';

const h = useSandbox({
  seed: 'empty',
  extraKeys: [
    { apiKey: 'reader', apiSecret: 'reader-secret', permissions: { actions: ['read'] } },
    { apiKey: 'writer', apiSecret: 'writer-secret', permissions: { actions: ['read', 'create'], users: [] } },
  ],
});

const noUsers = useSandbox({ seed: 'empty', usersEndpoint: false });

const now = () => Math.floor(Date.now() / 1000);

describe('the independent test signer', () => {
  it('reproduces the published version 2.0 vectors', () => {
    const base = ['s3cr3t', '1700000000', 'AAAAAAAAAAAAAAAAAAAAAA'] as const;
    const pairs: [string, string][] = [
      ['attributes', 'due'],
      ['attributes', '_id'],
      ['attributes', 'assigned_to'],
      ['filters-assigned_to', '6724fbc74f73a2cebf637806'],
      ['page', '1'],
    ];
    expect(rawSignV2(...base, 'GET', 'actions', pairs)).toBe('8b5ea5884fc75e9e047be99f2800dae4170addd8997064e3a625f69e87d0cc65');
    expect(rawSignV2(...base, 'GET', 'users', [])).toBe('0f7cfbb988492d12528e8076a750e9a1c8f73104194448840b84a294770bf65f');
    expect(rawSignV2(...base, 'PATCH', 'actions/6724fbcb4f73a2cebf638856/complete', [])).toBe(
      '5a0c0f2d70ed9a23827eae04ff01e84dae4542dfd932b8ab7a2590ccab4f9416',
    );
  });
});

describe('authentication', () => {
  it('accepts a correctly signed version 2.0 request with list parameters', async () => {
    const r = await h.api('GET', 'users', { attributes: ['email', 'first_name'], 'filters-q': 'a', per_page: 5 });
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toContain('application/json');
    expect(r.json.items[0]).toHaveProperty('email');
  });

  it('accepts a signed form body on PATCH and the path with a trailing slash', async () => {
    const created = await h.api('PUT', 'actions/', { due: '2024-06-11 10:00:00', task: 'Signed body' });
    expect(created.status).toBe(200);
    const done = await h.api('PATCH', `/actions/${created.json._id}/complete/`);
    expect(done.status).toBe(200);
    expect(done.json.completed).not.toBeNull();
  });

  for (const header of ['X-CareHQ-AccountId', 'X-CareHQ-APIKey', 'X-CareHQ-Timestamp', 'X-CareHQ-Signature', 'X-CareHQ-Nonce']) {
    it(`answers 401 naming the missing ${header} header`, async () => {
      const r = await h.api('GET', 'users', {}, { omit: [header] });
      expect(r.status).toBe(401);
      expect(r.json.hint).toContain(header);
    });
  }

  it('answers 401 to an unknown account and to an unknown key', async () => {
    const { url, credentials } = h.sandbox;
    const account = await rawCall(url, { ...credentials, accountId: 'someone-else' }, 'GET', 'users');
    expect(account.status).toBe(401);
    expect(account.json.hint).toMatch(/account/i);
    const key = await rawCall(url, { ...credentials, apiKey: 'no-such-key' }, 'GET', 'users');
    expect(key.status).toBe(401);
    expect(key.json.hint).toMatch(/API key/);
  });

  it('answers 401 to a wrong secret without revealing the expected signature', async () => {
    const { url, credentials } = h.sandbox;
    const timestamp = now();
    const nonce = 'BBBBBBBBBBBBBBBBBBBBBB';
    const r = await rawCall(url, { ...credentials, apiSecret: 'wrong' }, 'GET', 'users', { page: 1 }, { timestamp, nonce });
    expect(r.status).toBe(401);
    expect(r.json.hint).toMatch(/signature/i);
    const expected = rawSignV2(credentials.apiSecret, String(timestamp), nonce, 'GET', 'users', [['page', '1']]);
    expect(r.text).not.toContain(expected);
    expect(r.text).not.toContain(credentials.apiSecret);
  });

  it('answers 401 when the parameters sent differ from those signed', async () => {
    const { url, credentials } = h.sandbox;
    const timestamp = String(now());
    const nonce = 'CCCCCCCCCCCCCCCCCCCCCC';
    const signature = rawSignV2(credentials.apiSecret, timestamp, nonce, 'GET', 'users', [['page', '1']]);
    const r = await rawCall(url, credentials, 'GET', 'users', { page: 2 }, { timestamp, nonce, signature });
    expect(r.status).toBe(401);
  });

  it('answers 401 when the method or path differs from the one signed', async () => {
    const { url, credentials } = h.sandbox;
    const timestamp = String(now());
    const nonce = 'DDDDDDDDDDDDDDDDDDDDDD';
    const signature = rawSignV2(credentials.apiSecret, timestamp, nonce, 'GET', 'users', []);
    expect((await rawCall(url, credentials, 'GET', 'locations', {}, { timestamp, nonce, signature })).status).toBe(401);
  });

  it('accepts a timestamp within 300 seconds and refuses one further away, either side', async () => {
    expect((await h.api('GET', 'users', {}, { timestamp: now() - 290 })).status).toBe(200);
    expect((await h.api('GET', 'users', {}, { timestamp: now() + 290 })).status).toBe(200);
    const past = await h.api('GET', 'users', {}, { timestamp: now() - 310 });
    expect(past.status).toBe(401);
    expect(past.json.hint).toMatch(/300 seconds/);
    expect((await h.api('GET', 'users', {}, { timestamp: now() + 310 })).status).toBe(401);
    expect((await h.api('GET', 'users', {}, { timestamp: 'yesterday' })).status).toBe(401);
  });

  it('refuses a replayed request (same nonce) with 401', async () => {
    const nonce = `replay${Math.random().toString(36).slice(2, 18)}`;
    const timestamp = now();
    expect((await h.api('GET', 'users', { page: 1 }, { nonce, timestamp })).status).toBe(200);
    const replay = await h.api('GET', 'users', { page: 1 }, { nonce, timestamp });
    expect(replay.status).toBe(401);
    expect(replay.json.hint).toMatch(/nonce/i);
  });

  it('advancing the virtual data clock never breaks signatures', async () => {
    await h.control('POST', 'clock', { advanceMs: 10 * 24 * 3600 * 1000 });
    expect((await h.api('GET', 'users')).status).toBe(200);
    await h.control('POST', 'clock', { set: '2024-06-10T09:30:00Z' });
  });

  it('verifies version 1 (no version header) with parameters in insertion order', async () => {
    const ok = await h.api('GET', 'users', { attributes: ['email', '_id'], per_page: 2 }, { version: '1' });
    expect(ok.status).toBe(200);
    expect(ok.json.items).toHaveLength(2);
    const fractional = await h.api('GET', 'users', { page: 1 }, { version: '1', timestamp: `${now()}.123456` });
    expect(fractional.status).toBe(200);
    const body = await h.api('PUT', 'actions', { due: '2024-06-12 09:00:00', task: 'v1 create', urgent: 'true' }, { version: '1' });
    expect(body.status).toBe(200);
    expect(body.json.urgent).toBe(true);
  });

  it('refuses a version 1 signature made over a different order or secret', async () => {
    const { credentials } = h.sandbox;
    const ts = String(now());
    const reordered = rawSignV1(credentials.apiSecret, ts, [
      ['per_page', '2'],
      ['page', '1'],
    ]);
    const r = await h.api('GET', 'users', { page: 1, per_page: 2 }, { version: '1', timestamp: ts, signature: reordered });
    expect(r.status).toBe(401);
    expect(r.json.hint).toMatch(/version 1/);
    const wrong = await h.api('GET', 'users', {}, { version: '1', signature: rawSignV1('nope', ts, []), timestamp: ts });
    expect(wrong.status).toBe(401);
  });

  it('refuses an unsupported signature version', async () => {
    const r = await h.api('GET', 'users', {}, { version: '3.0' });
    expect(r.status).toBe(401);
    expect(r.json.hint).toMatch(/version/);
  });
});

describe('permissions', () => {
  const reader = { accountId: '', apiKey: 'reader', apiSecret: 'reader-secret' };
  const writer = { accountId: '', apiKey: 'writer', apiSecret: 'writer-secret' };

  it('lets a key do what it was granted and answers 403 to everything else', async () => {
    const { url, credentials } = h.sandbox;
    const as = (k: typeof reader) => ({ ...k, accountId: credentials.accountId });
    expect((await rawCall(url, as(reader), 'GET', 'actions')).status).toBe(200);
    const create = await rawCall(url, as(reader), 'PUT', 'actions', { due: '2024-06-11 10:00:00', task: 'no' });
    expect(create.status).toBe(403);
    expect(create.json.hint).toMatch(/create/);
    expect((await rawCall(url, as(reader), 'GET', 'users')).status).toBe(403);
    expect((await rawCall(url, as(reader), 'GET', 'locations')).status).toBe(403);

    const made = await rawCall(url, as(writer), 'PUT', 'actions', { due: '2024-06-11 10:00:00', task: 'yes' });
    expect(made.status).toBe(200);
    expect((await rawCall(url, as(writer), 'PATCH', `actions/${made.json._id}/complete`)).status).toBe(403);
    expect((await rawCall(url, as(writer), 'PATCH', `actions/${made.json._id}`, { due: '2024-06-11 10:00:00', task: 'x' })).status).toBe(403);
    expect((await rawCall(url, as(writer), 'GET', 'users')).status).toBe(403);
  });
});

describe('routing errors', () => {
  it('answers 404 to an unknown path, even unsigned', async () => {
    const r = await h.api('GET', 'widgets');
    expect(r.status).toBe(404);
    expect(r.json.hint).toBeTruthy();
    expect((await rawCall(h.sandbox.url.replace('/v1', ''), h.sandbox.credentials, 'GET', 'elsewhere')).status).toBe(404);
  });

  it('answers 404 on /v1/users when the users endpoint is switched off', async () => {
    const r = await noUsers.api('GET', 'users');
    expect(r.status).toBe(404);
    expect((await noUsers.api('GET', 'actions')).status).toBe(200);
  });

  it('answers 404 to an unknown or malformed id', async () => {
    expect((await h.api('GET', 'actions/000000000000000000000000')).status).toBe(404);
    expect((await h.api('GET', 'actions/not-an-id')).status).toBe(404);
    expect((await h.api('PATCH', 'actions/000000000000000000000000/complete')).status).toBe(404);
    expect((await h.api('GET', 'locations/000000000000000000000000')).json.hint).toMatch(/location/);
  });

  it("checks the signature over the decoded path, as the vendor's clients sign it: an id needing percent-encoding is a 404", async () => {
    const get = await h.api('GET', 'actions/not an id', {}, { sendPath: 'actions/not%20an%20id' });
    expect([get.status, get.json.hint]).toEqual([404, 'No action with Id not an id.']);
    const patch = await h.api('PATCH', 'actions/not an id/complete', {}, { sendPath: 'actions/not%20an%20id/complete' });
    expect(patch.status).toBe(404);
    const signedEncoded = await h.api('GET', 'actions/not%20an%20id');
    expect(signedEncoded.status).toBe(401);
    expect((await h.api('GET', 'actions/%E0%A4%A')).status).toBe(404);
  });

  it('answers 405 with Allow to a known path with a wrong method', async () => {
    const post = await h.api('POST', 'actions', { task: 'x' });
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe('GET, PUT');
    expect((await h.api('DELETE', 'actions/000000000000000000000000')).status).toBe(405);
    expect((await h.api('GET', 'actions/000000000000000000000000/complete')).status).toBe(405);
    expect((await h.api('PUT', 'locations')).status).toBe(405);
    expect((await h.api('PATCH', 'users/000000000000000000000000')).status).toBe(405);
  });

  it('answers 400 to a JSON body (the API takes form data)', async () => {
    const r = await h.api('PUT', 'actions', {}, { rawBody: '{"task":"x"}', headers: { 'Content-Type': 'application/json' } });
    expect(r.status).toBe(400);
    expect(r.json.hint).toMatch(/form/);
  });
});
